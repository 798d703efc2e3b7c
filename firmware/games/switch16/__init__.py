"""Switch 16, the dice-and-cards game for 2–4 players (docs/RULES.md).

``GAME`` is its :class:`~firmware.games.game.Game` (:mod:`.game`), the registry's entry.
The rules engine is :mod:`.engine`, the bots :mod:`.bots`, the unit's controller
:mod:`.controller` and its screens :mod:`.screens`.
"""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    if name == "GAME":
        # lazy: the engine, notation and bots load without the unit's controller and screens
        from .game import GAME

        return GAME
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
