"""What the unit as a whole is doing, for every game (:class:`Mode`). Each game keeps the
rest of its UI state in its package (Switch 16's :mod:`firmware.games.switch16.ui_state`)."""

from __future__ import annotations

from enum import StrEnum


class Mode(StrEnum):
    """What the unit as a whole is doing."""

    SETUP = "setup"  #: the set-up menu on every display
    ROLLOFF = "rolloff"  #: showing who starts
    PLAY = "play"  #: a game (or points match) in progress or just finished
