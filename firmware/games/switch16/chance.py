"""Chance outside the engine: rolling dice for a state (the roll-off is the kernel's).

The engine never draws random numbers; callers pass a ``random.Random``-like
object: ``random.SystemRandom()`` on the unit, ``random.Random(seed)`` for a
reproducible game (``--seed``), tests and self-play.
"""

from __future__ import annotations

import random
from typing import Any

from firmware.kernel.rolloff import roll_off

from .engine import SWITCH_DIE, Action, NewRound, Roll, Rules, State
from .engine.actions import Face
from .engine.notation import Header

Rng = random.Random


def roll_from_dice(obj: dict[str, Any]) -> Roll:
    """A roll from the link's ``dice`` op's ``{"dice": [1–6 …], "switch": face}``; a
    ValueError starts with the field it refuses."""
    dice, face = obj.get("dice"), obj.get("switch")
    if not isinstance(dice, list) or not 1 <= len(dice) <= 6 or not all(
            isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6
            for d in dice):  # fmt: skip
        raise ValueError("dice must be 1–6 dice of 1–6")
    faces = sorted({f.value for f in SWITCH_DIE})
    if face not in faces:
        raise ValueError(f"switch must be one of {faces}")
    return Roll(tuple(dice), Face(face))


def roll_dice(state: State, rng: Rng) -> Roll:
    """The seat to move rolls its numbered dice (count from the rules) and the switch die."""
    n = state.dice_count()
    r = rng.random
    return Roll(tuple(int(r() * 6) + 1 for _ in range(n)), SWITCH_DIE[int(r() * 6)])


def chance_action(state: State, rng: Rng) -> Action:
    """The chance outcome due now: a roll, or a new round after a roll-off."""
    if state.round_pending:
        return NewRound(roll_off(rng, range(state.players))[0])
    return roll_dice(state, rng)


def new_header(rng: Rng, players: int, rules: Rules) -> Header:
    """A header whose first seat comes from a roll-off."""
    return Header(players, roll_off(rng, range(players))[0], rules)
