"""``random``: uniform among the legal decisions, for fuzzing, benchmarks and tests.

Not a level a player picks (see :data:`firmware.games.switch16.bots.LEVELS`): it plays badly on
purpose, so every rule gets exercised.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..engine import Act, Action, Place, State
from .base import Bot

_PLACE = Act.PLACE

#: Chance of laying a held chip at any one window.
PLACE_CHANCE = 0.05


class RandomBot(Bot):
    """Picks uniformly among its legal actions; lays a held chip now and then."""

    level = "random"

    def interject(self, state: State) -> Place | None:
        if not state.may(self.seat, _PLACE) or self.rng.random() >= PLACE_CHANCE:
            return None
        places = [a for a in state.legal_actions() if type(a) is Place]
        return places[int(self.rng.random() * len(places))]

    def decide(self, state: State) -> Action:
        legal = [a for a in state.legal_actions() if type(a) is not Place]
        return legal[int(self.rng.random() * len(legal))]


def random_bots(players: int, rng: random.Random) -> Sequence[RandomBot]:
    """One random bot per seat, all drawing from ``rng``."""
    return [RandomBot(s, rng) for s in range(players)]
