"""Screen rendering speed: median ms per ``render_seat`` for typical views, and per 4-seat refresh.

Run: python benchmarks/screens.py [--repeats N]
Budget: a Pi Zero should refresh 4 seats well within a 100 ms frame.

Two figures per view: *cold*, every cache emptied first (a view and parts never drawn
before), and *warm*, the same view again (the frame kept by view).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from firmware.games.switch16.engine import DISCARD, Face, Roll, State
from firmware.games.switch16.game_views import SeatUi, view_for
from firmware.games.switch16.samples import samples
from firmware.games.switch16.screens import play, render, render_seat


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
    print(f"{'view':<18} median ms per render_seat: cold / warm")
    for name, view in views.items():

        def cold(v: object = view) -> None:
            clear_caches()
            render_seat(v)  # type: ignore[arg-type]

        warm = _median_ms(lambda v=view: render_seat(v), args.repeats)
        print(f"{name:<18} {_median_ms(cold, args.repeats):7.3f} / {warm:7.3f}")

    state = State.new(4, 0).apply(Roll((1, 2, 4), Face.BLANK)).apply(DISCARD)
    uis = [SeatUi(odds=True, shift_counter=s) for s in range(4)]

    def refresh() -> None:
        for seat in range(4):
            render_seat(view_for(state, seat, uis[seat]))

    def refresh_cold() -> None:
        clear_caches()
        refresh()

    print(
        "4-seat refresh (view_for + render_seat): "
        f"cold {_median_ms(refresh_cold, args.repeats):.3f} ms, "
        f"warm {_median_ms(refresh, args.repeats):.3f} ms"
    )


def clear_caches() -> None:
    """Forget every drawn frame and part (text measures stay: they are per string)."""
    render.render_seat.frame.cache_clear()
    for part in (play.header_part, play.card_part, play.banner_part, play.odds_part,
                 play.roll_part, play.dice_row, play.label_row, play.menu_part, play.bar_part,
                 play.prompt_part):  # fmt: skip
        part.cache_clear()


if __name__ == "__main__":
    main()
