"""The end-of-game reviews: the master's short review for each human seat, from the
journal's whole game.

A mixin of :class:`~firmware.unit.loop.Unit` (it owns the attributes declared here).
"""

from __future__ import annotations

from .journal import Journal


class Reviews:
    """The reviews :class:`~firmware.unit.loop.Unit` gives its controller."""

    journal: Journal

    def _reviews(self, humans: list[int]) -> dict[int, str]:
        """The master's short review for each of ``humans`` of the game just finished."""
        from firmware.transcript import parse_action

        from .game_views import short_review

        header, lines = self.journal.open_game  # the whole game, also after a resume
        if header is None:
            return {}
        return short_review(header, [parse_action(line) for line in lines], humans)
