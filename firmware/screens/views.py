"""View models: frozen values holding exactly what one seat's screen shows.

The unit builds them from the UI state; renderers turn them into images. These are
the platform's (menus, the roll-off, the saver); each game has its own in its package.
Every view has ``shift``: the burn-in pixel offset (see :func:`pixel_shift`).
"""

from __future__ import annotations

from dataclasses import dataclass

from .canvas import PromptItem

Shift = tuple[int, int]
Prompt = tuple[PromptItem, ...]


@dataclass(frozen=True, slots=True)
class MenuView:
    """A menu: title, options (one highlighted), a button legend at the bottom.

    ``back``: NO goes back (shown as a NO key in the title bar, as the legend is full).
    """

    title: str
    options: tuple[str, ...]
    highlight: int = 0
    legend: Prompt = (("CHIP", "next"), ("YES", "ok"))
    back: bool = False
    shift: Shift = (0, 0)


@dataclass(frozen=True, slots=True)
class RollOffView:
    """Who starts: each seat's die (None = not rolling this round), ties, the starter."""

    seat: int
    rolls: tuple[int | None, ...]
    labels: tuple[str, ...]
    starter: int | None = None
    attempt: int = 1
    shift: Shift = (0, 0)


@dataclass(frozen=True, slots=True)
class SaverView:
    """The screensaver: ``text`` (e.g. the top card) wandering with ``counter``."""

    counter: int
    text: str
    shift: Shift = (0, 0)


@dataclass(frozen=True, slots=True)
class NotPlayingView:
    """A seat the current game does not use (a 2-player game on a 4-seat unit)."""

    shift: Shift = (0, 0)


@dataclass(frozen=True, slots=True)
class BlankView:
    """An all-black frame (display off, exit)."""

    shift: Shift = (0, 0)


#: The platform's own views (menus, roll-off, saver); a game adds its own
#: (``firmware.games.<game>.screens``) and draws them with its own renderer.
SeatView = MenuView | RollOffView | SaverView | NotPlayingView | BlankView
