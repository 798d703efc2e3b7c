"""Typed errors raised by the Switch 16 engine: the kernel's (:mod:`firmware.kernel.errors`)
and its own rules'. Each carries a human-readable reason."""

from __future__ import annotations

from firmware.kernel.errors import (
    EngineError,
    GameOverError,
    IllegalActionError,
    MalformedActionError,
    PositionError,
)

__all__ = [
    "ChipError",
    "DiceCountError",
    "EngineError",
    "GameOverError",
    "IllegalActionError",
    "MalformedActionError",
    "PositionError",
    "RulesError",
    "TargetError",
    "WrongPhaseError",
]


class RulesError(EngineError, ValueError):
    """An unknown preset or a bad rule option."""


class WrongPhaseError(IllegalActionError):
    """The action does not belong to the current phase."""


class DiceCountError(IllegalActionError):
    """A roll with the wrong number of dice, or a die / switch face out of range."""


class TargetError(IllegalActionError):
    """A seat named as a switch target, or a deck for the chip, that is not allowed."""


class ChipError(IllegalActionError):
    """The chip is not where the action needs it (e.g. placing without holding it)."""
