"""Chance outside the engine: rolling dice for a state (the roll-off is the kernel's).

The engine never draws random numbers; callers pass a ``random.Random``-like
object: ``random.SystemRandom()`` on the unit, ``random.Random(seed)`` for a
reproducible game (``--seed``), tests and self-play.
"""

from __future__ import annotations

import random

from firmware.kernel.rolloff import roll_off

from .engine import SWITCH_DIE, Action, NewRound, Roll, Rules, State
from .engine.notation import Header

Rng = random.Random


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
