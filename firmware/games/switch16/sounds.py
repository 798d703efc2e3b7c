"""Switch 16's sound cues: which of the unit's tunes (:class:`~firmware.unit.sounds.Cue`)
an action plays. At most one cue per action, by priority: win > penalty > switch >
block > dice > discard tick. A decision without a visible effect (pass, risk, a
refusal, keeping the chip where it lies) stays quiet."""

from __future__ import annotations

from firmware.unit.sounds import Cue

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
