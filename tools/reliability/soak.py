"""Soak: thousands of bot games through the whole unit loop, with button noise and
display faults, on a virtual clock (issues 9, 21 and 35), for every registered game.

Each job runs one :class:`~firmware.unit.Unit` on the real Pi backend over gpiozero's
MockFactory and the emulated OLED bus, and plays game after game of one registered
game (each at a table of its own, :meth:`~firmware.games.game.Game.random_setup`: bot
seats of every level, every option) without restarting, the journal synced (on a
tmpfs where there is one). Meanwhile random
button presses, holds and storms hit every seat, and panels come loose and back. Any
exception fails the soak.
The process's resident set (RSS, what a 512 MB Pi Zero runs out of, not only the
Python heap) is read every 100 games; after the warm-up it must stay within ±2 MiB.

    python3 -m tools.reliability.soak                      # long form: 10,000 games a game
    python3 -m tools.reliability.soak --games 40 --jobs 1 --game swytch
"""

from __future__ import annotations

import argparse
import gc
import logging
import os
import random
import resource
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from firmware.games.registry import DEFAULT_GAME, game_names, get_game
from firmware.settings import timing_from
from firmware.unit import Unit
from hal.config import load_config
from hal.events import Button
from hal.testing import MockPi, mock_pi_hal

#: Fast but complete: the delays a config sets (the unit's and the games' [timing] keys)
#: short, so every timer still fires, just sooner.
FAST = timing_from(
    {
        "bot_thinking_s": 0.05,
        "tumble_s": 0.05,
        "discard_window_s": 0.05,
        "rolloff_show_s": 0.05,
        "dim_after_s": 20.0,
        "screensaver_after_s": 60.0,
    }
)
WARM_UP = 500  #: games played before RSS must stay flat (at most a fifth of a job)
RSS_EVERY = 100  #: games between two RSS readings
RSS_BAND_KIB = 2048  #: after the warm-up RSS stays within this of its reading then
SHM = Path("/dev/shm")  #: a tmpfs for the journal: synced as on the unit, but cheaply


def rss_kib() -> int:
    """This process's resident set now (Linux), else its peak."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024
    except OSError:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


@dataclass
class JobResult:
    game: str  #: the registered game's name
    games: int
    actions: int
    presses: int
    faults: int
    warm_games: int
    rss: list[tuple[int, int]]  #: (games played, RSS in KiB), every RSS_EVERY games
    seconds: float

    @property
    def drift_kib(self) -> tuple[int, int]:
        """The lowest and highest RSS after the warm-up, against the reading at it."""
        after = [kib for games, kib in self.rss if games >= self.warm_games]
        if not after:
            return 0, 0
        return min(after) - after[0], max(after) - after[0]

    @property
    def flat(self) -> bool:
        low, high = self.drift_kib
        return low >= -RSS_BAND_KIB and high <= RSS_BAND_KIB


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


def run_job(seed: int, games: int, minutes: float | None = None,
            game: str = DEFAULT_GAME) -> JobResult:  # fmt: skip
    """Play ``games`` games of the registered ``game`` (fewer if ``minutes`` of wall
    time run out first)."""
    logging.disable(logging.WARNING)  # panels come and go all the time: not news here
    tables = get_game(game).random_setup
    rng = random.Random(seed)
    stop_at = None if minutes is None else time.perf_counter() + minutes * 60
    start = time.perf_counter()
    actions = 0
    rss: list[tuple[int, int]] = []
    shm = SHM if SHM.is_dir() else None
    with tempfile.TemporaryDirectory(dir=shm) as tmp, mock_pi_hal(load_config(None)) as pi:
        noise = Noise(pi, rng)
        unit = Unit(pi.hal, tmp, setup=tables(rng), rng=random.Random(seed), timing=FAST,
                    game=game)  # fmt: skip
        unit.start()
        played = 0
        for number in range(games):
            if stop_at is not None and time.perf_counter() > stop_at:
                break
            played += 1
            clock_end = pi.clock.now() + 36_000
            while not unit.finished and pi.clock.now() < clock_end:
                unit.run_for(rng.uniform(0.01, 8.0))
                noise.poke()
            if not unit.finished:
                raise RuntimeError(f"{game} game {number} (seed {seed}) did not finish in 10 h")
            actions += unit.actions
            unit.actions = 0
            unit.new_game(tables(rng))  # the next game's table
            if played % RSS_EVERY == 0:
                gc.collect()
                rss.append((played, rss_kib()))
                if played % 500 == 0:
                    print(f"{game} job seed {seed}: {played} games, "
                          f"RSS {rss[-1][1] / 1024:.1f} MiB, "
                          f"{time.perf_counter() - start:.0f} s", file=sys.stderr,
                          flush=True)  # fmt: skip
        unit.close(close_hal=False)
    logging.disable(logging.NOTSET)
    warm = min(WARM_UP, played // 5 // RSS_EVERY * RSS_EVERY)
    return JobResult(game, played, actions, noise.presses, noise.faults, warm, rss,
                     time.perf_counter() - start)  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="games of each game")
    parser.add_argument("--jobs", type=int, default=2, help="processes for each game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--minutes", type=float, help="stop each job after this wall time")
    parser.add_argument("--game", action="append", choices=game_names(),
                        help="only this registered game (repeatable; default: all)")  # fmt: skip
    args = parser.parse_args(argv)
    per_job = [args.games // args.jobs + (i < args.games % args.jobs) for i in range(args.jobs)]
    jobs = [(args.seed * 1000 + i, n, args.minutes, name) for name in args.game or game_names()
            for i, n in enumerate(per_job)]  # fmt: skip
    with ProcessPoolExecutor(args.jobs, max_tasks_per_child=1) as pool:  # RSS: a job's own
        results = list(pool.map(run_job, *zip(*jobs, strict=True)))
    for r, (seed, *_) in zip(results, jobs, strict=True):
        low, high = r.drift_kib
        series = " ".join(f"{kib / 1024:.1f}" for _, kib in r.rss)
        print(f"{r.game} job seed {seed}: {r.games} games, {r.actions} actions, "
              f"{r.presses} noise presses, {r.faults} panel faults, {r.seconds:.0f} s\n"
              f"  RSS (MiB) every {RSS_EVERY} games: {series}\n"
              f"  after the {r.warm_games}-game warm-up: {low / 1024:+.2f} to "
              f"{high / 1024:+.2f} MiB ({'flat' if r.flat else 'NOT FLAT'}, "
              f"±{RSS_BAND_KIB / 1024:.0f} MiB)")  # fmt: skip
    names = ", ".join(dict.fromkeys(r.game for r in results))
    total, actions = sum(r.games for r in results), sum(r.actions for r in results)
    print(f"soak ({names}): {total} games, {actions} actions, no exception")
    return 0 if all(r.flat for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
