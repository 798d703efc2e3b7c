"""The splash: the first frame every display shows, sent as soon as the hardware is open.

``switch16 run`` shows it before it imports the unit and replays the journal (seconds
on a Pi Zero 2 W). It is a saved 1-bit image (``splash.pbm``, drawn by
:func:`firmware.screens.saver.render_splash`; a test keeps the two equal), so showing
it needs only Pillow, which the display driver has loaded already.

Regenerate: ``python -m firmware.splash``.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from hal.interfaces import Hal

SPLASH_FILE = Path(__file__).with_name("splash.pbm")


def splash_image() -> Image.Image:
    """The splash frame (mode "1", the panel size)."""
    with Image.open(SPLASH_FILE) as image:
        return image.convert("1")


def show_splash(hal: Hal) -> None:
    """Send the splash to every display (one that does not answer keeps its error)."""
    image = splash_image()
    for seat in hal.seats:
        seat.display.show(image)


if __name__ == "__main__":
    from firmware.screens.saver import render_splash

    render_splash().save(SPLASH_FILE)
    print(SPLASH_FILE)
