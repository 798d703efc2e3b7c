"""``render_seat``: a platform view (menu, roll-off, saver…) → a 1-bit 128×64 image (pure:
same view, same bytes). A game draws its own views and hands the others here."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from PIL import Image

from . import text as tx
from .canvas import HEIGHT, WIDTH, Canvas, shifted
from .menu import render_menu
from .rolloff import render_rolloff
from .saver import render_saver
from .views import BlankView, MenuView, NotPlayingView, RollOffView, SaverView, SeatView

_RENDERERS: dict[type, Callable[[Any, Canvas], None]] = {
    MenuView: render_menu,
    RollOffView: render_rolloff,
    SaverView: render_saver,
    NotPlayingView: lambda v, c: c.text_middle(WIDTH // 2, HEIGHT // 2, "not playing", tx.TEXT),
    BlankView: lambda v, c: None,
}


def draw(view: SeatView) -> Canvas:
    """The unshifted canvas for ``view`` (its ``texts`` list where every text went)."""
    canvas = Canvas()
    _RENDERERS[type(view)](view, canvas)
    return canvas


class SeatRenderer:
    """``render_seat`` for the views ``draw`` draws: the seat's 128×64 mode-"1" image in
    landscape orientation (the driver rotates), moved by the view's burn-in shift.

    Views are values: the last frames drawn are kept by view (a menu whose highlight
    comes back, a seat's screen between two presses) and handed out as copies."""

    def __init__(self, draw: Callable[[Any], Canvas]) -> None:
        self.draw = draw
        #: the kept frames (``frame.cache_clear()`` empties them)
        self.frame = lru_cache(maxsize=32)(self._frame)

    def _frame(self, view: Any) -> Image.Image:
        dx, dy = view.shift
        return shifted(self.draw(view).image, dx, dy)

    def __call__(self, view: Any) -> Image.Image:
        return self.frame(view).copy()


#: A platform view's image (a game's renderer hands its other views here).
render_seat = SeatRenderer(draw)


_PAGE_BYTES = WIDTH
_LOW_BIT = int.from_bytes(b"\x01" * _PAGE_BYTES, "little")
_HIGH_BIT = _LOW_BIT << 7
_ALL = (1 << 8 * _PAGE_BYTES) - 1


def shifted_pages(pages: bytes, dx: int, dy: int) -> bytes:
    """Panel RAM bytes of the frame moved by (dx, dy) pixels, as :func:`shifted` moves
    an image (|dy| <= 1): columns move within each page, rows across the byte's bits
    and into the next page's."""
    if not dx and not dy:
        return pages
    rows = [pages[i : i + WIDTH] for i in range(0, len(pages), WIDTH)]
    if dx > 0:
        rows = [bytes(dx) + row[: WIDTH - dx] for row in rows]
    elif dx < 0:
        rows = [row[-dx:] + bytes(-dx) for row in rows]
    if dy:
        if abs(dy) != 1:
            raise ValueError(f"a burn-in shift moves at most 1 row, not {dy}")
        ints = [int.from_bytes(row, "little") for row in rows]
        if dy > 0:  # down: bit b -> b + 1, bit 7 into bit 0 of the page below
            ints = [
                ((cur << 1) & ~_LOW_BIT & _ALL) | ((prev >> 7) & _LOW_BIT)
                for prev, cur in zip([0, *ints], ints, strict=False)
            ]
        else:  # up: bit b -> b - 1, bit 0 into bit 7 of the page above
            ints = [
                (cur >> 1) & ~_HIGH_BIT & _ALL | ((nxt << 7) & _HIGH_BIT)
                for cur, nxt in zip(ints, [*ints[1:], 0], strict=True)
            ]
        rows = [i.to_bytes(WIDTH, "little") for i in ints]
    return b"".join(rows)
