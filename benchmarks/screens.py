"""Screen rendering speed: median ms per ``render_seat`` for typical views, and per 4-seat refresh.

Run: python benchmarks/screens.py [--repeats N]
Budget: a Pi Zero should refresh 4 seats well within a 100 ms frame.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from firmware.engine import DISCARD, Face, Roll, State
from firmware.screens import render_seat
from firmware.unit.game_views import SeatUi, view_for
from firmware.unit.samples import samples


def _median_ms(fn: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=300)
    args = parser.parse_args()

    views = samples()
    print(f"{'view':<18} median ms per render_seat")
    for name, view in views.items():
        print(f"{name:<18} {_median_ms(lambda v=view: render_seat(v), args.repeats):7.3f}")

    state = State.new(4, 0).apply(Roll((1, 2, 4), Face.BLANK)).apply(DISCARD)
    uis = [SeatUi(odds=True, shift_counter=s) for s in range(4)]

    def refresh() -> None:
        for seat in range(4):
            render_seat(view_for(state, seat, uis[seat]))

    print(f"4-seat refresh (view_for + render_seat): {_median_ms(refresh, args.repeats):.3f} ms")


if __name__ == "__main__":
    main()
