"""``rulebook``: plays the published tips and plain common sense.

- Never takes a risk when the deck's only discarded cards are card 1, or cards
  1 and 2 (discarded count 1 or 2: "not recommended to risk again if you discarded
  only card number 1 or 2"); otherwise risks when the next card comes at least
  two times in three.
- Lays the chip on a player about to finish: between two discards, when the
  current roll would let the roller discard through card 16.
- On a green switch, takes the best deck (most discarded, not blocked) if it is
  better than its own (ties at random); refuses a green switch that would give it a worse deck;
  on a red switch prefers an unblocked deck; leaves the chip on another deck.
"""

from __future__ import annotations

from ..engine import Phase, Place, State
from .base import Bot, finishing_run

#: Discarded counts after which the rulebook never risks (tip: "only card 1 or 2").
NO_RISK_AFTER = frozenset({1, 2})
#: Risk when the next card fails at most this often (succeeds two times in three).
MAX_FAIL = 1 / 3


def rulebook_risks(discarded: int, p_fail: float) -> bool:
    """The rulebook decision at a deck with ``discarded`` cards gone."""
    return discarded not in NO_RISK_AFTER and p_fail <= MAX_FAIL


class RulebookBot(Bot):
    """The rulebook's tips, nothing more."""

    level = "rulebook"

    def on_chip(self, state: State) -> Place | None:
        if state.phase is Phase.DISCARD and state.turn != self.seat and finishing_run(state):
            return self.place(state.turn)
        return None

    def on_decide(self, state: State) -> bool:
        d = state.discarded[state.control[self.seat]]
        return rulebook_risks(d, self.tables(state).p_fail[d])

    def _score(self, state: State, seat: int) -> int:
        """Deck quality as a person sees it: cards gone, and a blocked deck is no good."""
        return -1 if state.blocked(seat) else state.discarded[state.control[seat]]

    def on_green(self, state: State) -> int | None:
        own = self._score(state, self.seat)
        scores = {s: self._score(state, s) for s in state.green_targets()}
        top = max(scores.values(), default=own)
        if top <= own:
            return None
        return self._pick([s for s, score in scores.items() if score == top])

    def on_refuse(self, state: State) -> bool:
        return self._score(state, state.turn) < self._score(state, self.seat)

    def on_red(self, state: State) -> int:
        choices = state.red_choices
        free = [s for s in choices if not state.blocked(s)]
        return self._pick(free or list(choices))

    def _pick(self, seats: list[int]) -> int:
        """One of ``seats`` at random (ties, as a person would break them)."""
        return seats[int(self.rng.random() * len(seats))] if len(seats) > 1 else seats[0]

    def on_take(self, state: State) -> bool:
        return False
