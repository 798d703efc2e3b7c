"""Forced rolls and roll-offs: the link's test mode chooses the dice and the starter;
a roll-off's outcome is journaled before the displays show it.

A mixin of :class:`~firmware.unit.loop.Unit` (it owns the attributes declared here).
"""

from __future__ import annotations

import logging
import random
from collections import deque

from firmware.chance import roll_dice
from firmware.engine import Action, IllegalActionError, NewRound, Roll, State
from firmware.engine.notation import Header, action_to_json

from .controller import Controller
from .journal import Journal
from .setup import GameSetup

log = logging.getLogger("firmware.unit.loop")


class ForcedRolls:
    """The dice and roll-offs of :class:`~firmware.unit.loop.Unit`."""

    rng: random.Random
    controller: Controller
    journal: Journal
    forced_rolls: deque[Roll]
    _ahead: Header | Action | None

    def _roll(self, state: State) -> Roll:
        """The next forced roll that is legal now, else dice from the rng."""
        while self.forced_rolls:
            roll = self.forced_rolls.popleft()
            try:
                state.apply(roll)
            except IllegalActionError:
                pass
            else:
                return roll
            log.warning("forced roll %s is not legal now: skipped", action_to_json(roll))
        return roll_dice(state, self.rng)

    @property
    def round_ahead(self) -> bool:
        """The next round's start is journaled while its roll-off shows, the state still
        the last round's: the transcript is one line ahead of the displays."""
        return isinstance(self._ahead, NewRound) and self.controller.state is not None

    def _journal_ahead(self, setup: GameSetup | None, first: int) -> None:
        """Journal a roll-off's outcome before the displays show it, so a power cut
        during the show resumes with the same starter: a new game's header, or the
        next round of a match."""
        st = self.controller.state
        if setup is not None:
            header = Header(setup.players, first, setup.rules(), setup.seats)
            self.journal.create(header)
            self._ahead = header
        elif st is not None and NewRound(first) in st.legal_actions():
            self.journal.append(NewRound(first))
            self._ahead = NewRound(first)
