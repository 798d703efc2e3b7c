"""Burn-in protection: a screensaver that wanders, and the blank frame."""

from __future__ import annotations

from PIL import Image

from . import text as tx
from .canvas import HEIGHT, SIZE, WIDTH, Canvas
from .views import SaverView


def saver_position(counter: int, w: int, h: int) -> tuple[int, int]:
    """Top-left of a ``w``×``h`` box bouncing around the frame, one pixel per count."""
    span_x, span_y = max(WIDTH - w, 1), max(HEIGHT - h, 1)
    x, y = counter % (2 * span_x), (counter * 3 // 4) % (2 * span_y)
    return (x if x <= span_x else 2 * span_x - x), (y if y <= span_y else 2 * span_y - y)


def render_saver(v: SaverView, c: Canvas) -> None:
    """Draw the screensaver ``v``: ``v.text`` in a frame, bouncing with ``v.counter``."""
    text = tx.fit(v.text, tx.HUGE, WIDTH - 8)
    left, top, right, bottom = tx.bbox(text, tx.HUGE)
    w, h = right - left + 6, bottom - top + 6
    x, y = saver_position(v.counter, w, h)
    c.draw.rounded_rectangle((x, y, x + w - 1, y + h - 1), 3, outline=1)
    c.text(x + 3 - left, y + 3 - top, text, tx.HUGE)


def blank() -> Image.Image:
    """An all-black 128×64 frame (a fresh image each call)."""
    return Image.new("1", SIZE, 0)


def render_splash() -> Image.Image:
    """The start-up splash: the game's name while the unit loads (``firmware/splash.pbm``
    is this frame, saved so the unit can show it before it imports the screens)."""
    c = Canvas()
    c.text_middle(WIDTH // 2, 24, "SWITCH 16", tx.HUGE)
    c.text_middle(WIDTH // 2, 50, "starting…", tx.TEXT)
    return c.image
