"""Hardware and storage faults, each injected into many bot games (issues 9 and 21).

Every experiment plays all-bot games through the unit loop on the real Pi backend
(MockFactory + emulated OLED bus, virtual time), injects one kind of fault at a random
moment, and checks that no exception escapes, the game reaches its end, and after the
fault clears every panel shows exactly its view (at the contrast wanted, switched on)
and the journal replays to the game.

    python3 -m tools.reliability.faults               # 40 games per fault
    python3 -m tools.reliability.faults --games 5
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from firmware.games.switch16.screens import render_seat
from firmware.games.switch16.seat_views import seat_view
from firmware.games.switch16.setup import BOT_LEVELS, GameSetup
from firmware.screens.notice import with_notice
from firmware.transcript import replay_file
from firmware.unit import Unit
from firmware.unit.loop import NOT_SAVED
from hal.config import load_config
from hal.events import Button
from hal.testing import MockPi, TransferFault, mock_pi_hal
from tools.reliability.soak import FAST

Fault = Callable[[MockPi, Unit, Path, random.Random], Callable[[], None]]
"""Injects a fault now; returns what clears it."""


def loose_panel(pi: MockPi, unit: Unit, state: Path, rng: random.Random) -> Callable[[], None]:
    key = rng.choice(list(pi.bus.i2c))
    emulator = pi.bus.i2c.pop(key)
    return lambda: pi.bus.i2c.__setitem__(key, emulator)


def button_storm(pi: MockPi, unit: Unit, state: Path, rng: random.Random) -> Callable[[], None]:
    for _ in range(500):
        seat, button = rng.randrange(len(pi.config.seats)), rng.choice(list(Button))
        pi.press(seat, button)
        pi.release(seat, button)
    return lambda: None


def stuck_button(pi: MockPi, unit: Unit, state: Path, rng: random.Random) -> Callable[[], None]:
    seat, button = rng.randrange(len(pi.config.seats)), rng.choice(list(Button))
    pi.press(seat, button)
    return lambda: pi.release(seat, button)


def full_storage(pi: MockPi, unit: Unit, state: Path, rng: random.Random) -> Callable[[], None]:
    writer = unit.journal.writer
    if writer is None:
        return lambda: None
    real = writer._file

    class Full:
        closed = False

        def write(self, text: str) -> int:
            raise OSError(28, "No space left on device")

        def close(self) -> None:
            real.close()

    writer._file = Full()
    return lambda: None  # the rewrite at the next action opens a new file


def read_only_storage(pi: MockPi, unit: Unit, state: Path,
                      rng: random.Random) -> Callable[[], None]:  # fmt: skip
    unit.journal.close()  # the kernel's emergency remount does not wait for open files
    subprocess.run(["mount", "-o", "remount,ro", str(state)], check=True)
    return lambda: subprocess.run(["mount", "-o", "remount,rw", str(state)], check=True)


def cut_commands(pi: MockPi, unit: Unit, state: Path, rng: random.Random) -> Callable[[], None]:
    """Every 3rd command transfer of every panel stops after half its bytes (the
    controller keeps the half-received command)."""
    for key in pi.bus.i2c:
        pi.bus.faults[key] = TransferFault(every=3, delivered=0.5, seen=rng.randrange(3))
    return pi.bus.faults.clear


FAULTS: dict[str, Fault] = {
    "panel comes loose": loose_panel,
    "command transfers cut short": cut_commands,
    "button storm (1,000 edges)": button_storm,
    "button stuck down": stuck_button,
    "storage full": full_storage,
    "storage read-only": read_only_storage,
}


@contextlib.contextmanager
def tmpfs() -> Iterator[Path | None]:
    """A tmpfs to remount read-only (root only); None where it cannot be mounted."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp)
        mounted = (
            os.geteuid() == 0
            and subprocess.run(
                ["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", tmp], capture_output=True
            ).returncode
            == 0
        )
        try:
            yield path if mounted else None
        finally:
            if mounted:
                subprocess.run(["umount", "-l", tmp], check=False)


def experiment(fault: Fault, seed: int, state: Path) -> str | None:
    """One game with one fault; what went wrong, or None."""
    rng = random.Random(seed)
    with mock_pi_hal(load_config(None)) as pi:
        setup = GameSetup.of([rng.choice(BOT_LEVELS) for _ in range(rng.randint(2, 4))])
        unit = Unit(pi.hal, state, setup=setup, rng=random.Random(seed), timing=FAST)
        unit.start()
        unit.run_for(rng.uniform(0.5, 20))
        clear = fault(pi, unit, state, rng)
        unit.run_for(rng.uniform(0.5, 20))
        clear()
        n = unit.actions
        if not unit.run_until(lambda: unit.finished or unit.actions > n + 2, 3600):
            return "the game stopped moving"
        unit.run_for(35)  # past the longest display retry backoff
        for seat in range(len(pi.hal.seats)):
            image = render_seat(seat_view(unit.controller.ui(), seat))
            if not unit.journal.saving:
                image = with_notice(image, NOT_SAVED)
            if pi.glass(seat).tobytes() != image.convert("1").tobytes():
                return f"seat {seat}'s panel does not show its view"
            settings = pi.config.displays
            want = settings.dim_contrast if unit.controller.shell.dimmed else settings.contrast
            if pi.displays[seat].contrast != want or not pi.displays[seat].display_on:
                return f"seat {seat}'s panel is not at contrast {want}, switched on"
        if not unit.finished:
            if not unit.journal.saving:
                return "the journal did not resume saving"
            replayed = replay_file(state / "current.jsonl")
            if not replayed.ok or replayed.state != unit.state:
                return f"the journal does not replay to the game: {replayed.error}"
        unit.close(close_hal=False)
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games per fault")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    logging.disable(logging.CRITICAL)
    failures = 0
    for name, fault in FAULTS.items():
        start, problems = time.perf_counter(), []
        for game in range(args.games):
            with tmpfs() as state:
                if state is None:
                    if fault is read_only_storage:
                        break
                    state = Path(tempfile.mkdtemp())
                try:
                    problem = experiment(fault, args.seed * 10_000 + game, state)
                except Exception as exc:
                    problem = f"{type(exc).__name__}: {exc}"
            if problem is not None:
                problems.append(f"  game {game}: {problem}")
        failures += len(problems)
        print(f"{name}: {args.games} games, {len(problems)} failures, "
              f"{time.perf_counter() - start:.0f} s")  # fmt: skip
        if problems:
            print("\n".join(problems[:3]))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
