"""Typed errors raised by the engine. Each carries a human-readable reason."""

from __future__ import annotations


class EngineError(Exception):
    """Base class for every error the engine raises."""


class RulesError(EngineError, ValueError):
    """An unknown preset or a bad rule option."""


class IllegalActionError(EngineError):
    """The action is not legal in the current state; the state is unchanged."""


class WrongPhaseError(IllegalActionError):
    """The action does not belong to the current phase."""


class DiceCountError(IllegalActionError):
    """A roll with the wrong number of dice, or a die / switch face out of range."""


class TargetError(IllegalActionError):
    """A seat named as a switch target, or a deck for the chip, that is not allowed."""


class ChipError(IllegalActionError):
    """The chip is not where the action needs it (e.g. placing without holding it)."""


class GameOverError(IllegalActionError):
    """The game (or match) is over: nothing more can be played."""


class MalformedActionError(EngineError, ValueError):
    """An action or transcript line that is not well formed (wrong keys or types)."""


class PositionError(EngineError, ValueError):
    """A position object (``State.from_json``) that is not well formed or not consistent."""
