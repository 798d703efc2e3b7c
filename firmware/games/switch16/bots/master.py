"""``master``: plays the whole table with a win-probability model and a turn search.

Every decision is the legal action that leaves this seat the highest estimated
P(win) (:func:`firmware.games.switch16.bots.search.Search.value`): the value of a turn's start comes
from a model fitted offline on self-play (:mod:`firmware.games.switch16.bots.value`; every seat's
cards, turn order and the chip), and what happens until the turn ends is searched
over the dice. So it risks more when an opponent is close to 16 (a trailing seat
wants variance), takes on green the deck that helps it most (not only the highest:
who receives its own deck, and who rolls next, count), refuses, takes or leaves the
chip and lays it (at the first discard window of an opponent's roll: a block then
costs a risk roll its penalty, and stops a finishing run) by the same measure.

Told the table (:meth:`Bot.meet`), it plays it: seats of the ``rulebook`` and ``expert``
levels are predicted to follow their bots' policies in the search (people, and other
levels, are assumed to maximise their own P(win)); heads up against an expert it plays
the solved best response to the expert's policy, and against three rulebook bots it
reads that table's role model (:class:`firmware.games.switch16.bots.value.RoleModel`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..engine import Action, Phase, Place, State
from .base import Bot
from .expert import ExpertBot
from .search import EXPERT, MAX, RULEBOOK, Search, Vec, search_for
from .value import Model

#: A chip is laid only when blocking gains at least this much P(win) over keeping it.
PLACE_MARGIN = 0.0
#: With 3 or 4 players read by the generic model, a green choice other than the expert's
#: (the deck that finishes soonest) needs at least this much more estimated P(win): that
#: model misjudges swaps by about this much, and paired self-play (6,000 games, seeds 2
#: and 3) measured the expert's choice 0.8-1.7 points better against rulebook bots, even
#: against experts. A role model (fitted to the search's own values) needs no margin:
#: 0.4-0.7 points better without it (20,000 paired games a preset, seed 3).
GREEN_MARGIN = 0.05


class MasterBot(Bot):
    """Max-P(win) decisions from a fitted position model plus a turn search."""

    level = "master"

    def __init__(self, seat: int, rng: random.Random | None = None) -> None:
        super().__init__(seat, rng)
        self._search: Search | None = None
        self._expert: ExpertBot | None = None
        self._kinds: tuple[str, ...] | None = None

    def meet(self, table: Sequence[str]) -> None:
        super().meet(table)
        kinds = tuple(
            k if s != self.seat and k in (RULEBOOK, EXPERT) else MAX for s, k in enumerate(table)
        )
        self._kinds = kinds if any(k != MAX for k in kinds) else None
        self._search = None

    def use_search(self, search: Search) -> None:
        """Search with ``search`` (training: one reading a model being fitted)."""
        self._search = search

    def search(self, state: State) -> Search:
        s = self._search
        if s is None or s.rules is not state.rules or s.n != state.players:
            kinds = self._kinds if self._kinds and len(self._kinds) == state.players else None
            s = self._search = search_for(state.rules, state.players, kinds)
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
        search = self.search(state)
        if state.phase is Phase.GREEN and state.players > 2 and type(search.model) is Model:
            return self.green(state, search)  # the generic model: see GREEN_MARGIN
        best, _ = best_action(state, self.seat, search)
        return best

    def green(self, state: State, search: Search) -> Action:
        """The best green choice, unless the expert's is estimated nearly as good."""
        me = self.seat
        values = {
            a: search.value(state.apply(a))[me]
            for a in state.legal_actions()
            if type(a) is not Place
        }
        best = max(values, key=values.__getitem__)
        if self._expert is None:
            self._expert = ExpertBot(me, self.rng)
        prior = self._expert.decide(state)
        return prior if values[best] - values.get(prior, -1.0) < GREEN_MARGIN else best


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
