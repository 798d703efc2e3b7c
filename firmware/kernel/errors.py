"""Typed errors every game's engine raises (a game subclasses them for its own rules).
Each carries a human-readable reason."""

from __future__ import annotations

__all__ = [
    "EngineError",
    "GameOverError",
    "IllegalActionError",
    "MalformedActionError",
    "PositionError",
]


class EngineError(Exception):
    """Base class for every error a game's engine raises."""


class IllegalActionError(EngineError):
    """The action is not legal in the current state; the state is unchanged."""


class GameOverError(IllegalActionError):
    """The game (or match) is over: nothing more can be played."""


class MalformedActionError(EngineError, ValueError):
    """An action or transcript line that is not well formed (wrong keys or types)."""


class PositionError(EngineError, ValueError):
    """A position object (``State.from_json``) that is not well formed or not consistent."""
