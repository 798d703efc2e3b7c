"""A 128×64 1-bit drawing surface that records where its text went, plus shared widgets.

Renderers draw through :class:`Canvas` so tests can check that every text element
lies inside the frame (:attr:`Canvas.texts`). Nothing here keeps state between
renders: each render makes a fresh canvas.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw

from hal.frame import PANEL_SIZE

from . import text as tx

WIDTH, HEIGHT = PANEL_SIZE
SIZE = (WIDTH, HEIGHT)

#: A prompt item: (button, label); button "" means plain text. Buttons are shown as keys.
PromptItem = tuple[str, str]
#: A text drawn and its ink box (left, top, right, bottom) in frame coordinates.
TextBox = tuple[str, tuple[int, int, int, int]]

# Pip positions (column, row) in a 3×3 grid for each die face.
_PIPS = {
    1: ((1, 1),),
    2: ((0, 0), (2, 2)),
    3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (2, 0), (0, 2), (2, 2)),
    5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    6: ((0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)),
}


class Canvas:
    """A fresh black frame with drawing helpers; ``texts`` lists (text, ink box) drawn."""

    __slots__ = ("draw", "image", "texts")

    def __init__(self) -> None:
        self.image = Image.new("1", SIZE, 0)
        self.draw = ImageDraw.Draw(self.image)
        self.draw.fontmode = "1"
        self.texts: list[TextBox] = []

    # ----------------------------------------------------------------- text
    def text(self, x: int, y: int, s: str, size: int = tx.TEXT, fill: int = 1) -> int:
        """Draw ``s`` with its line top at (x, y); returns the x just after its ink."""
        if not s:
            return x
        left, top, right, bottom = tx.bbox(s, size)
        self.image.paste(fill, (x + left, y + top), tx.stamp(s, size))
        self.texts.append((s, (x + left, y + top, x + right, y + bottom)))
        return x + right

    def text_centered(
        self, cx: int, y: int, s: str, size: int = tx.TEXT, fill: int = 1
    ) -> tuple[int, int]:
        """Draw ``s`` centred on column ``cx``; returns its ink (left, right)."""
        left, _, right, _ = tx.bbox(s, size)
        x = cx - (right + left) // 2
        self.text(x, y, s, size, fill)
        return x + left, x + right

    def text_middle(self, cx: int, cy: int, s: str, size: int, fill: int = 1) -> None:
        """Draw ``s`` with its ink centred on (cx, cy)."""
        _, top, _, bottom = tx.bbox(s, size)
        self.text_centered(cx, cy - (top + bottom) // 2, s, size, fill)

    def text_right(self, right: int, y: int, s: str, size: int = tx.TEXT, fill: int = 1) -> int:
        """Draw ``s`` so its ink ends at column ``right`` (inclusive); returns its left x."""
        _, _, r, _ = tx.bbox(s, size)
        x = right + 1 - r
        self.text(x, y, s, size, fill)
        return x

    # -------------------------------------------------------------- widgets
    def box(self, x0: int, y0: int, x1: int, y1: int, fill: int | None = 1) -> None:
        """Filled rectangle (``fill``) or outline (``fill=None``), corners inclusive."""
        if fill is None:
            self.draw.rectangle((x0, y0, x1, y1), outline=1)
        else:
            self.draw.rectangle((x0, y0, x1, y1), fill=fill)

    def key(self, x: int, y: int, label: str, size: int = tx.TEXT) -> int:
        """A button name as an inverted key cap at line top ``y``; returns the x after it."""
        left, top, right, bottom = tx.bbox(label, size)
        self.draw.rounded_rectangle((x, y + top - 2, x + right - left + 3, y + bottom), 2, fill=1)
        self.text(x + 2 - left, y, label, size, fill=0)
        return x + right - left + 4

    def prompt(self, x: int, y: int, items: Sequence[PromptItem], size: int = tx.TEXT) -> int:
        """A prompt line: keys and labels, left to right; returns the x after it.

        A label that would leave the frame is cut short.
        """
        for button, label in items:
            if button:
                x = self.key(x, y, button, size) + 2
            if label:
                x = self.text(x, y, tx.fit(label, size, WIDTH - x), size) + 5
        return x

    def die(self, x: int, y: int, value: int, size: int = 12) -> None:
        """A die face with pips in a ``size``-pixel square (white die, black pips)."""
        self.draw.rounded_rectangle((x, y, x + size - 1, y + size - 1), 2, fill=1)
        step = (size - 6) // 2
        for col, row in _PIPS.get(value, ()):
            px, py = x + 2 + col * step, y + 2 + row * step
            self.draw.rectangle((px, py, px + 1, py + 1), fill=0)

    def die_outline(self, x: int, y: int, size: int = 12) -> None:
        """An empty die (a die still to be rolled)."""
        self.draw.rounded_rectangle((x, y, x + size - 1, y + size - 1), 2, outline=1)

    def chip(self, cx: int, cy: int, r: int = 5, fill: int = 1) -> None:
        """The block chip: a disc with a ring, centred on (cx, cy)."""
        self.draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=1 - fill)
        if r >= 4:
            self.draw.ellipse((cx - r + 2, cy - r + 2, cx + r - 2, cy + r - 2), outline=1 - fill)

    def legend(self, items: Sequence[PromptItem], y: int = HEIGHT - 12) -> None:
        """A button legend along the bottom line (each legend drawn once and kept: the
        same pixels as :meth:`prompt` draws, whatever lies under it)."""
        lit, drawn, at, texts = _legend(tuple(items), y)
        if lit is not None:
            self.image.paste(lit, at, drawn)
        self.texts.extend(texts)


@lru_cache(maxsize=128)
def _legend(
    items: tuple[PromptItem, ...], y: int
) -> tuple[Image.Image | None, Image.Image | None, tuple[int, int], tuple[TextBox, ...]]:
    """A legend's pixels, which pixels it draws (a mask), where, and its texts: drawn on
    a black and on a white frame, a pixel it draws is the same on both, one it leaves
    shows each frame's own."""
    on_black, on_white = Canvas(), Canvas()
    on_white.image.paste(1, (0, 0, WIDTH, HEIGHT))
    on_black.prompt(1, y, items)
    on_white.prompt(1, y, items)
    left = ImageChops.logical_xor(on_black.image, on_white.image)
    drawn = left.point(lambda v: 0 if v else 255).convert("1")
    box = drawn.getbbox()
    if box is None:
        return None, None, (0, 0), tuple(on_black.texts)
    return on_black.image.crop(box), drawn.crop(box), box[:2], tuple(on_black.texts)


def prompt_width(items: Sequence[PromptItem], size: int = tx.TEXT) -> int:
    """Pixels a prompt line needs (without the trailing gap)."""
    w = 0
    for button, label in items:
        if button:
            w += tx.width(button, size) + 6
        if label:
            w += tx.width(label, size) + 5
    return w - 5 if items and items[-1][1] else w - 2 if items else 0


def shifted(image: Image.Image, dx: int, dy: int) -> Image.Image:
    """``image`` moved by (dx, dy) on a black frame (pixels pushed off the edge are lost)."""
    if not dx and not dy:
        return image
    out = Image.new("1", SIZE, 0)
    out.paste(image, (dx, dy))
    return out


#: Offsets cycled through against burn-in: the layout wanders by at most 1 pixel.
SHIFTS: tuple[tuple[int, int], ...] = (
    (0, 0),
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
)


def pixel_shift(counter: int) -> tuple[int, int]:
    """The burn-in offset for ``counter`` (the loop bumps it, e.g. once a minute)."""
    return SHIFTS[counter % len(SHIFTS)]
