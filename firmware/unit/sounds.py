"""Sound cues: the short tunes the buzzer plays (pure, no hardware).

:class:`Cue` names them, :data:`TUNES` holds them (:data:`hal.interfaces.Tune`); a
game names the cue of one committed action (:meth:`~firmware.games.game.Game.cue`,
Switch 16's :func:`~firmware.games.switch16.sounds.cue_for`). :data:`Cue.START` is
played by the loop when a game starts.

Every note lies within :data:`LOWEST`–:data:`HIGHEST` (E4–G6), inside the reference
buzzer's range (``[buzzer]`` mid_tone A4, 2 octaves: A2–A6); every tune but the game
win lasts under 1.2 s.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from types import MappingProxyType

from hal.interfaces import Tune

#: The lowest and highest note of any cue: a buzzer range must span them.
LOWEST, HIGHEST = "E4", "G6"


class Cue(StrEnum):
    """The unit's sound cues."""

    START = "start"  #: a game (or a round of a points match) starts
    DICE = "dice"  #: the dice landed
    DISCARD = "discard"  #: one card discarded (a tick)
    PENALTY = "penalty"  #: a failed risk roll: the deck goes back
    GREEN_SWITCH = "green-switch"  #: decks exchanged by a green switch
    RED_SWITCH = "red-switch"  #: decks exchanged by a red switch
    BLOCK = "block"  #: the chip laid on a deck, or a block rolled
    ROUND_WIN = "round-win"  #: a round of a points match won
    GAME_WIN = "game-win"  #: the game or the points match won (the fanfare)


TUNES: Mapping[Cue, Tune] = MappingProxyType(
    {
        Cue.START: (("C5", 0.09), ("G5", 0.09), ("C6", 0.22)),
        Cue.DICE: (("G5", 0.03), (None, 0.04), ("D5", 0.03), (None, 0.04), ("G5", 0.07)),
        Cue.DISCARD: (("E5", 0.025),),
        Cue.PENALTY: (("G4", 0.16), ("F#4", 0.16), ("F4", 0.16), ("E4", 0.45)),
        Cue.GREEN_SWITCH: (("E5", 0.07), ("G5", 0.07), ("C6", 0.07), ("E6", 0.18)),
        Cue.RED_SWITCH: (("E6", 0.07), ("B5", 0.07), ("E6", 0.07), ("B5", 0.07), ("E5", 0.2)),
        Cue.BLOCK: (("D5", 0.06), (None, 0.04), ("D5", 0.06), ("A4", 0.2)),
        Cue.ROUND_WIN: (("C5", 0.11), ("E5", 0.11), ("G5", 0.11), ("C6", 0.35)),
        Cue.GAME_WIN: (
            ("C5", 0.12), ("E5", 0.12), ("G5", 0.12), ("C6", 0.3), (None, 0.06),
            ("G5", 0.12), ("C6", 0.12), ("E6", 0.12), ("G6", 0.6),
        ),
    }
)  # fmt: skip
