"""Sound cues: the short tunes the buzzer plays (pure, no hardware).

A cue is a name. The unit's own are :class:`Cue` (:data:`TUNES`): :data:`Cue.START` is
played by the loop when a game starts, :data:`Cue.GAME_WIN` is the fanfare a game names
for its end. A game brings the rest, its own events' cues, as
:attr:`~firmware.games.game.Game.tunes` (Switch 16's dice, penalty, switches…:
:mod:`firmware.games.switch16.sounds`; Swytch's moves and attacks:
:mod:`firmware.games.swytch.sounds`), and names the cue of one committed action
(:meth:`~firmware.games.game.Game.cue`); :func:`tune_for` finds a cue's tune.

Every note of every cue, the unit's and each game's, lies within :data:`LOWEST`–
:data:`HIGHEST` (E4–G6), inside the reference buzzer's range (``[buzzer]`` mid_tone A4,
2 octaves: A2–A6); every tune but the game win lasts under :data:`LONGEST` seconds
(tests/game_unit/test_sounds.py checks every registered game's).
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from types import MappingProxyType

from hal.interfaces import Tune

#: The lowest and highest note of any cue: a buzzer range must span them.
LOWEST, HIGHEST = "E4", "G6"
#: Every cue but :data:`Cue.GAME_WIN` is shorter than this (seconds).
LONGEST = 1.2


class Cue(StrEnum):
    """The unit's own sound cues (every game's)."""

    START = "start"  #: a game (or a round of a points match) starts
    GAME_WIN = "game-win"  #: the game or the points match won (the fanfare)


TUNES: Mapping[str, Tune] = MappingProxyType(
    {
        Cue.START: (("C5", 0.09), ("G5", 0.09), ("C6", 0.22)),
        Cue.GAME_WIN: (
            ("C5", 0.12), ("E5", 0.12), ("G5", 0.12), ("C6", 0.3), (None, 0.06),
            ("G5", 0.12), ("C6", 0.12), ("E6", 0.12), ("G6", 0.6),
        ),
    }
)  # fmt: skip


def tune_for(cue: str, tunes: Mapping[str, Tune]) -> Tune:
    """The tune of ``cue``: the game's own (``tunes``, its
    :attr:`~firmware.games.game.Game.tunes`), else the unit's; a ValueError when neither
    has one."""
    tune = tunes.get(cue, TUNES.get(cue))
    if tune is None:
        raise ValueError(f"no tune for the cue {cue!r}")
    return tune
