"""Switch 16's seat screens: the play screen, the win screen and the points table,
pure renderers from a view to a 1-bit 128×64 image (the platform's menus, roll-off
and saver drawn by :mod:`firmware.screens`)."""

from .render import draw, render_pages, render_seat
from .views import OddsHint, PlayView, ScoresView, SeatView, WinView

__all__ = [
    "OddsHint",
    "PlayView",
    "ScoresView",
    "SeatView",
    "WinView",
    "draw",
    "render_pages",
    "render_seat",
]
