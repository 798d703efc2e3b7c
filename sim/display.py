"""Whether the desktop can show the sim's window (before and after pygame opens it)."""

from __future__ import annotations

import os
import sys

NO_DISPLAY = "sim: no display found, running the headless bot demo (see --headless)"


class NoDisplayError(RuntimeError):
    """pygame could not open a window."""


def display_available() -> bool:
    """False when this desktop clearly has no display (Linux without X11 or Wayland)."""
    if sys.platform.startswith("linux") or "bsd" in sys.platform:
        return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return True


#: SDL drivers that draw nowhere a person can see.
INVISIBLE_DRIVERS = ("offscreen", "dummy")


def check_visible_driver() -> None:
    """NoDisplayError when SDL fell back to an invisible driver by itself (DISPLAY set
    but no X server listening), unless SDL_VIDEODRIVER asked for it."""
    import pygame  # lazy: the sim extra; only once a window is open

    driver = pygame.display.get_driver()
    if driver in INVISIBLE_DRIVERS and os.environ.get("SDL_VIDEODRIVER") != driver:
        raise NoDisplayError(f"SDL found no display and chose its {driver!r} driver")
