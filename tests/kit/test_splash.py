"""``switch16 run`` shows the splash on every display before it imports the unit and
replays the journal (the slow part on a Pi Zero); the saved splash is the drawn one."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

from firmware.screens.saver import render_splash
from firmware.splash import splash_image

ROOT = Path(__file__).resolve().parents[2]
LOG_ENV = "SPLASH_TEST_LOG"


def test_the_saved_splash_is_the_drawn_one() -> None:
    assert splash_image().tobytes() == render_splash().tobytes(), "python -m firmware.splash"


def recording_pi(config: Any, **kwargs: Any) -> Any:
    """The child's backend: the emulated Pi; each display notes its first frame."""
    from benchmarks.startup import emulated_pi

    hal = emulated_pi(config, **kwargs)
    for index, seat in enumerate(hal.seats):
        display, show = seat.display, seat.display.show

        def first(image: Any, display: Any = display, show: Any = show, index: int = index) -> None:
            note = {"seat": index, "splash": image.tobytes() == splash_image().tobytes(),
                    "unit_imported": "firmware.unit.loop" in sys.modules}  # fmt: skip
            with open(os.environ[LOG_ENV], "a", encoding="utf-8") as out:
                out.write(json.dumps(note) + "\n")
            display.show = show
            show(image)

        display.show = first
    return hal


def test_run_shows_the_splash_before_the_unit_loads(tmp_path: Path) -> None:
    log, notify = tmp_path / "frames.jsonl", tmp_path / "notify"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(notify))
    sock.settimeout(60)
    env = {**os.environ, "NOTIFY_SOCKET": str(notify), LOG_ENV: str(log), "PYTHONPATH": str(ROOT)}
    env.pop("WATCHDOG_USEC", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "firmware.cli", "run", "--hal",
         "tests.kit.test_splash:recording_pi", "--state-dir", str(tmp_path / "state")],
        env=env, cwd=ROOT, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        while b"READY=1" not in sock.recv(4096):
            pass
    finally:
        proc.terminate()
        proc.wait()
        sock.close()
    frames = [json.loads(line) for line in log.read_text().splitlines()]
    assert [f["seat"] for f in frames] == [0, 1, 2, 3]
    assert all(f["splash"] and not f["unit_imported"] for f in frames)
