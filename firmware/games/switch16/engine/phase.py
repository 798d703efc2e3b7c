"""The phases of a turn: what the game waits for."""

from __future__ import annotations

from enum import StrEnum


class Phase(StrEnum):
    """What the game waits for."""

    ROLL = "roll"
    DISCARD = "discard"
    DECIDE = "decide"
    GREEN = "green"
    GREEN_REFUSAL = "green_refusal"
    RED = "red"
    BLOCK = "block"
    OVER = "over"


ROLL, DISCARD_PHASE, DECIDE, GREEN, GREEN_REFUSAL, RED, BLOCK, OVER = Phase
