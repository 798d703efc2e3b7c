"""Contact sheet: many screens, scaled up with their names, in one picture.

``python -m firmware.games.switch16.samples [OUT.png]`` writes the sheet of every sample screen.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from PIL import Image, ImageDraw

from . import text as tx
from .canvas import HEIGHT, WIDTH
from .render import render_seat

COLUMNS = 4
GAP = 6


def contact_sheet(
    views: Mapping[str, Any],
    scale: int = 3,
    render: Callable[[Any], Image.Image] = render_seat,
) -> Image.Image:
    """A grid of the rendered ``views`` (white-on-black frames, grey borders, names);
    ``render`` draws another game's views (e.g. Swytch's)."""
    cell_w, cell_h = WIDTH * scale + GAP, HEIGHT * scale + GAP + 14
    rows = -(-len(views) // COLUMNS)
    sheet = Image.new("L", (COLUMNS * cell_w + GAP, rows * cell_h + GAP), 60)
    draw = ImageDraw.Draw(sheet)
    for i, (name, view) in enumerate(views.items()):
        x = GAP + (i % COLUMNS) * cell_w
        y = GAP + (i // COLUMNS) * cell_h
        frame = render(view).convert("L").resize((WIDTH * scale, HEIGHT * scale), 0)
        sheet.paste(frame, (x, y))
        draw.text((x, y + HEIGHT * scale + 1), name, fill=255, font=tx.font(12))
    return sheet
