"""Typed Swytch errors, subclasses of the kernel's (:mod:`firmware.kernel.errors`)."""

from __future__ import annotations

from firmware.kernel.errors import (
    GameOverError,
    IllegalActionError,
    MalformedActionError,
    PositionError,
)

__all__ = [
    "GameOverError",
    "IllegalMoveError",
    "NotationError",
    "PositionError",
]


class IllegalMoveError(IllegalActionError):
    """An action the rules refuse; ``rule`` names the rule it breaks (docs/SWYTCH.md)."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{message} (rule: {rule})")
        self.rule = rule


class NotationError(MalformedActionError):
    """Text that is not a Swytch action; the message names the token."""
