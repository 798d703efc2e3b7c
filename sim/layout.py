"""Where things go in the simulator window: seat panels around the centre, from above.

Seat 0 sits at the bottom, then clockwise: 1 left, 2 top, 3 right (with two seats
they face each other, bottom and top; when the table shows a game's board picture, left
and right, the middle column the board's). Everything scales with the OLED ``scale``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from pygame import Rect

from hal.config import PANEL_SIZE
from hal.events import Button

OLED_W, OLED_H = PANEL_SIZE


class Side(StrEnum):
    BOTTOM = "bottom"
    LEFT = "left"
    TOP = "top"
    RIGHT = "right"


#: Sides by seat, per number of seats.
SIDES: dict[int, tuple[Side, ...]] = {
    2: (Side.BOTTOM, Side.TOP),
    3: (Side.BOTTOM, Side.LEFT, Side.TOP),
    4: (Side.BOTTOM, Side.LEFT, Side.TOP, Side.RIGHT),
}


@dataclass(frozen=True, slots=True)
class PanelLayout:
    """One seat's panel: the frame, its title strip, the OLED glass and pixels, buttons."""

    seat: int
    side: Side
    frame: Rect
    title: Rect
    glass: Rect
    oled: Rect  #: exactly ``128*scale`` x ``64*scale`` window pixels
    buttons: dict[Button, Rect]  #: circle bounding boxes
    keycaps: dict[Button, Rect]


@dataclass(frozen=True, slots=True)
class Layout:
    """The whole window."""

    scale: int
    size: tuple[int, int]
    panels: tuple[PanelLayout, ...]
    centre: Rect  #: the table between the panels
    shaker: Rect  #: the area where mouse wiggles shake the dice
    legend: Rect  #: top-left corner: key map and help
    info: Rect  #: top-right corner: game info


def panel_size(scale: int) -> tuple[int, int]:
    u = scale
    width = OLED_W * u + 2 * 5 * u + 2 * 4 * u
    height = 9 * u + (OLED_H * u + 2 * 5 * u) + 29 * u
    return width, height


#: Sides by seat of two seats beside a board picture (the window's middle column).
BESIDE_BOARD = (Side.LEFT, Side.RIGHT)


def make_layout(seats: int, scale: int, board: bool = False) -> Layout:
    """Compute the window layout for ``seats`` (2–4) panels at ``scale``; ``board``:
    the table shows a board picture (two seats then sit beside it; the window's size
    stays the same)."""
    if seats not in SIDES:
        raise ValueError(f"2 to 4 seats, not {seats}")
    u = scale
    pw, ph = panel_size(u)
    beside = board and seats == 2
    sides = BESIDE_BOARD if beside else SIDES[seats]
    centre_h = 64 * u
    width = 3 * pw
    height = 2 * ph + centre_h
    col = (width - pw) // 2
    origins = {
        Side.BOTTOM: (col, ph + centre_h),
        Side.TOP: (col, 0),
        Side.LEFT: (0, (height - ph) // 2),
        Side.RIGHT: (width - pw, (height - ph) // 2),
    }
    panels = tuple(_panel(seat, side, origins[side], u) for seat, side in enumerate(sides))
    centre = Rect(col, 0, pw, height) if beside else Rect(col, ph, pw, centre_h)
    shaker = centre.inflate(-8 * u, -4 * u)
    corner_h = (height - ph) // 2 - 4 * u
    legend = Rect(4 * u, 4 * u, col - 8 * u, corner_h)
    info = Rect(width - col + 4 * u, 4 * u, col - 8 * u, corner_h)
    return Layout(u, (width, height), panels, centre, shaker, legend, info)


def _panel(seat: int, side: Side, origin: tuple[int, int], u: int) -> PanelLayout:
    x, y = origin
    pw, ph = panel_size(u)
    frame = Rect(x + 2 * u, y + 2 * u, pw - 4 * u, ph - 4 * u)
    title = Rect(frame.x, frame.y, frame.w, 9 * u)
    glass = Rect(frame.x + 2 * u, title.bottom, frame.w - 4 * u, OLED_H * u + 10 * u)
    oled = Rect(0, 0, OLED_W * u, OLED_H * u)
    oled.center = glass.center
    radius = 7 * u
    row_y = glass.bottom + 3 * u + radius
    buttons: dict[Button, Rect] = {}
    keycaps: dict[Button, Rect] = {}
    step = glass.w // 3
    for i, button in enumerate(Button):
        cx = glass.x + step * i + step // 2 - 6 * u
        circle = Rect(0, 0, 2 * radius, 2 * radius)
        circle.center = (cx, row_y)
        buttons[button] = circle
        cap = Rect(0, 0, 9 * u, 9 * u)
        cap.midleft = (circle.right + 3 * u, row_y - 1 * u)
        keycaps[button] = cap
    return PanelLayout(seat, side, frame, title, glass, oled, buttons, keycaps)
