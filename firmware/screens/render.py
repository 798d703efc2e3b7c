"""``render_seat``: any seat view → a 1-bit 128×64 image (pure: same view, same bytes)."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from PIL import Image

from . import text as tx
from .canvas import HEIGHT, WIDTH, Canvas, shifted
from .menu import render_menu
from .play import play_pages, render_play
from .results import render_scores, render_win
from .rolloff import render_rolloff
from .saver import render_saver
from .views import (
    BlankView,
    MenuView,
    NotPlayingView,
    PlayView,
    RollOffView,
    SaverView,
    ScoresView,
    SeatView,
    WinView,
)

_RENDERERS: dict[type, Callable[[Any, Canvas], None]] = {
    PlayView: render_play,
    MenuView: render_menu,
    RollOffView: render_rolloff,
    WinView: render_win,
    ScoresView: render_scores,
    SaverView: render_saver,
    NotPlayingView: lambda v, c: c.text_middle(WIDTH // 2, HEIGHT // 2, "not playing", tx.TEXT),
    BlankView: lambda v, c: None,
}


def draw(view: SeatView) -> Canvas:
    """The unshifted canvas for ``view`` (its ``texts`` list where every text went)."""
    canvas = Canvas()
    _RENDERERS[type(view)](view, canvas)
    return canvas


def render_seat(view: SeatView) -> Image.Image:
    """The seat's 128×64 mode-"1" image in landscape orientation (the driver rotates).

    Views are values: the last frames drawn are kept by view (a menu whose highlight
    comes back, a seat's screen between two presses) and handed out as copies."""
    return _render(view).copy()


@lru_cache(maxsize=32)
def _render(view: SeatView) -> Image.Image:
    dx, dy = view.shift
    return shifted(draw(view).image, dx, dy)


def render_pages(view: SeatView) -> bytes | None:
    """``view``'s frame in panel RAM order (``hal.oled.pack_frame`` of
    :func:`render_seat`'s image, unrotated) where kept bytes make it without drawing
    an image: the play screen, unshifted; else None."""
    if type(view) is PlayView and view.shift == (0, 0):
        return play_pages(view)
    return None
