"""The harness on a busy or a slow unit (issue 35): a game's time limit runs only while
the game stands still, and a harness killed mid-run leaves no unit behind."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from firmware.link.client import LinkClient
from firmware.link.harness import Harness
from firmware.link.press_play import Patience, play_by_presses
from firmware.link.pytest_plugin import InProcessUnit
from firmware.link.report import StepFailed

ROOT = Path(__file__).resolve().parents[2]
#: Seconds of the unit's time without an action before a game is given up.
STALL_S = 1.0


def test_a_game_longer_than_the_limit_passes_while_it_moves_and_a_stuck_one_fails() -> None:
    """Before: a fixed budget for the whole game ("not finished within 90 s": the
    reference timing's games take longer). Now only standing still is limited."""
    with InProcessUnit(virtual_clock=True) as unit, LinkClient(unit.url, timeout=60) as client:
        d = Harness(client)
        d.new_game("switch16", ["human", "expert"], rules="pressman-2003")
        started = d.now()
        assert play_by_presses(d, "switch16", STALL_S).game_over
        assert d.now() - started > 2 * STALL_S  # the whole game took longer than the limit
        with pytest.raises(StepFailed, match=f"no action for {STALL_S} s of the unit's time"):
            patience = Patience(d, STALL_S)  # over: nothing moves any more
            while True:
                patience.check(d.state()["actions"])
                d.idle()


def test_an_advance_that_takes_the_unit_long_is_waited_for() -> None:
    """On a virtual clock the unit does its slow work inside ``advance`` (Swytch's
    end-of-game review, inline): on a busy host that takes longer than a reply's usual
    wait. Before: "timeout: no reply to 'advance' within 5.0 s" failed a whole Swytch
    game under load; here the reply's usual wait is 0.2 s and one advance takes 0.5 s."""
    with InProcessUnit(virtual_clock=True) as unit, LinkClient(unit.url, timeout=0.2) as client:
        d = Harness(client)
        run_for = unit.unit.run_for

        def slow(seconds: float) -> None:
            time.sleep(0.5)
            run_for(seconds)

        unit.unit.run_for = slow  # type: ignore[method-assign]
        before = d.now()
        d.advance(1.0)
        assert d.now() == before + 1.0


def _children(pid: int) -> list[int]:
    tasks = Path(f"/proc/{pid}/task")
    return [int(c) for t in tasks.iterdir() for c in (t / "children").read_text().split()]


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0] != "Z"
    except (FileNotFoundError, IndexError):
        return False


def test_a_killed_harness_leaves_no_unit_behind(tmp_path: Path) -> None:
    """Before: the unit ``switch16 hil --mock pty`` started lived on after the harness
    was killed, reopening its pty's path every second: whoever got that pty next (another
    test, another harness) talked to two units."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with subprocess.Popen([sys.executable, "-m", "firmware.cli", "hil", "--mock", "pty",
                           "--presets", "tablier"], stdout=subprocess.PIPE, text=True,
                          stderr=subprocess.DEVNULL, cwd=tmp_path, env=env) as hil:  # fmt: skip
        assert hil.stdout is not None
        for line in hil.stdout:  # the harness has its unit once the unit said hello
            if line.startswith("hil: unit says"):
                break
        (unit,) = _children(hil.pid)
        hil.kill()
    deadline = time.monotonic() + 120  # the unit stops at once; this only ends the test
    while _alive(unit) and time.monotonic() < deadline:
        time.sleep(0.1)
    if _alive(unit):
        os.kill(unit, signal.SIGKILL)
        pytest.fail("the unit outlived the harness that started it")
