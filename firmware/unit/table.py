"""What the unit's parts ask of the :class:`~firmware.unit.loop.Unit` that composes them:
the game played now and its controller (both change when another game is chosen)."""

from __future__ import annotations

from typing import Protocol

from firmware.games.game import Game, GameController


class Table(Protocol):
    """The game on the unit's table now."""

    @property
    def game(self) -> Game:
        """The registered game played now."""
        ...

    @property
    def controller(self) -> GameController:
        """Its UI controller for the unit's displays."""
        ...

    def use_game(self, name: str) -> None:
        """Play game ``name`` from now on (its controller and views take over)."""
        ...
