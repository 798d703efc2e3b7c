"""Screens of ``switch16 selftest``: pure functions from plain values to 128×64 images.

The test pattern proves a panel works and is mounted the right way up (full border,
seat number, its bus, an arrow pointing up); the button screen ticks off YES, NO and
CHIP; :func:`render_message` serves the shaker, buzzer and LED questions.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from firmware.kernel.seats import seat_name

from . import text as tx
from .canvas import HEIGHT, WIDTH, Canvas, PromptItem

TITLE_H = 13
#: Button marks: passed, failed, asked now, not yet asked.
OK, FAIL, NOW, TODO = "ok", "fail", "now", ""


def render_pattern(seat: int, lines: Sequence[str]) -> Image.Image:
    """The test pattern of ``seat`` (an index): border, "SEAT n" (from 1), up to 3
    ``lines``, an UP arrow."""
    c = Canvas()
    c.box(0, 0, WIDTH - 1, HEIGHT - 1, fill=None)
    c.text(4, 1, seat_name(seat).upper(), tx.HUGE)
    for i, line in enumerate(lines[:3]):
        c.text(4, 24 + 12 * i, tx.fit(line, tx.TEXT, 90), tx.TEXT)
    cx = 111  # arrow: head, shaft, label
    c.draw.polygon(((cx, 4), (cx - 10, 18), (cx + 10, 18)), fill=1)
    c.box(cx - 3, 18, cx + 3, 44)
    c.text_centered(cx, 47, "UP", tx.TEXT)
    return c.image


def render_buttons(seat: int, marks: Sequence[tuple[str, str]], got: str = "") -> Image.Image:
    """The button check of ``seat``: a key per (button, mark); ``got``: a wrong press."""
    c = _title(f"{seat_name(seat).upper()} · BUTTONS")
    n = max(len(marks), 1)
    for i, (button, mark) in enumerate(marks):
        cx = WIDTH * (2 * i + 1) // (2 * n)
        w = tx.width(button, tx.TEXT) + 4
        c.key(cx - w // 2, 16, button)
        _mark(c, cx, 38, mark)
    asked = next((button for button, mark in marks if mark == NOW), None)
    items: list[PromptItem]
    if asked is None:
        failed = sum(mark == FAIL for _, mark in marks)
        items = [("", f"done, {failed} failed" if failed else "done")]
    elif got:
        items = [("", "got"), (got, ""), ("", "press"), (asked, "")]
    else:
        items = [("", "press"), (asked, "")]
    c.legend(items)
    return c.image


def render_message(
    title: str, lines: Sequence[str], legend: Sequence[PromptItem] = ()
) -> Image.Image:
    """A title bar, up to 3 lines (4 without a ``legend``) and a button legend."""
    c = _title(title)
    for i, line in enumerate(lines[: 3 if legend else 4]):
        c.text(2, TITLE_H + 12 * i, tx.fit(line, tx.TEXT, WIDTH - 4), tx.TEXT)
    if legend:
        c.legend(legend)
    return c.image


def _mark(c: Canvas, cx: int, cy: int, mark: str) -> None:
    """A tick, a cross, an arrow up at the asked key, or a dot, centred on (cx, cy)."""
    line = c.draw.line
    if mark == OK:
        line(((cx - 6, cy), (cx - 2, cy + 5), (cx + 7, cy - 6)), fill=1, width=3)
    elif mark == FAIL:
        line(((cx - 6, cy - 6), (cx + 6, cy + 6)), fill=1, width=3)
        line(((cx - 6, cy + 6), (cx + 6, cy - 6)), fill=1, width=3)
    elif mark == NOW:
        c.draw.polygon(((cx, cy - 7), (cx - 7, cy + 2), (cx + 7, cy + 2)), fill=1)
        c.box(cx - 2, cy + 2, cx + 2, cy + 7)
    else:
        c.box(cx - 1, cy - 1, cx + 1, cy + 1)


def _title(title: str) -> Canvas:
    c = Canvas()
    c.box(0, 0, WIDTH - 1, TITLE_H - 1)
    c.text_centered(WIDTH // 2, -1, tx.fit(title, tx.TEXT, WIDTH - 4), tx.TEXT, 0)
    return c
