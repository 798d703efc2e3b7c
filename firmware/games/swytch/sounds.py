"""Swytch's sound cues: its own tunes (:data:`TUNES`, the game's
:attr:`~firmware.games.game.Game.tunes`) and which cue a turn plays, its own or the
unit's (:class:`~firmware.unit.sounds.Cue`: the game won). One cue per turn: the win, a
draw, an attack (won: the defender is gone; lost: the attacker fell back), a swytch, a
prepare, else a plain move (landing, going on top, jumping)."""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from types import MappingProxyType

from firmware.unit.sounds import Cue
from hal.interfaces import Tune

from .actions import Action, Move, Prepare, SwytchAction
from .state import Outcome, State


class SwytchCue(StrEnum):
    """Swytch's own sound cues."""

    MOVE = "move"  #: a group moved (landed, went on top, jumped)
    PREPARE = "prepare"  #: a top counter turned to its angled side
    SWYTCH = "swytch"  #: a stack turned to point the other way
    ATTACK_WON = "attack-won"  #: an attack removed the defender
    ATTACK_LOST = "attack-lost"  #: an attack fell short: the attacker fell back
    DRAW = "draw"  #: the game drawn (repetition or quiet turns)


TUNES: Mapping[str, Tune] = MappingProxyType(
    {
        SwytchCue.MOVE: (("A5", 0.03),),
        SwytchCue.PREPARE: (("E5", 0.03), (None, 0.03), ("A5", 0.03)),
        SwytchCue.SWYTCH: (("C6", 0.06), ("G5", 0.06), ("C6", 0.06), ("G5", 0.1)),
        SwytchCue.ATTACK_WON: (("G5", 0.06), (None, 0.03), ("D6", 0.18)),
        SwytchCue.ATTACK_LOST: (("D5", 0.1), ("A4", 0.25)),
        SwytchCue.DRAW: (("G5", 0.15), ("G5", 0.15), ("C5", 0.4)),
    }
)  # fmt: skip


def cue_for(before: State, action: Action, after: State) -> str | None:
    """The cue for ``action`` turning ``before`` into ``after``."""
    if after.winner is not None:
        return Cue.GAME_WIN
    if after.draw is not None:
        return SwytchCue.DRAW
    if isinstance(action, SwytchAction):
        return SwytchCue.SWYTCH
    if isinstance(action, Prepare):
        return SwytchCue.PREPARE
    assert isinstance(action, Move)
    outcome = before.outcome(action)
    if outcome is Outcome.ATTACK_WON:
        return SwytchCue.ATTACK_WON
    if outcome is Outcome.ATTACK_LOST:
        return SwytchCue.ATTACK_LOST
    return SwytchCue.MOVE
