"""Seat screens: pure renderers from a view model to a 1-bit 128×64 image per seat.

Common case, once per refresh and seat::

    image = render_seat(view_for(state, seat, ui))

``view_for`` fills a :class:`PlayView` (or a menu, win screen, points table) from the
engine state and the seat's :class:`SeatUi`; other screens (set-up menus, roll-off,
screensaver) are views the loop builds directly. The display driver rotates and dims.
"""

from .canvas import HEIGHT, WIDTH, pixel_shift
from .events import banner_for
from .from_state import DEFAULT_UI, SeatUi, choices, prompt_for, seat_labels, view_for
from .render import draw, render_seat
from .rolloff import render_rolloff
from .saver import blank
from .setup import rolloff_views, setup_menu
from .text import FONT_FILE, LICENCE_FILE
from .views import (
    BlankView,
    MenuView,
    NotPlayingView,
    OddsHint,
    PlayView,
    RollOffView,
    SaverView,
    ScoresView,
    SeatView,
    WinView,
)

__all__ = [
    "DEFAULT_UI",
    "FONT_FILE",
    "HEIGHT",
    "LICENCE_FILE",
    "WIDTH",
    "BlankView",
    "MenuView",
    "NotPlayingView",
    "OddsHint",
    "PlayView",
    "RollOffView",
    "SaverView",
    "ScoresView",
    "SeatUi",
    "SeatView",
    "WinView",
    "banner_for",
    "blank",
    "choices",
    "draw",
    "pixel_shift",
    "prompt_for",
    "render_rolloff",
    "render_seat",
    "rolloff_views",
    "seat_labels",
    "setup_menu",
    "view_for",
]
