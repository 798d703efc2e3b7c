"""``expert``: the solitaire-optimal risk policy, adjusted for the table.

Decks are valued in expected turns to finish (:mod:`firmware.games.switch16.bots.tables`, from the
odds module); a blocked deck costs extra turns until a block is rolled. On top of
the solitaire policy the expert

- risks also where the solitaire model passes when its deck may not survive to its
  next turn (an opponent with a worse deck may take it with a green switch:
  :func:`sprint_risk` maximises P(finishing before the deck is lost)), or when a
  better deck lies at the table (every risk roll is a green ticket to it);
- lays its own chip on a roller about to finish, and on a risk roll before its
  first discard when the penalty costs the roller enough cards;
- on a green switch compares every deck it may take with evaluating its own
  dice; refuses a switch to a worse deck; on a red switch avoids a blocked deck;
- takes a chip off another deck only when that deck is no threat.
"""

from __future__ import annotations

from functools import cache

from firmware.games.switch16 import odds

from ..engine import Phase, Place, State
from ..engine.dice import run_length
from ..engine.rules import CARDS, Rules
from .base import Bot, finishing_run
from .tables import Tables, tables

#: Extra expected turns a blocked deck costs (a block face comes one roll in three).
BLOCKED_EXTRA = 2.0
#: Lay the chip on a risk roll before its first discard when the penalty costs this many cards.
MIN_PENALTY_CARDS = 3
#: P(one opponent's roll does not show green).
GREEN_MISS = 5 / 6


@cache
def sprint_risk(rules: Rules, survive: float) -> tuple[bool, ...]:
    """Risk decisions (index = discarded) that maximise P(finishing before the deck is lost).

    At a table the deck a seat controls now may be gone by its next turn (a green
    switch takes the best deck, a red one gives it away), so each turn that ends
    keeps the deck with probability ``survive`` only. Solved by value iteration:
    ``W[d]`` = P(finish) from the start of a turn at ``d``, ``M[d]`` mid-turn.
    """
    t = tables(rules)
    dists = [odds.run_distribution_float(d + 1, rules.dice_count(d)) for d in range(CARDS)]
    p_red = float(odds.P_RED)
    start = [0.0] * CARDS
    mid = [0.0] * CARDS + [1.0]
    risk = [False] * CARDS
    for _ in range(500):
        new_start, new_risk_value = [], []
        for d in range(CARDS):
            dist = dists[d]
            run = sum(dist[k] * mid[d + k] for k in range(1, len(dist)))
            stay = p_red * survive * start[d]
            new_start.append(stay + (1 - p_red) * (dist[0] * survive * start[d] + run))
            pen = t.after_penalty[d]
            new_risk_value.append(stay + (1 - p_red) * (dist[0] * survive * start[pen] + run))
        pairs = list(zip(new_start, new_risk_value, strict=True))
        risk = [d > 0 and r > survive * w for d, (w, r) in enumerate(pairs)]
        new_mid = [*(max(survive * w, r) for w, r in pairs), 1.0]
        if max(abs(a - b) for a, b in zip(new_mid, mid, strict=True)) < 1e-12:
            break
        start, mid = new_start, new_mid
    return (*risk, False)


class ExpertBot(Bot):
    """Solitaire-optimal risks, adjusted for the table; careful chip play."""

    level = "expert"

    def deck_value(self, state: State, seat: int, t: Tables) -> float:
        """Expected turns to finish the deck ``seat`` controls (lower is better)."""
        deck = state.control[seat]
        value = t.turns[state.discarded[deck]]
        return value + BLOCKED_EXTRA if state.chip_deck == deck else value

    # ------------------------------------------------------------------ chip
    def on_chip(self, state: State) -> Place | None:
        if state.phase is not Phase.DISCARD:
            return None
        roller = state.turn
        if roller == self.seat:
            return None
        if finishing_run(state):
            return self.place(roller)
        if state.risk and not state.rolled_discards:
            d = state.discarded[state.control[roller]]
            if d - self.tables(state).after_penalty[d] >= MIN_PENALTY_CARDS:
                return self.place(roller)
        return None

    # ------------------------------------------------------------- decisions
    def on_decide(self, state: State) -> bool:
        return expert_risks(state, self.seat)

    def on_green(self, state: State) -> int | None:
        t = self.tables(state)
        me = self.seat
        d = state.discarded[state.control[me]]
        k = 0 if state.blocked(me) else run_length(state.makeable_mask, d + 1)
        if k == 0:
            best = t.turns[t.after_penalty[d]] if state.risk else t.turns[d]
        elif d + k >= CARDS:
            holder = state.chip_holder
            best = -1.0 if holder is None or holder == me else t.turns[d] + BLOCKED_EXTRA
        else:
            best = t.mid[d + k]
        choice = None
        for s in state.green_targets():
            value = self.deck_value(state, s, t)
            if value < best:
                choice, best = s, value
        return choice

    def on_refuse(self, state: State) -> bool:
        t = self.tables(state)
        margin = 0.0 if state.rules.refused_chip == "keep" else 0.5
        return self.deck_value(state, self.seat, t) + margin < self.deck_value(state, state.turn, t)

    def on_red(self, state: State) -> int:
        choices = state.red_choices
        best = choices[0]
        best_key = (True, True)
        for s in choices:
            key = (state.blocked(s), state.chip_holder == s)
            if key < best_key:
                best, best_key = s, key
        return best

    def on_take(self, state: State) -> bool:
        other = state.chip_deck
        assert other is not None  # phase block: the chip lies on a deck
        return state.discarded[other] < state.discarded[state.control[self.seat]]


def expert_risks(state: State, seat: int) -> bool:
    """The expert's risk-or-pass answer for ``seat``'s deck in ``state``."""
    t = tables(state.rules)
    d = state.discarded[state.control[seat]]
    if d >= CARDS:
        return False
    if t.risk[d]:
        return True
    keep = survival(state, seat)
    if keep < 1.0:
        return sprint_risk(state.rules, keep)[d]
    # Nobody wants this deck: a risk roll is also a green ticket to a better deck.
    return any(
        state.discarded[state.control[other]] > d and not state.blocked(other)
        for other in range(state.players)
        if other != seat
    )


def survival(state: State, seat: int) -> float:
    """Estimated P(``seat`` still controls its deck at its next turn).

    Each opponent whose own deck is worse may take it with a green switch (one roll
    in six). Holding the chip does not count: a third of all rolls show block and
    take it away.
    """
    mine = state.discarded[state.control[seat]]
    keep = 1.0
    for other in range(state.players):
        if other != seat and state.discarded[state.control[other]] < mine:
            keep *= GREEN_MISS
    return keep
