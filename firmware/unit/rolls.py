"""Forced rolls and roll-offs: the link's test mode chooses the dice and the starter;
a roll-off's outcome is journaled before the displays show it.

A mixin of :class:`~firmware.unit.loop.Unit` (it owns the attributes declared here).
"""

from __future__ import annotations

import logging
import random
from collections import deque
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from firmware.games.game import Game, GameController
from firmware.kernel.errors import EngineError

from .journal import Journal

log = logging.getLogger("firmware.unit.loop")


class ForcedRolls:
    """The dice and roll-offs of :class:`~firmware.unit.loop.Unit`."""

    rng: random.Random
    controller: GameController
    journal: Journal
    game: Game
    forced_rolls: deque[Any]
    _ahead: Any
    #: What :meth:`_journal_ahead` journaled is a match's next round (not a new header).
    _ahead_round: bool

    if TYPE_CHECKING:  # from the other mixins of Unit

        def _warm_worker(self, kinds: Iterable[str]) -> None: ...

    def _roll(self, state: Any, seat: int) -> Any | None:
        """``seat``'s roll now (the game's chance action; None when it is not its roll):
        the next forced roll that is legal, else dice from the rng."""
        return self.game.chance(state, seat, self.rng, self._forced_roll)

    def _forced_roll(self, state: Any) -> Any | None:
        """The next forced roll that is legal in ``state`` (illegal ones are skipped)."""
        while self.forced_rolls:
            roll = self.forced_rolls.popleft()
            try:
                state.apply(roll)
            except (EngineError, ValueError):
                pass
            else:
                return roll
            log.warning("forced roll %s is not legal now: skipped", self.game.action_to_json(roll))
        return None

    @property
    def round_ahead(self) -> bool:
        """The next round's start is journaled while its roll-off shows, the state still
        the last round's: the transcript is one line ahead of the displays."""
        return self._ahead is not None and self._ahead_round and self.controller.state is not None

    def _journal_ahead(self, setup: Any, first: int) -> None:
        """Journal a roll-off's outcome before the displays show it, so a power cut
        during the show resumes with the same starter: a new game's header, or the
        next round of a match."""
        st = self.controller.state
        if setup is not None:
            header = self.game.header(setup, first)
            self.journal.create(header)
            self._ahead, self._ahead_round = header, False
            self._warm_worker(header.seats or ())  # it starts while the roll-off shows
        elif st is not None and (next_round := self.game.next_round(st, first)) is not None:
            self.journal.append(next_round)
            self._ahead, self._ahead_round = next_round, True
