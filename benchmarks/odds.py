"""Time building every odds table and the three presets' solitaire policies.

Run: ``python3 benchmarks/odds.py [RUNS]``. Each run clears the caches first, so it
measures a cold build; the median of the runs is printed.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable

from firmware.games.switch16 import odds
from firmware.games.switch16.engine.dice import CARDS, MAX_DICE, MIN_DICE
from firmware.games.switch16.engine.rules import PRESETS

_CACHED = (
    odds.mask_counts,
    odds.run_counts,
    odds.run_distribution,
    odds.run_distribution_float,
    odds.p_make,
    odds.p_make_float,
    odds.expected_cards,
    odds.solitaire_policy,
    odds.advice,
)


def _clear() -> None:
    for func in _CACHED:
        func.cache_clear()


def _tables() -> None:
    for n in range(MIN_DICE, MAX_DICE + 1):
        for top in range(1, CARDS + 1):
            odds.run_distribution_float(top, n)
            odds.p_make_float(top, n)
            odds.expected_cards(top, n)


def _policies() -> None:
    for rules in PRESETS.values():
        odds.solitaire_policy(rules)
        for d in range(CARDS):
            odds.advice(d, rules)


def _time(step: Callable[[], object], runs: int, *, warm_tables: bool = False) -> float:
    """Median seconds of ``step`` after clearing the caches (re-filling the tables if asked)."""
    samples = []
    for _ in range(runs):
        _clear()
        if warm_tables:
            _tables()
        start = time.perf_counter()
        step()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def main(runs: int = 7) -> None:
    tables = _time(_tables, runs)
    policies = _time(_policies, runs, warm_tables=True)
    both = _time(lambda: (_tables(), _policies()), runs)
    print(f"median of {runs} cold runs")
    print(f"  tables (1..{MAX_DICE} dice, every top card): {tables * 1000:8.1f} ms")
    print(f"  policies + advice ({len(PRESETS)} presets):     {policies * 1000:8.1f} ms")
    print(f"  everything:                             {both * 1000:8.1f} ms")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 7)
