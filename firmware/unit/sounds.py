"""Sound cues: which short tune the buzzer plays for an action (pure, no hardware).

:func:`cue_for` names the cue of one committed action from the states before and
after it; :data:`TUNES` holds the tunes (:data:`hal.interfaces.Tune`). At most one cue
per action, by priority: win > penalty > switch > block > dice > discard tick. A
decision without a visible effect (pass, risk, a refusal, keeping the chip where it
lies) stays quiet. :data:`Cue.START` is played by the loop when a game starts.

Every note lies within :data:`LOWEST`–:data:`HIGHEST` (E4–G6), inside the reference
buzzer's range (``[buzzer]`` mid_tone A4, 2 octaves: A2–A6); every tune but the game
win lasts under 1.2 s.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from types import MappingProxyType

from firmware.games.switch16.engine import (
    Action,
    Discard,
    Face,
    NewRound,
    Phase,
    Place,
    Red,
    Roll,
    State,
    exchanged,
    penalised,
)
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


def cue_for(before: State, action: Action, after: State) -> Cue | None:
    """The cue for ``action`` turning ``before`` into ``after`` (None: stay quiet)."""
    if isinstance(action, NewRound):
        return Cue.START
    if after.phase is Phase.OVER and before.phase is not Phase.OVER:
        return Cue.ROUND_WIN if after.round_pending else Cue.GAME_WIN
    if penalised(before, action, after) is not None:
        return Cue.PENALTY
    rolled = action.switch if isinstance(action, Roll) else None
    if exchanged(before, after):
        red = isinstance(action, Red) or rolled == Face.RED
        return Cue.RED_SWITCH if red else Cue.GREEN_SWITCH
    if isinstance(action, Place) or rolled == Face.BLOCK:
        return Cue.BLOCK
    if rolled is not None:
        return Cue.DICE
    if isinstance(action, Discard):
        return Cue.DISCARD
    return None
