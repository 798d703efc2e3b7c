"""The bot interface shared by every level, and small position helpers.

A bot plays one seat through the same legal actions as a person:

- :meth:`Bot.decide` answers a decision the game waits for from this seat
  (risk or pass, green target, refusal, red target, take or leave; ``Discard``
  in phase ``discard`` for completeness, though the unit discards by itself);
- :meth:`Bot.interject` is asked whenever this seat holds the chip and may lay it
  (before a roll, between two discards, before a decision): a ``Place`` or None;
- :meth:`Bot.choose` combines both for any position: an interjection first,
  then the seat's own decision, else None (nothing to do now / keep the chip).

A bot may be told the table (:meth:`Bot.meet`: every seat's kind, ``human`` or a
level): the unit, the simulator and self-play know who sits where, and the master
plays the known bots' policies. Without it a bot plays as before.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar

from firmware.kernel.seats import seat_name

from ..engine import (
    ACCEPT,
    DECLINE,
    DISCARD,
    LEAVE,
    PASS,
    REFUSE,
    RISK,
    TAKE,
    Act,
    Action,
    Green,
    Phase,
    Place,
    Red,
    State,
)
from ..engine.rules import CARDS
from .tables import Tables, tables

_PLACE, _DECIDE = Act.PLACE, Act.DECIDE
_GREENS = tuple(Green(s) for s in range(4))
_REDS = tuple(Red(s) for s in range(4))
_PLACES = tuple(tuple(Place(by, on) for on in range(4)) for by in range(4))


def finishing_run(state: State) -> bool:
    """Phase ``discard``: the current roll lets the roller discard through card 16."""
    mask = state.makeable_mask
    d = state.discarded[state.control[state.turn]]
    while d < CARDS:
        d += 1
        if not mask >> d & 1:
            return False
    return True


class Bot:
    """Base bot: subclasses override the ``on_*`` hooks."""

    level: ClassVar[str] = "base"

    def __init__(self, seat: int, rng: random.Random | None = None) -> None:
        self.seat = seat
        self.rng = rng if rng is not None else random.Random(seat)
        self._tables: Tables | None = None
        #: Every seat's kind (``human`` or a bot level), when the bot was told the table.
        self.table: tuple[str, ...] | None = None

    def __repr__(self) -> str:
        return f"<{type(self).__name__} seat={self.seat}>"

    def tables(self, state: State) -> Tables:
        """Lookup tables for the state's rules (cached on the bot)."""
        t = self._tables
        if t is None or t.rules is not state.rules:
            t = self._tables = tables(state.rules)
        return t

    def meet(self, table: Sequence[str]) -> None:
        """Learn the table: the kind of every seat (``human`` or a bot level), own included."""
        if not 0 <= self.seat < len(table):
            raise ValueError(f"{seat_name(self.seat)} is not at a table of {len(table)}")
        self.table = tuple(table)

    # ---------------------------------------------------------------- protocol
    def choose(self, state: State) -> Action | None:
        """Any action this seat wants to take now, or None (nothing to do / keep the chip)."""
        for seat, act in state.actors():
            if seat != self.seat:
                continue
            if act is _DECIDE:
                return self.decide(state)
            place = self.on_chip(state)
            if place is not None:
                return place
        return None

    def interject(self, state: State) -> Place | None:
        """A chip placement now, if this seat holds the chip and wants to lay it."""
        if state.may(self.seat, _PLACE):
            return self.on_chip(state)
        return None

    def on_chip(self, state: State) -> Place | None:
        """This seat holds the chip and may lay it now: a ``Place`` or None (keep it)."""
        return None

    def decide(self, state: State) -> Action:
        """The decision the game waits for from this seat (``state.current_player()``)."""
        phase = state.phase
        if phase is Phase.DECIDE:
            return RISK if self.on_decide(state) else PASS
        if phase is Phase.DISCARD:
            return DISCARD
        if phase is Phase.GREEN:
            target = self.on_green(state)
            return DECLINE if target is None else _GREENS[target]
        if phase is Phase.GREEN_REFUSAL:
            return REFUSE if self.on_refuse(state) else ACCEPT
        if phase is Phase.RED:
            return _REDS[self.on_red(state)]
        if phase is Phase.BLOCK:
            return TAKE if self.on_take(state) else LEAVE
        raise ValueError(f"{seat_name(self.seat)} has no decision in phase {phase.value!r}")

    def place(self, on: int) -> Place:
        """The (shared, immutable) action laying this seat's chip on seat ``on``."""
        return _PLACES[self.seat][on]

    # ------------------------------------------------------------------ hooks
    def on_decide(self, state: State) -> bool:
        """Phase ``decide``: True to take a risk, False to pass."""
        raise NotImplementedError

    def on_green(self, state: State) -> int | None:
        """Phase ``green``: a seat to exchange with (not refused, not self) or None."""
        raise NotImplementedError

    def on_refuse(self, state: State) -> bool:
        """Phase ``green_refusal`` (this seat was named): True to refuse."""
        raise NotImplementedError

    def on_red(self, state: State) -> int:
        """Phase ``red``: one of ``state.red_choices``."""
        raise NotImplementedError

    def on_take(self, state: State) -> bool:
        """Phase ``block``: True to take the chip off the other deck, False to leave it."""
        raise NotImplementedError
