"""The diff planner (:mod:`hal.diffplan`), pure: packed frames in, windows out."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from hal.diffplan import (
    SH1106_RUN_OVERHEAD,
    Window,
    changed_runs,
    plan_frame,
    plan_rectangles,
    plan_windows,
)

WIDTH, PAGES = 128, 8


def test_split_runs_and_grouped_pages() -> None:
    old = bytes(1024)
    new = bytearray(old)
    new[5] = new[120] = 1  # page 0, far apart: two runs
    new[3 * 128 + 40] = new[4 * 128 + 41] = 1  # pages 3 and 4, close: one rectangle
    runs = changed_runs(old, bytes(new), 128, join_gap=10)
    assert runs == [(0, 5, 5), (0, 120, 120), (3, 40, 40), (4, 41, 41)]
    windows = plan_rectangles(runs, overhead=10)
    assert Window(0, 0, 5, 5) in windows and Window(0, 0, 120, 120) in windows
    assert Window(3, 4, 40, 41) in windows and len(windows) == 3
    assert plan_windows(runs, overhead=10) == windows  # the cheap plan finds the same here


def test_cheap_plan_merges_a_tall_digit_not_two_far_apart_pages() -> None:
    digit = [(p, 20, 36) for p in range(1, 5)]
    assert plan_windows(digit, overhead=10) == [Window(1, 4, 20, 36)]
    apart = [(1, 0, 3), (2, 100, 103)]  # one rectangle would resend 2 x 104 columns
    assert plan_windows(apart, overhead=10) == [Window(1, 1, 0, 3), Window(2, 2, 100, 103)]


def test_cheap_plan_merges_each_column_of_pages_with_several_runs() -> None:
    """The two edges of the panel changing on every page (a turn bar that moves from
    one side to the other): two tall windows, not one window a page and edge."""
    edges = [(p, c0, c0 + 2) for p in range(8) for c0 in (0, 125)]
    assert plan_windows(edges, overhead=10) == [Window(0, 7, 0, 2), Window(0, 7, 125, 127)]


def test_an_unknown_ram_gets_the_whole_frame() -> None:
    """Window addressing: one window over the panel; page addressing: a page each."""
    new = bytes(WIDTH * PAGES)
    assert plan_frame(None, new, width=WIDTH, pages=PAGES, addressing="window") == [
        Window(0, 7, 0, 127)
    ]
    assert plan_frame(None, new, width=WIDTH, pages=PAGES, addressing="page") == [
        Window(p, p, 0, 127) for p in range(PAGES)
    ]


def test_page_addressing_sends_each_run_on_its_own_page() -> None:
    old = bytes(WIDTH * PAGES)
    new = bytearray(old)
    new[1 * WIDTH + 10] = new[2 * WIDTH + 11] = 1  # a tall change: no window spans pages
    new[1 * WIDTH + 10 + SH1106_RUN_OVERHEAD + 2] = 1  # a gap longer than the join gap
    windows = plan_frame(old, bytes(new), width=WIDTH, pages=PAGES, addressing="page")
    assert windows == [Window(1, 1, 10, 10), Window(1, 1, 23, 23), Window(2, 2, 11, 11)]


@settings(max_examples=200, deadline=None)
@given(
    changes=st.lists(
        st.tuples(st.integers(0, WIDTH * PAGES - 1), st.integers(1, 255)), max_size=40
    ),
    addressing=st.sampled_from(["window", "page"]),
)
def test_the_windows_cover_every_changed_byte_and_stay_on_the_panel(
    changes: list[tuple[int, int]], addressing: str
) -> None:
    old = bytes(WIDTH * PAGES)
    new = bytearray(old)
    for at, value in changes:
        new[at] ^= value
    windows = plan_frame(old, bytes(new), width=WIDTH, pages=PAGES, addressing=addressing)  # type: ignore[arg-type]
    covered = {
        p * WIDTH + c
        for w in windows
        for p in range(w.page0, w.page1 + 1)
        for c in range(w.col0, w.col1 + 1)
    }
    assert {i for i in range(len(new)) if new[i] != old[i]} <= covered
    assert all(0 <= w.page0 <= w.page1 < PAGES and 0 <= w.col0 <= w.col1 < WIDTH for w in windows)
    if addressing == "page":
        assert all(w.page0 == w.page1 for w in windows)
    if new == old:
        assert windows == []
