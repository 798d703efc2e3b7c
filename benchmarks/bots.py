"""Self-play speed: full games/s on one core for each bot level (median of a few runs).

Run: python benchmarks/bots.py [--games N] [--repeats R] [--players P]
Target (issue 6): >= 2,000 4-player games/s per core with rulebook bots.
"""

from __future__ import annotations

import argparse
import statistics
import time

from firmware.bots import LEVELS
from firmware.bots.selfplay import run_selfplay
from firmware.engine import make_rules


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    rules = make_rules()
    for level in LEVELS:
        seats = [level] * args.players
        run_selfplay(seats, rules, 200, seed=99)  # warm the tables
        times = []
        for r in range(args.repeats):
            t0 = time.perf_counter()
            run_selfplay(seats, rules, args.games, seed=r)
            times.append(time.perf_counter() - t0)
        med = statistics.median(times)
        print(f"{level:9} {args.players}-player: {args.games / med:7,.0f} games/s (median)")


if __name__ == "__main__":
    main()
