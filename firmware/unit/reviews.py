"""The end-of-game reviews: the game's short review for each human seat (Switch 16's:
the master's), from the journal's whole game; worked out beside the loop when the game
says a review is slow (:data:`~firmware.games.game.REVIEW`), the end screen showing it
when it comes.

A mixin of :class:`~firmware.unit.loop.Unit` (it owns the attributes declared here).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from firmware.games.game import REVIEW, Game, GameController
from firmware.games.registry import get_game

from .journal import Journal

if TYPE_CHECKING:
    from .commands import Command


def review_game(name: str, header: Any, lines: Sequence[str], humans: list[int]) -> dict[int, str]:
    """Game ``name``'s review of a finished game (what the worker runs)."""
    return get_game(name).review(header, lines, humans)


class Reviews:
    """The reviews :class:`~firmware.unit.loop.Unit` gives its controller."""

    journal: Journal
    game: Game
    controller: GameController
    clock: Any

    if TYPE_CHECKING:  # from the other mixins of Unit

        def _submit(self, work: str, fn: Callable[..., Any], args: tuple[Any, ...],
                    then: Callable[[Any], list[Command]]) -> bool: ...  # fmt: skip

    def _reviews(self, humans: list[int]) -> dict[int, str]:
        """The game's short review for each of ``humans`` of the game just finished
        (none yet when the worker works it out: it comes to the controller later)."""
        header, lines = self.journal.open_game  # the whole game, also after a resume
        if header is None:
            return {}
        args = (self.game.name, header, list(lines), humans)
        ctl, st = self.controller, self.controller.state
        if self._submit(REVIEW, review_game, args, lambda got: self._reviewed(ctl, st, got)):
            return {}
        return review_game(*args)

    def _reviewed(self, ctl: GameController, st: Any, reviews: dict[int, str]) -> list[Command]:
        """Reviews from the worker, to the end screen of the game they are for."""
        if self.controller is not ctl or ctl.state is not st:
            return []
        return ctl.reviewed(reviews, self.clock.now())
