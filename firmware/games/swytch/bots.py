"""Swytch bots: ``random``, ``easy`` (one ply, greedy, noisy), ``medium`` and ``hard``
(the search of :mod:`.search` over the evaluation of :mod:`.evaluation`).

Every bot plays one seat through :meth:`State.legal_actions`, like a person, and
answers the driver's questions (Switch 16's
:class:`~firmware.games.switch16.driver.Player`): :meth:`SwytchBot.decide`
returns the action for the seat to move, :meth:`SwytchBot.interject` is always None
(Swytch has no interjections). Bots draw random numbers only from the ``rng`` they are
given, so a game is reproducible from its seed. The searching levels count the positions
they make (a NODE budget, not a clock), so the same position and seed give the same move
on every machine; each level's budget is chosen for a think of a stated number of seconds
on a Pi Zero 2 W (``benchmarks/swytch_bots.py`` measures CPU per move here, x K).

>>> import random
>>> bot = make_bot("medium", 0, random.Random(1))
>>> state = State.new()
>>> bot.decide(state) in state.legal_actions()
True
"""

from __future__ import annotations

import random
from typing import ClassVar

from .actions import Action
from .evaluation import WIN, evaluate
from .search import Result, Search, analyse
from .state import State

__all__ = [
    "LEVELS",
    "WIN",
    "EasyBot",
    "HardBot",
    "MediumBot",
    "RandomBot",
    "Result",
    "SearchBot",
    "SwytchBot",
    "analyse",
    "evaluate",
    "make_bot",
]


class SwytchBot:
    """Base: ``choose`` picks the seat's action; the driver calls ``decide``."""

    level: ClassVar[str] = "base"

    def __init__(self, seat: int, rng: random.Random | None = None) -> None:
        self.seat = seat
        self.rng = rng if rng is not None else random.Random(seat)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} seat={self.seat}>"

    def choose(self, state: State) -> Action:
        raise NotImplementedError

    def decide(self, state: State) -> Action:
        return self.choose(state)

    def interject(self, state: State) -> None:
        """Swytch has no interjections."""
        return None


class RandomBot(SwytchBot):
    """A uniformly random legal action."""

    level = "random"

    def choose(self, state: State) -> Action:
        actions = state.legal_actions()
        return actions[int(self.rng.random() * len(actions))]


class EasyBot(SwytchBot):
    """One ply: the action with the best :func:`evaluate` after it, plus noise; now and
    then a random one."""

    level = "easy"
    #: Chance of a random action; the noise added to each score (in evaluation units).
    BLUNDER = 0.1
    NOISE = 30

    def choose(self, state: State) -> Action:
        actions = state.legal_actions()
        rng = self.rng
        if rng.random() < self.BLUNDER:
            return actions[int(rng.random() * len(actions))]
        return max(actions, key=lambda a: -evaluate(state.apply(a)) + rng.random() * self.NOISE)


class SearchBot(SwytchBot):
    """The search (:class:`.search.Search`) at a budget of :attr:`NODES` positions a move;
    the levels below differ only in their budget."""

    level = "search"
    NODES: ClassVar[int] = 4000

    def __init__(self, seat: int, rng: random.Random | None = None, nodes: int | None = None):
        super().__init__(seat, rng)
        self.nodes = self.NODES if nodes is None else nodes
        #: The last search's result (its score, depth and positions made).
        self.last: Result | None = None

    def choose(self, state: State) -> Action:
        self.last = Search(self.nodes, self.rng).run(state)
        return self.last.action


class MediumBot(SearchBot):
    """A short search: about 0.35 s a move on a Pi Zero 2 W (median; p90 ~0.7 s)."""

    level = "medium"
    NODES = 250


class HardBot(SearchBot):
    """The full search: about 1.3 s a move on a Pi Zero 2 W (median; p90 ~2.7 s)."""

    level = "hard"
    NODES = 800


LEVELS: dict[str, type[SwytchBot]] = {b.level: b for b in (RandomBot, EasyBot, MediumBot, HardBot)}


def make_bot(level: str, seat: int, rng: random.Random | None = None) -> SwytchBot:
    """The bot of ``level`` (one of :data:`LEVELS`) for ``seat``."""
    try:
        return LEVELS[level](seat, rng)
    except KeyError:
        raise ValueError(
            f"unknown Swytch bot level {level!r} (one of {', '.join(LEVELS)})"
        ) from None
