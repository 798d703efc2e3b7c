"""Swytch, the two-player hex-board strategy game (docs/SWYTCH.md).

``GAME`` is its :class:`~firmware.games.game.Game` (:mod:`.game`), the registry's entry.
"""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    if name == "GAME":
        # lazy: the engine, notation and bots load without the unit's controller and screens
        from .game import GAME

        return GAME
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
