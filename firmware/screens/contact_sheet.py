"""Contact sheet: every sample screen, scaled up with its name, in one PNG.

Run: ``python -m firmware.screens.contact_sheet [OUT.png] [--scale N]``
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping

from PIL import Image, ImageDraw

from . import text as tx
from .canvas import HEIGHT, WIDTH
from .render import render_seat
from .samples import samples
from .views import SeatView

COLUMNS = 4
GAP = 6


def contact_sheet(views: Mapping[str, SeatView], scale: int = 3) -> Image.Image:
    """A grid of the rendered ``views`` (white-on-black frames, grey borders, names)."""
    cell_w, cell_h = WIDTH * scale + GAP, HEIGHT * scale + GAP + 14
    rows = -(-len(views) // COLUMNS)
    sheet = Image.new("L", (COLUMNS * cell_w + GAP, rows * cell_h + GAP), 60)
    draw = ImageDraw.Draw(sheet)
    for i, (name, view) in enumerate(views.items()):
        x = GAP + (i % COLUMNS) * cell_w
        y = GAP + (i // COLUMNS) * cell_h
        frame = render_seat(view).convert("L").resize((WIDTH * scale, HEIGHT * scale), 0)
        sheet.paste(frame, (x, y))
        draw.text((x, y + HEIGHT * scale + 1), name, fill=255, font=tx.font(12))
    return sheet


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", default="screens-contact-sheet.png")
    parser.add_argument("--scale", type=int, default=3)
    args = parser.parse_args()
    contact_sheet(samples(), args.scale).save(args.out)
    print(args.out)


if __name__ == "__main__":
    main()
