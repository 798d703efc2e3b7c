"""Seat screens: pure renderers from a view model to a 1-bit 128×64 image per seat.

Common case, once per refresh and seat::

    image = render_seat(view)

A view is a finished, immutable description of one screen (a menu, the roll-off, the
saver…); a game adds its own views and renderers in its package and hands these
here. Nothing here knows a game's rules or the unit. The
display driver rotates and dims.
"""

from .canvas import HEIGHT, WIDTH, pixel_shift
from .render import draw, render_seat
from .rolloff import render_rolloff
from .saver import blank
from .text import FONT_FILE, LICENCE_FILE
from .views import (
    BlankView,
    MenuView,
    NotPlayingView,
    Prompt,
    RollOffView,
    SaverView,
    SeatView,
)

__all__ = [
    "FONT_FILE",
    "HEIGHT",
    "LICENCE_FILE",
    "WIDTH",
    "BlankView",
    "MenuView",
    "NotPlayingView",
    "Prompt",
    "RollOffView",
    "SaverView",
    "SeatView",
    "blank",
    "draw",
    "pixel_shift",
    "render_rolloff",
    "render_seat",
]
