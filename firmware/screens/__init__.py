"""Seat screens: pure renderers from a view model to a 1-bit 128×64 image per seat.

Common case, once per refresh and seat::

    image = render_seat(view)

A view is a finished, immutable description of one screen (:class:`PlayView`, a menu,
the win screen, the points table…); the unit builds them from the game state
(:mod:`firmware.unit.game_views`). Nothing here knows the rules or the unit. The
display driver rotates and dims.
"""

from .canvas import HEIGHT, WIDTH, pixel_shift
from .render import draw, render_pages, render_seat
from .rolloff import render_rolloff
from .saver import blank
from .text import FONT_FILE, LICENCE_FILE
from .views import (
    BlankView,
    MenuView,
    NotPlayingView,
    OddsHint,
    PlayView,
    Prompt,
    RollOffView,
    SaverView,
    ScoresView,
    SeatView,
    WinView,
)

__all__ = [
    "FONT_FILE",
    "HEIGHT",
    "LICENCE_FILE",
    "WIDTH",
    "BlankView",
    "MenuView",
    "NotPlayingView",
    "OddsHint",
    "PlayView",
    "Prompt",
    "RollOffView",
    "SaverView",
    "ScoresView",
    "SeatView",
    "WinView",
    "blank",
    "draw",
    "pixel_shift",
    "render_pages",
    "render_rolloff",
    "render_seat",
]
