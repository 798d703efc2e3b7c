"""Switch 16's sound cues: its own tunes (:data:`TUNES`, the game's
:attr:`~firmware.games.game.Game.tunes`) and which cue an action plays, its own or the
unit's (:class:`~firmware.unit.sounds.Cue`: a round starts, the game won). At most one
cue per action, by priority: win > penalty > switch > block > dice > discard tick. A
decision without a visible effect (pass, risk, a refusal, keeping the chip where it
lies) stays quiet."""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from types import MappingProxyType

from firmware.unit.sounds import Cue
from hal.interfaces import Tune

from .engine import (
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


class Switch16Cue(StrEnum):
    """Switch 16's own sound cues."""

    DICE = "dice"  #: the dice landed
    DISCARD = "discard"  #: one card discarded (a tick)
    PENALTY = "penalty"  #: a failed risk roll: the deck goes back
    GREEN_SWITCH = "green-switch"  #: decks exchanged by a green switch
    RED_SWITCH = "red-switch"  #: decks exchanged by a red switch
    BLOCK = "block"  #: the chip laid on a deck, or a block rolled
    ROUND_WIN = "round-win"  #: a round of a points match won


TUNES: Mapping[str, Tune] = MappingProxyType(
    {
        Switch16Cue.DICE: (("G5", 0.03), (None, 0.04), ("D5", 0.03), (None, 0.04), ("G5", 0.07)),
        Switch16Cue.DISCARD: (("E5", 0.025),),
        Switch16Cue.PENALTY: (("G4", 0.16), ("F#4", 0.16), ("F4", 0.16), ("E4", 0.45)),
        Switch16Cue.GREEN_SWITCH: (("E5", 0.07), ("G5", 0.07), ("C6", 0.07), ("E6", 0.18)),
        Switch16Cue.RED_SWITCH: (("E6", 0.07), ("B5", 0.07), ("E6", 0.07), ("B5", 0.07),
                                 ("E5", 0.2)),
        Switch16Cue.BLOCK: (("D5", 0.06), (None, 0.04), ("D5", 0.06), ("A4", 0.2)),
        Switch16Cue.ROUND_WIN: (("C5", 0.11), ("E5", 0.11), ("G5", 0.11), ("C6", 0.35)),
    }
)  # fmt: skip


def cue_for(before: State, action: Action, after: State) -> str | None:
    """The cue for ``action`` turning ``before`` into ``after`` (None: stay quiet)."""
    if isinstance(action, NewRound):
        return Cue.START
    if after.phase is Phase.OVER and before.phase is not Phase.OVER:
        return Switch16Cue.ROUND_WIN if after.round_pending else Cue.GAME_WIN
    if penalised(before, action, after) is not None:
        return Switch16Cue.PENALTY
    rolled = action.switch if isinstance(action, Roll) else None
    if exchanged(before, after):
        red = isinstance(action, Red) or rolled == Face.RED
        return Switch16Cue.RED_SWITCH if red else Switch16Cue.GREEN_SWITCH
    if isinstance(action, Place) or rolled == Face.BLOCK:
        return Switch16Cue.BLOCK
    if rolled is not None:
        return Switch16Cue.DICE
    if isinstance(action, Discard):
        return Switch16Cue.DISCARD
    return None
