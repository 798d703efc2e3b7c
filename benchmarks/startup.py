"""Start-up time: process start -> every display shows its first frame.

Runs the real ``switch16 run`` in a subprocess, on the Pi backend with gpiozero's
MockFactory and the emulated OLED bus (``--hal benchmarks.startup:emulated_pi``), and
times it to the READY=1 it sends systemd (``NOTIFY_SOCKET``), which the unit sends
once every display has its first frame. Also: the CPU time the process used by then
(``time.process_time`` in the child, just before READY),
when the backend was open (``hal open``), the bare interpreter's start and the unit
path's import time, each the median of ``--runs``.

A Pi Zero 2 W estimate: CPU time × 30 to 40 (pure Python on its Cortex-A53 at 1 GHz
against this machine; stock luma's packing loop: ~0.5 ms here, ~20 ms there) plus the
I²C time of the first frames at 400 kHz (9 bits a byte: a full 1,024-byte frame
≈ 23 ms), counted on the emulated bus.

Run: python benchmarks/startup.py [--runs N]
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
MARKS_ENV = "STARTUP_MARKS"
PI_FACTORS = (30, 40)
I2C_HZ = 400_000
UNIT_IMPORTS = "import firmware.cli, firmware.commands.run, firmware.unit, hal.pi, hal.backends"


def emulated_pi(config: Any, **kwargs: Any) -> Any:
    """The HAL backend for the child: PiHal on MockFactory and a FakeBus with one
    emulated panel per seat behind a fake mux sysfs. Notes when it is open."""
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    from hal.pi import PiHal
    from hal.testing import FakeBus, mux_sysfs

    bus = FakeBus()
    bus.attach_config(config)
    sysfs = mux_sysfs(config, Path(tempfile.mkdtemp(prefix="sysfs-i2c-")))
    hal = PiHal(config, buses=bus, pin_factory=MockFactory(pin_class=MockPWMPin),
                i2c_sysfs=sysfs, **kwargs)  # fmt: skip
    if marks := os.environ.get(MARKS_ENV):

        def mark(what: str) -> None:
            with open(marks, "a", encoding="utf-8") as out:
                out.write(f"{what} {time.time()} {time.process_time()}\n")

        mark("open")  # nothing of firmware.unit is imported for this (see run.open_unit)
        display = hal.seats[0].display
        show = display.show

        def first_show(image: Any) -> None:
            mark("frame")  # the first frame seat 0 gets: the splash
            display.show = show  # type: ignore[method-assign]
            show(image)

        display.show = first_show  # type: ignore[method-assign]
    return hal


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) a running process has used so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def first_frame(state: Path) -> dict[str, float]:
    """One ``switch16 run``: seconds to READY (wall, CPU) and to the HAL being open."""
    with tempfile.TemporaryDirectory() as tmp:
        path, marks = Path(tmp) / "notify", Path(tmp) / "marks"
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        sock.bind(str(path))
        sock.settimeout(60)
        env = {**os.environ, "NOTIFY_SOCKET": str(path), MARKS_ENV: str(marks),
               "PYTHONPATH": str(ROOT)}  # fmt: skip
        env.pop("WATCHDOG_USEC", None)
        cmd = [sys.executable, "-m", "firmware.cli", "run", "--hal",
               "benchmarks.startup:emulated_pi", "--state-dir", str(state)]  # fmt: skip
        start = time.time()
        proc = subprocess.Popen(cmd, env=env, cwd=ROOT, stderr=subprocess.DEVNULL)
        try:
            while b"READY=1" not in sock.recv(4096):
                pass
            ready = time.time() - start
            cpu = cpu_seconds(proc.pid)
        finally:
            proc.terminate()
            proc.wait()
            sock.close()
        got = {what: (float(wall), float(used)) for what, wall, used in
               (line.split() for line in marks.read_text().splitlines())}  # fmt: skip
        return {"ready": ready, "cpu": cpu, "hal_open": got["open"][0] - start,
                "hal_cpu": got["open"][1], "splash": got["frame"][0] - start,
                "splash_cpu": got["frame"][1]}  # fmt: skip


def timed(code: str) -> float:
    """Wall seconds of ``python -c code`` (interpreter start included)."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT,
                   env={**os.environ, "PYTHONPATH": str(ROOT)})  # fmt: skip
    return time.perf_counter() - start


def first_frame_bus() -> tuple[int, int, float]:
    """(displays, bytes, seconds at 400 kHz) on the bus from opening the displays to a
    full first frame on each, with one address byte per transaction."""
    from PIL import Image

    from hal.config import load_config
    from hal.testing import mock_pi_hal

    with mock_pi_hal(load_config(None)) as pi:
        for i, seat in enumerate(pi.hal.seats):
            seat.display.show(Image.new("1", (128, 64), i % 2))
        count = pi.bus.bytes_written + pi.bus.transactions
        return len(pi.hal.seats), count, count * 9 / I2C_HZ


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args(argv)
    runs = []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.runs):
            runs.append(first_frame(Path(tmp) / f"state{i}"))
    med = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
    bare = statistics.median(timed("pass") for _ in range(args.runs))
    imports = statistics.median(timed(UNIT_IMPORTS) for _ in range(args.runs))
    displays, count, bus_s = first_frame_bus()
    print(f"switch16 run -> READY (every display has its first frame): {med['ready'] * 1e3:.0f} ms "
          f"wall, {med['cpu'] * 1e3:.0f} ms CPU (median of {args.runs})")  # fmt: skip
    print(f"  backend open (GPIO + displays initialised): {med['hal_open'] * 1e3:.0f} ms wall, "
          f"{med['hal_cpu'] * 1e3:.0f} ms CPU")  # fmt: skip
    print(f"  splash on the displays: {med['splash'] * 1e3:.0f} ms wall, "
          f"{med['splash_cpu'] * 1e3:.0f} ms CPU")  # fmt: skip
    print(f"bare interpreter start: {bare * 1e3:.0f} ms; with the unit's imports: "
          f"{imports * 1e3:.0f} ms (imports {max(imports - bare, 0) * 1e3:.0f} ms)")  # fmt: skip
    print(f"I²C at 400 kHz, init + first frame on {displays} displays: {count} B, "
          f"{bus_s * 1e3:.0f} ms")  # fmt: skip
    lo, hi = (med["cpu"] * f + bus_s for f in PI_FACTORS)
    # The splash: luma's set-up frame and the splash frame on every display.
    splash_bus = bus_s * 2 / 3
    s_lo, s_hi = (med["splash_cpu"] * f + splash_bus for f in PI_FACTORS)
    print(f"Pi Zero 2 W estimate (CPU × {PI_FACTORS[0]}–{PI_FACTORS[1]} + bus): splash "
          f"{s_lo:.1f}–{s_hi:.1f} s after start, the game's first frames "
          f"{lo:.1f}–{hi:.1f} s")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
