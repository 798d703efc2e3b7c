"""``easy``: picks among the legal actions at random, but is cautious with risks."""

from __future__ import annotations

from ..engine import Place, State
from .base import Bot

#: Chance of laying a held chip at any one window (before a roll, between discards…).
PLACE_CHANCE = 0.02
#: An easy bot risks (at this chance) only when the next card fails at most this often.
MAX_FAIL = 0.3
RISK_CHANCE = 0.25


class EasyBot(Bot):
    """Random legal choices; risks rarely and only with good odds."""

    level = "easy"

    def on_chip(self, state: State) -> Place | None:
        if self.rng.random() >= PLACE_CHANCE:
            return None
        others = [s for s in range(state.players) if s != self.seat]
        return self.place(others[int(self.rng.random() * len(others))])

    def on_decide(self, state: State) -> bool:
        d = state.discarded[state.control[self.seat]]
        return self.tables(state).p_fail[d] <= MAX_FAIL and self.rng.random() < RISK_CHANCE

    def on_green(self, state: State) -> int | None:
        options: list[int | None] = [None, *state.green_targets()]
        return options[int(self.rng.random() * len(options))]

    def on_refuse(self, state: State) -> bool:
        return self.rng.random() < 0.5

    def on_red(self, state: State) -> int:
        choices = state.red_choices
        return choices[int(self.rng.random() * len(choices))]

    def on_take(self, state: State) -> bool:
        return self.rng.random() < 0.5
