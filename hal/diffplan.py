"""The diff planner of the OLED frame path: which rectangles of controller RAM a frame
change sends, from the old and the new packed frames (:func:`hal.frame.pack_frame`).

Pure: bytes in, :class:`Window` lists out; no luma, no bus (:mod:`hal.oled` sends them).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

#: What one more window costs beyond its bus bytes, in bus bytes: ~3.5 µs of CPU here
#: to plan and build its two messages (``benchmarks/hal_oled.py``, "CPU per window") is
#: ~90 µs on a Pi Zero 2 W (x 25, ``benchmarks/ZERO_FACTOR.md``), the time of 4 bytes
#: at 400 kHz (22.5 µs a byte).
WINDOW_CPU_BYTES = 4
# The cost of a window in bus bytes per addressing (Controller.addressing): address
# byte + control byte per message, the addressing commands ("window": 0x21 c0 c1 0x22
# p0 p1, "page": 0xB0|p, low, high) + its CPU. Unchanged columns between two runs
# shorter than this are resent, not skipped.
SSD1306_WINDOW_OVERHEAD = 2 + 6 + 2 + WINDOW_CPU_BYTES
SH1106_RUN_OVERHEAD = 2 + 3 + 2 + WINDOW_CPU_BYTES


@dataclass(frozen=True, slots=True)
class Window:
    """A rectangle of controller RAM: pages and columns, both inclusive."""

    page0: int
    page1: int
    col0: int
    col1: int

    @property
    def data_bytes(self) -> int:
        return (self.page1 - self.page0 + 1) * (self.col1 - self.col0 + 1)


def changed_runs(old: bytes, new: bytes, width: int, join_gap: int) -> list[tuple[int, int, int]]:
    """Runs of changed columns per page as (page, col0, col1), inclusive.

    Runs of one page separated by at most ``join_gap`` unchanged columns are merged
    (resending them is cheaper than the overhead of another window). The comparison
    runs in C (an integer XOR, ``strip`` and a regular expression), not per column:
    on a Pi Zero every microsecond here costs ~40 of the loop's.
    """
    runs: list[tuple[int, int, int]] = []
    gap = _gap_pattern(join_gap)
    for start in range(0, len(new), width):
        a, b = old[start : start + width], new[start : start + width]
        if a == b:
            continue
        page = start // width
        x = (int.from_bytes(a, "little") ^ int.from_bytes(b, "little")).to_bytes(width, "little")
        c0 = width - len(x.lstrip(b"\0"))
        c1 = len(x.rstrip(b"\0")) - 1
        for m in gap.finditer(x, c0, c1 + 1):  # unchanged stretches too long to resend
            runs.append((page, c0, m.start() - 1))
            c0 = m.end()
        runs.append((page, c0, c1))
    return runs


_GAPS: dict[int, re.Pattern[bytes]] = {}


def _gap_pattern(join_gap: int) -> re.Pattern[bytes]:
    pattern = _GAPS.get(join_gap)
    if pattern is None:
        pattern = _GAPS[join_gap] = re.compile(b"\\x00{%d,}" % (join_gap + 1))
    return pattern


def plan_windows(runs: Sequence[tuple[int, int, int]], overhead: int) -> list[Window]:
    """Cover changed runs with windows, cheaply: one per run, except that a run joins a
    window ending on the page above whose bounding rectangle with it costs no more bus
    bytes than the two apart (a tall digit goes as one window; so do the two edges of
    a panel that change on every page, each its own column).

    Greedy and linear in the runs: an exact search over page groupings saved a median
    18 bytes (0.4 ms of bus at 400 kHz) for ~9 ms more Pi Zero CPU per frame (issue 12).
    """
    windows: list[Window] = []
    above: list[int] = []  # windows ending on the page above, by index
    here: list[int] = []  # ... and on this page
    page_now = -1
    for page, c0, c1 in runs:
        if page != page_now:
            above, here = (here if page == page_now + 1 else []), []
            page_now = page
        width = c1 - c0 + 1
        for n, index in enumerate(above):
            last = windows[index]
            merged = Window(last.page0, page, min(last.col0, c0), max(last.col1, c1))
            if merged.data_bytes <= last.data_bytes + overhead + width:
                windows[index] = merged
                here.append(index)
                del above[n]
                break
        else:
            here.append(len(windows))
            windows.append(Window(page, page, c0, c1))
    return windows


def plan_rectangles(runs: Sequence[tuple[int, int, int]], overhead: int) -> list[Window]:
    """Cover changed runs with the rectangles that cost the fewest bus bytes.

    Consecutive changed pages may share one rectangle (bounding their columns, with any
    pages in between); a lone page keeps its separate runs. Exact over page groupings
    (dynamic programming over at most 8 pages). Not used for frames (its CPU costs
    more than the bus time it saves on a Pi Zero): the benchmark's reference.
    """
    pages = sorted({page for page, _, _ in runs})
    by_page = {p: [(c0, c1) for page, c0, c1 in runs if page == p] for p in pages}
    n = len(pages)
    best: list[tuple[int, list[Window]]] = [(0, [])]
    for j in range(n):
        options: list[tuple[int, list[Window]]] = []
        for i in range(j + 1):
            base_cost, base = best[i]
            if i == j:
                windows = [Window(pages[j], pages[j], c0, c1) for c0, c1 in by_page[pages[j]]]
            else:
                cols = [c for p in pages[i : j + 1] for run in by_page[p] for c in run]
                windows = [Window(pages[i], pages[j], min(cols), max(cols))]
            cost = sum(overhead + w.data_bytes for w in windows)
            options.append((base_cost + cost, base + windows))
        best.append(min(options, key=lambda o: o[0]))
    return best[n][1]


def plan_frame(
    old: bytes | None, new: bytes, *, width: int, pages: int, addressing: Literal["window", "page"]
) -> list[Window]:
    """The windows a frame change sends on a controller with ``addressing``
    (:attr:`hal.controllers.Controller.addressing`): all of it when ``old`` is unknown
    (None); else a window per changed run, a "window" controller's joined cheaply
    (:func:`plan_windows`)."""
    if addressing == "window":
        if old is None:
            return [Window(0, pages - 1, 0, width - 1)]
        runs = changed_runs(old, new, width, SSD1306_WINDOW_OVERHEAD)
        return plan_windows(runs, SSD1306_WINDOW_OVERHEAD)
    if old is None:
        return [Window(p, p, 0, width - 1) for p in range(pages)]
    return [
        Window(p, p, c0, c1) for p, c0, c1 in changed_runs(old, new, width, SH1106_RUN_OVERHEAD)
    ]
