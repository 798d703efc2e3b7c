"""The end-of-game reviews: the game's short review for each human seat (Switch 16's:
the master's), from the journal's whole game.

A mixin of :class:`~firmware.unit.loop.Unit` (it owns the attributes declared here).
"""

from __future__ import annotations

from firmware.games.game import Game

from .journal import Journal


class Reviews:
    """The reviews :class:`~firmware.unit.loop.Unit` gives its controller."""

    journal: Journal
    game: Game

    def _reviews(self, humans: list[int]) -> dict[int, str]:
        """The game's short review for each of ``humans`` of the game just finished."""
        header, lines = self.journal.open_game  # the whole game, also after a resume
        if header is None:
            return {}
        return self.game.review(header, lines, humans)
