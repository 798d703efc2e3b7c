"""A unit-wide notice stamped over any seat's frame (e.g. "NOT SAVED")."""

from __future__ import annotations

from PIL import Image

from . import text as tx
from .canvas import WIDTH, Canvas


def with_notice(image: Image.Image, notice: str) -> Image.Image:
    """``image`` with ``notice`` in an outlined black tag in its top-right corner (a new
    image): readable over the white title bars and over black alike."""
    canvas = Canvas()
    canvas.image.paste(image.convert("1"))
    w = tx.width(notice, tx.SMALL)
    x0 = WIDTH - w - 6
    canvas.draw.rectangle((x0, 0, WIDTH - 1, 12), fill=0, outline=1)
    canvas.text(x0 + 3, 0, notice, tx.SMALL)
    return canvas.image
