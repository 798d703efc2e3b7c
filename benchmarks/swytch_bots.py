"""Swytch bot statistics: the searching bot against ``easy`` and against ``random``.

Each pairing plays ``--games`` games, the searching bot's seat and the first player
alternating; prints wins / draws / losses (for the searching bot), game length, and
the searching bot's time per move (process CPU time, median and p99, and wall time).
Targets (issue 27): >= 90 % wins against easy, >= 99 % against random, <= 80 ms a move.

Run: python benchmarks/swytch_bots.py [--games 1000] [--workers 2] [--nodes N] [--seed 0]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter
from multiprocessing import Pool
from typing import NamedTuple

from firmware.games.swytch.bots import SearchBot, make_bot
from firmware.games.swytch.state import State


class Game(NamedTuple):
    result: str  # "win", "loss" or the draw's reason (for the searching bot)
    plies: int
    cpu: list[float]  # the searching bot's seconds of CPU per move
    wall: list[float]


def play(job: tuple[str, int, int, int | None]) -> Game:
    opponent, seed, index, nodes = job
    rng = random.Random(f"{seed}/{opponent}/{index}")
    seat = index & 1
    searcher = SearchBot(seat, random.Random(rng.random()), nodes)
    bots = [searcher, searcher]
    bots[1 - seat] = make_bot(opponent, 1 - seat, random.Random(rng.random()))
    state = State.new(first=(index >> 1) & 1)
    cpu: list[float] = []
    wall: list[float] = []
    plies = 0
    while not state.is_terminal():
        mover = state.to_move
        c, w = time.process_time(), time.perf_counter()
        action = bots[mover].decide(state)
        if mover == seat:
            cpu.append(time.process_time() - c)
            wall.append(time.perf_counter() - w)
        state = state.apply(action)
        plies += 1
    if state.winner is None:
        assert state.draw is not None
        result = f"draw ({state.draw.value})"
    else:
        result = "win" if state.winner == seat else "loss"
    return Game(result, plies, cpu, wall)


def _ms(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return 1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per pairing")
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    parser.add_argument("--nodes", type=int, default=None, help="the searching bot's budget")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--against", nargs="+", default=["easy", "random"])
    args = parser.parse_args()
    if args.games < 1 or args.workers < 1:
        parser.error("--games and --workers must be at least 1")
    nodes = args.nodes or SearchBot.NODES
    against = ", ".join(args.against)
    print(f"search ({nodes} nodes a move) against {against}: {args.games} games each")
    with Pool(args.workers) as pool:
        for opponent in args.against:
            start = time.perf_counter()
            jobs = [(opponent, args.seed, i, args.nodes) for i in range(args.games)]
            games = pool.map(play, jobs, chunksize=4)
            took = time.perf_counter() - start
            results = Counter(g.result for g in games)
            wins = results.pop("win", 0)
            losses = results.pop("loss", 0)
            draws = sum(results.values())
            plies = [g.plies for g in games]
            cpu = [t for g in games for t in g.cpu]
            wall = [t for g in games for t in g.wall]
            print(f"\nsearch vs {opponent}: {len(games)} games in {took:.0f} s")
            print(
                f"  wins {wins} ({100 * wins / len(games):.1f} %), draws {draws} "
                f"{dict(results) if results else ''}, losses {losses}"
            )
            print(
                f"  game length (turns): median {statistics.median(plies):.0f}, "
                f"mean {statistics.mean(plies):.1f}, max {max(plies)}"
            )
            print(
                f"  search ms/move: CPU median {_ms(cpu, 0.5):.1f}, p99 {_ms(cpu, 0.99):.1f}, "
                f"max {_ms(cpu, 1.0):.1f}; wall median {_ms(wall, 0.5):.1f}, "
                f"p99 {_ms(wall, 0.99):.1f} ({len(cpu)} moves)"
            )


if __name__ == "__main__":
    main()
