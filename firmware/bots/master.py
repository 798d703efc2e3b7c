"""``master``: plays the whole table with a win-probability model and a turn search.

Every decision is the legal action that leaves this seat the highest estimated
P(win) (:func:`firmware.bots.search.Search.value`): the value of a turn's start comes
from a model fitted offline on self-play (:mod:`firmware.bots.value`; every seat's
cards, turn order and the chip), and what happens until the turn ends is searched
over the dice. So it risks more when an opponent is close to 16 (a trailing seat
wants variance), takes on green the deck that helps it most (not only the highest:
who receives its own deck, and who rolls next, count), refuses, takes or leaves the
chip and lays it (at the first discard window of an opponent's roll: a block then
costs a risk roll its penalty, and stops a finishing run) by the same measure.
"""

from __future__ import annotations

import random

from firmware.engine import Action, Phase, Place, State

from .base import Bot
from .search import Search, Vec, search_for

#: A chip is laid only when blocking gains at least this much P(win) over keeping it.
PLACE_MARGIN = 0.0


class MasterBot(Bot):
    """Max-P(win) decisions from a fitted position model plus a turn search."""

    level = "master"

    def __init__(self, seat: int, rng: random.Random | None = None) -> None:
        super().__init__(seat, rng)
        self._search: Search | None = None

    def search(self, state: State) -> Search:
        s = self._search
        if s is None or s.rules is not state.rules or s.n != state.players:
            s = self._search = search_for(state.rules, state.players)
        return s

    # ------------------------------------------------------------------ chip
    def on_chip(self, state: State) -> Place | None:
        phase = state.phase
        if phase is not Phase.DISCARD and phase is not Phase.ROLL:
            return None
        me = self.seat
        options = self.search(state).placements(state, me)
        if not options:
            return None
        keep = options.pop(None)[me] + PLACE_MARGIN
        best: int | None = None
        for on, v in options.items():
            if on is not None and v[me] > keep:
                best, keep = on, v[me]
        return None if best is None else self.place(best)

    # ------------------------------------------------------------- decisions
    def decide(self, state: State) -> Action:
        if state.phase is Phase.DISCARD:
            return super().decide(state)
        best, _ = best_action(state, self.seat, self.search(state))
        return best


def action_values(state: State, seat: int, search: Search | None = None) -> dict[Action, Vec]:
    """Every decision ``seat`` may take now (chip placements included) → P(win) per seat."""
    search = search or search_for(state.rules, state.players)
    out: dict[Action, Vec] = {}
    for action in state.legal_actions():
        if state.actor(action) == seat:
            out[action] = search.value(state.apply(action))
    return out


def best_action(state: State, seat: int, search: Search | None = None) -> tuple[Action, float]:
    """``seat``'s decision (``state.current_player()``; no chip placement) with its value."""
    search = search or search_for(state.rules, state.players)
    best: Action | None = None
    best_v = -1.0
    for action in state.legal_actions():
        if type(action) is Place:
            continue
        v = search.value(state.apply(action))[seat]
        if v > best_v:
            best, best_v = action, v
    assert best is not None
    return best, best_v
