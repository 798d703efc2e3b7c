"""Soak: thousands of bot games through the whole unit loop, with button noise and
display faults, on a virtual clock (issue 9).

Each job runs one :class:`~firmware.unit.Unit` on the real Pi backend over gpiozero's
MockFactory and the emulated OLED bus, and plays game after game (2–4 bot seats, every
preset, some points matches) without restarting. Meanwhile random button presses,
holds and storms hit every seat, and panels come loose and back. Any exception fails
the soak; tracemalloc measures the Python heap after a warm-up and at the end.

    python3 -m tools.reliability.soak                      # long form: 10,000 games
    python3 -m tools.reliability.soak --games 40 --jobs 1
"""

from __future__ import annotations

import argparse
import gc
import logging
import random
import sys
import tempfile
import time
import tracemalloc
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from firmware.engine import PRESETS
from firmware.unit import GameSetup, Timing, Unit
from hal.config import load_config
from hal.events import Button
from hal.testing import MockPi, mock_pi_hal

#: Fast but complete: every timer still fires, just sooner.
FAST = Timing(bot_thinking=0.05, tumble=0.05, tumble_frame=0.05, discard_window=0.05,
              rolloff_show=0.05, dim_after=20.0, screensaver_after=60.0)  # fmt: skip
BOTS = ("easy", "rulebook", "expert")
WARM_UP = 200  #: games played before the first heap measurement (at most a tenth)


@dataclass
class JobResult:
    games: int
    actions: int
    presses: int
    faults: int
    warm_games: int
    heap_warm_kib: float
    heap_end_kib: float
    seconds: float


def job_setup(rng: random.Random) -> GameSetup:
    players = rng.choice([2, 2, 2, 2, 3, 4])
    return GameSetup.of([rng.choice(BOTS) for _ in range(players)], rng.choice(list(PRESETS)),
                        points=rng.random() < 0.03)  # fmt: skip


class Noise:
    """Random presses, holds and storms on every seat; panels unplugged and back."""

    def __init__(self, pi: MockPi, rng: random.Random) -> None:
        self.pi, self.rng = pi, rng
        self.presses = self.faults = 0
        self.loose: dict[tuple[int, int], object] = {}

    def poke(self) -> None:
        rng, pi = self.rng, self.pi
        seat = rng.randrange(len(pi.config.seats))
        button = rng.choice(list(Button))
        for _ in range(rng.choice([1, 1, 1, 20])):  # now and then a storm of edges
            pi.press(seat, button)
            pi.release(seat, button)
            self.presses += 1
        if rng.random() < 0.05:
            keys = list(pi.bus.i2c)
            if self.loose and rng.random() < 0.6:
                key = rng.choice(list(self.loose))
                pi.bus.i2c[key] = self.loose.pop(key)  # type: ignore[assignment]
            elif keys:
                key = rng.choice(keys)
                self.loose[key] = pi.bus.i2c.pop(key)
                self.faults += 1


def run_job(seed: int, games: int, minutes: float | None = None) -> JobResult:
    """Play ``games`` games (fewer if ``minutes`` of wall time run out first)."""
    logging.disable(logging.WARNING)  # panels come and go all the time: not news here
    rng = random.Random(seed)
    stop_at = None if minutes is None else time.perf_counter() + minutes * 60
    start = time.perf_counter()
    actions = 0
    warm = 0.0
    tracemalloc.start()
    with tempfile.TemporaryDirectory() as tmp, mock_pi_hal(load_config(None)) as pi:
        noise = Noise(pi, rng)
        unit = Unit(pi.hal, tmp, setup=job_setup(rng), rng=random.Random(seed), timing=FAST,
                    durable=False)  # fmt: skip
        unit.start()
        played, warm_at = 0, min(WARM_UP, games // 10)
        for game in range(games):
            if stop_at is not None and time.perf_counter() > stop_at:
                break
            played += 1
            if game == warm_at:
                gc.collect()
                warm = tracemalloc.get_traced_memory()[0] / 1024
            clock_end = pi.clock.now() + 36_000
            while not unit.finished and pi.clock.now() < clock_end:
                unit.run_for(rng.uniform(0.01, 8.0))
                noise.poke()
            if not unit.finished:
                raise RuntimeError(f"game {game} (seed {seed}) did not finish in 10 h")
            actions += unit.actions
            unit.actions = 0
            if (game + 1) % 500 == 0:
                heap = tracemalloc.get_traced_memory()[0] / 1024
                print(f"job seed {seed}: {game + 1} games, heap {heap:.0f} KiB "
                      f"(after warm-up {warm:.0f}), {time.perf_counter() - start:.0f} s",
                      file=sys.stderr, flush=True)  # fmt: skip
            unit.new_game()
            for pin in pi.factory.pins.values():  # the mock pins' own history, not the unit's
                pin.clear_states()
        gc.collect()
        end = tracemalloc.get_traced_memory()[0] / 1024
    tracemalloc.stop()
    logging.disable(logging.NOTSET)
    return JobResult(played, actions, noise.presses, noise.faults, warm_at, warm, end,
                     time.perf_counter() - start)  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--minutes", type=float, help="stop each job after this wall time")
    args = parser.parse_args(argv)
    per_job = [args.games // args.jobs + (i < args.games % args.jobs) for i in range(args.jobs)]
    with ProcessPoolExecutor(args.jobs) as pool:
        results = list(pool.map(run_job, [args.seed * 1000 + i for i in range(args.jobs)],
                                per_job, [args.minutes] * args.jobs))  # fmt: skip
    for i, r in enumerate(results):
        growth = r.heap_end_kib - r.heap_warm_kib
        played = r.games - r.warm_games
        print(f"job {i}: {r.games} games, {r.actions} actions, {r.presses} noise presses, "
              f"{r.faults} panel faults, heap {r.heap_warm_kib:.0f} KiB after warm-up -> "
              f"{r.heap_end_kib:.0f} KiB at the end ({growth / max(played, 1) * 1024:+.1f} "
              f"B/game), {r.seconds:.0f} s")  # fmt: skip
    total = sum(r.games for r in results)
    print(f"soak: {total} games, {sum(r.actions for r in results)} actions, no exception")
    return 0


if __name__ == "__main__":
    sys.exit(main())
