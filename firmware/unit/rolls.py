"""Forced rolls and roll-offs: the link's test mode chooses the dice and the starter;
a roll-off's outcome is journaled before the displays show it.

A part of :class:`~firmware.unit.loop.Unit` (:attr:`~firmware.unit.loop.Unit.rolls`).
"""

from __future__ import annotations

import copy
import logging
import random
from collections import deque
from typing import Any

from firmware.games.game import Game, GameHeader
from firmware.kernel.errors import EngineError
from firmware.kernel.players import CHANCE
from firmware.kernel.rolloff import roll_off

from .journal import Journal

log = logging.getLogger("firmware.unit.loop")


class Rolls:
    """The dice and roll-offs of :class:`~firmware.unit.loop.Unit`, and what of them is
    journaled ahead of the displays."""

    def __init__(self, rng: random.Random, journal: Journal) -> None:
        self._rng = rng
        self._journal = journal
        #: Rolls to use, in order, instead of drawing dice (test mode of the link).
        self.forced_rolls: deque[Any] = deque()
        #: The next roll-off's winner instead of drawing it (test mode of the link).
        self.forced_first: int | None = None
        #: Written to the journal ahead of the roll-off that shows it (:meth:`journal_ahead`).
        self._ahead: Any = None
        #: What :meth:`journal_ahead` journaled is a match's next round (not a new header).
        self._ahead_round = False

    def roll(self, game: Game, state: Any, seat: int) -> Any | None:
        """``seat``'s roll now (None when chance does not act while the table waits for
        ``seat``): the next forced chance outcome that is legal, else the game's draw
        from the rng (:meth:`~firmware.games.game.Game.draw_chance`)."""
        if state.current_player() != CHANCE or game.waiting_seat(state) != seat:
            return None
        forced = self._forced_roll(game, state)
        return forced if forced is not None else game.draw_chance(state, self._rng)

    def _forced_roll(self, game: Game, state: Any) -> Any | None:
        """The next forced roll that is legal in ``state`` (illegal ones are skipped)."""
        while self.forced_rolls:
            roll = self.forced_rolls.popleft()
            try:
                state.apply(roll)
            except (EngineError, ValueError):
                pass
            else:
                return roll
            log.warning("forced roll %s is not legal now: skipped", game.action_to_json(roll))
        return None

    def roll_off(self, players: int) -> tuple[int, list[dict[int, int]]]:
        """Who of ``players`` starts, and the roll-off's rounds: drawn, or the forced
        winner's (test mode; used once)."""
        drawn = self._roll_off(self._rng, players)
        self.forced_first = None
        return drawn

    def foreseen_roll_off(self, players: int) -> tuple[int, list[dict[int, int]]] | None:
        """What :meth:`roll_off` would give now, drawing nothing (on a copy of the dice:
        what drawing ahead shows a press that rolls off); None when the dice cannot be
        copied (the system's entropy, the unit's own dice: nothing to foresee)."""
        try:
            dice = copy.copy(self._rng)
        except NotImplementedError:  # random.SystemRandom keeps no state
            return None
        return self._roll_off(dice, players)

    def _roll_off(self, rng: random.Random, players: int) -> tuple[int, list[dict[int, int]]]:
        first, rounds = roll_off(rng, range(players))
        if self.forced_first is not None and 0 <= self.forced_first < players:
            first, rounds = self.forced_first, [{s: 6 if s == self.forced_first else 1
                                                 for s in range(players)}]  # fmt: skip
        return first, rounds

    @property
    def round_ahead(self) -> bool:
        """A match's next round is journaled while its roll-off shows (the transcript
        is one line ahead of the displays while the state is still the last round's)."""
        return self._ahead is not None and self._ahead_round

    def journal_ahead(self, game: Game, state: Any, setup: Any, first: int) -> GameHeader | None:
        """Journal a roll-off's outcome before the displays show it, so a power cut
        during the show resumes with the same starter: a new game's header (returned),
        or the next round of the match in ``state``."""
        if setup is not None:
            header = game.header(setup, first)
            self._journal.create(header)
            self._ahead, self._ahead_round = header, False
            return header
        if state is not None and (next_round := starting(game, state, first)) is not None:
            self._journal.append(next_round)
            self._ahead, self._ahead_round = next_round, True
        return None

    def create(self, header: GameHeader) -> None:
        """A new game's journal, unless its roll-off journaled it ahead."""
        if self._ahead != header:
            self._journal.create(header)
        self._ahead = None

    def append(self, action: Any) -> None:
        """Journal an action, unless its roll-off journaled it ahead."""
        if self._ahead is not None and self._ahead == action:
            self._ahead = None  # journaled when its roll-off started
        else:
            self._journal.append(action)  # on disk before any other frame shows it


def starting(game: Game, state: Any, first: int) -> Any | None:
    """The chance outcome due in ``state`` that a roll-off won by ``first`` decides (a
    match's next round): the one after which the table waits for ``first``; None if
    chance does not act or no single outcome starts ``first``."""
    if state.current_player() != CHANCE:
        return None
    starts = [outcome for outcome, _ in state.chance_outcomes()
              if game.waiting_seat(state.apply(outcome)) == first]  # fmt: skip
    return starts[0] if len(starts) == 1 else None
