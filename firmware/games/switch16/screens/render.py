"""``render_seat``: any Switch 16 seat view → a 1-bit 128×64 image (pure: same view,
same bytes). Its own views (play, win, points table) are drawn here, the platform's
(menus, roll-off, saver) by :func:`firmware.screens.draw`."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from firmware.screens import draw as draw_platform
from firmware.screens.canvas import Canvas
from firmware.screens.render import SeatRenderer, shifted_pages

from .play import play_pages, render_play
from .results import render_scores, render_win
from .views import PlayView, ScoresView, SeatView, WinView

_RENDERERS: dict[type, Callable[[Any, Canvas], None]] = {
    PlayView: render_play,
    WinView: render_win,
    ScoresView: render_scores,
}


def draw(view: SeatView) -> Canvas:
    """The unshifted canvas for ``view`` (its ``texts`` list where every text went)."""
    renderer = _RENDERERS.get(type(view))
    if renderer is None:
        return draw_platform(view)  # type: ignore[arg-type]  # not one of ours
    canvas = Canvas()
    renderer(view, canvas)
    return canvas


#: Any Switch 16 seat view's image (kept by view, handed out as copies).
render_seat = SeatRenderer(draw)


def render_pages(view: SeatView) -> bytes | None:
    """``view``'s frame in panel RAM order (``panel.pack_frame`` of
    :func:`render_seat`'s image, unrotated) where kept bytes make it without drawing
    an image (the play screen); else None."""
    if type(view) is PlayView:
        return _play_pages(view)
    return None


@lru_cache(maxsize=32)
def _play_pages(view: PlayView) -> bytes:
    dx, dy = view.shift
    return shifted_pages(play_pages(view), dx, dy)
