"""The end-of-game reviews: the game's short review for each human seat (Switch 16's:
the master's), from the journal's whole game; worked out beside the loop when the game
says a review is slow (:data:`~firmware.games.game.REVIEW`), the end screen showing it
when it comes.

A part of :class:`~firmware.unit.loop.Unit` (:attr:`~firmware.unit.loop.Unit.reviews`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

from firmware.games.game import REVIEW, Game, GameController
from firmware.games.registry import get_game

from .journal import Journal
from .table import Table
from .thinking import SlowWork

if TYPE_CHECKING:
    from .commands import Command


def review_game(name: str, header: Any, lines: Sequence[str], humans: list[int]) -> dict[int, str]:
    """Game ``name``'s review of a finished game (what the worker runs)."""
    return get_game(name).review(header, lines, humans)


class Reviews:
    """The reviews :class:`~firmware.unit.loop.Unit` gives its controllers."""

    def __init__(self, table: Table, journal: Journal, work: SlowWork) -> None:
        self._table = table
        self._journal = journal
        self._work = work

    def reviewer(self, game: Game) -> Callable[[list[int]], dict[int, str]]:
        """What ``game``'s controller on the table asks for its end screen's reviews."""
        return partial(self._reviews, game)

    def _reviews(self, game: Game, humans: list[int]) -> dict[int, str]:
        """The game's short review for each of ``humans`` of the game just finished
        (none yet when the worker works it out: it comes to the controller later)."""
        header, lines = self._journal.open_game  # the whole game, also after a resume
        if header is None:
            return {}
        args = (game.name, header, list(lines), humans)
        ctl = self._table.controller
        st = ctl.state
        then = partial(self._reviewed, ctl, st)
        if self._work.submit(game, REVIEW, review_game, args, then):
            return {}
        return review_game(*args)

    def _reviewed(self, ctl: GameController, st: Any, reviews: dict[int, str]) -> list[Command]:
        """Reviews from the worker, to the end screen of the finished game they are for
        (its shell shows them)."""
        if self._table.controller is ctl and ctl.state is st and ctl.finished:
            ctl.shell.reviewed(reviews)
        return []
