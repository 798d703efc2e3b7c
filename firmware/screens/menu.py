"""Generic menu screen: title bar, options list with the highlight, button legend."""

from __future__ import annotations

from . import text as tx
from .canvas import HEIGHT, WIDTH, Canvas
from .views import MenuView

TITLE_H = 13
ROW_H = 12
ROWS = 3  # options visible at once; the list scrolls to keep the highlight in view


def render_menu(v: MenuView, c: Canvas) -> None:
    """Draw the menu ``v`` on ``c``."""
    c.box(0, 0, WIDTH - 1, TITLE_H - 1)
    left = 2
    if v.back:
        left = _back_key(c) + 2
    room = WIDTH - 2 - left
    title = tx.fit(v.title, tx.TEXT, room)
    c.text_centered(left + room // 2, -1, title, tx.TEXT, 0)
    n = len(v.options)
    hi = min(max(v.highlight, 0), n - 1) if n else -1
    first = min(max(hi - ROWS + 1, 0), max(n - ROWS, 0))
    for row, i in enumerate(range(first, min(first + ROWS, n))):
        y = TITLE_H + 1 + row * ROW_H
        label = tx.fit(v.options[i], tx.TEXT, WIDTH - 16)
        if i == hi:
            c.draw.rounded_rectangle((6, y, WIDTH - 7, y + ROW_H - 2), 2, fill=1)
            c.text(10, y - 2, label, tx.TEXT, 0)
        else:
            c.text(10, y - 2, label, tx.TEXT)
    # More options above / below: small up and down arrows in the right margin, away
    # from the options (an arrow beside an option reads as a selection marker).
    x = WIDTH - 4
    if first > 0:
        y = TITLE_H + 2
        c.draw.polygon(((x - 2, y + 3), (x + 2, y + 3), (x, y)), fill=1)
    if first + ROWS < n:
        y = TITLE_H + ROWS * ROW_H - 2
        c.draw.polygon(((x - 2, y - 3), (x + 2, y - 3), (x, y)), fill=1)
    c.legend(v.legend, HEIGHT - 12)


def _back_key(c: Canvas) -> int:
    """A black "NO" key cap with a back arrow at the left of the (white) title bar."""
    left, _, right, _ = tx.bbox("◂NO", tx.TEXT)
    c.draw.rounded_rectangle((1, 1, right - left + 4, TITLE_H - 2), 2, fill=0)
    c.text(3 - left, -1, "◂NO", tx.TEXT, 1)
    return right - left + 5
