"""Swytch perft: how many legal action sequences of each length from the set-up.

Legal actions are one per outcome (docs/SWYTCH.md), so the counts compare between
implementations. Run: python benchmarks/swytch_perft.py [--depth 3] [--ranks 9]
"""

from __future__ import annotations

import argparse
import time

from firmware.games.swytch.state import State


def perft(state: State, depth: int) -> int:
    """Leaves of the legal-action tree ``depth`` actions deep (a finished game is a leaf
    only at its own depth)."""
    if depth == 0:
        return 1
    actions = state.legal_actions()
    if depth == 1:
        return len(actions)
    return sum(perft(state.apply(a), depth - 1) for a in actions)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=3, help="deepest level (default 3)")
    parser.add_argument("--ranks", type=int, default=9, choices=range(8, 12), metavar="8-11")
    args = parser.parse_args()
    for depth in range(1, args.depth + 1):
        start = time.perf_counter()
        count = perft(State.new(args.ranks), depth)
        took = time.perf_counter() - start
        print(f"perft({depth}) ranks {args.ranks}: {count:,}  ({took:.2f} s)")


if __name__ == "__main__":
    main()
