"""Swytch bots: ``random``, ``easy`` (one ply, greedy, noisy) and ``search`` (alpha-beta).

Every bot plays one seat through :meth:`State.legal_actions`, like a person, and
answers the driver's questions (:class:`firmware.driver.Player`): :meth:`SwytchBot.decide`
returns the action for the seat to move, :meth:`SwytchBot.interject` is always None
(Swytch has no interjections). Bots draw random numbers only from the ``rng`` they are
given, so a game is reproducible from its seed. ``search`` counts the positions it
makes (a NODE budget, not a clock), so the same position and seed give the same move
on every machine.

>>> import random
>>> bot = make_bot("search", 0, random.Random(1))
>>> state = State.new()
>>> bot.decide(state) in state.legal_actions()
True
"""

from __future__ import annotations

import random
from functools import cache
from typing import ClassVar

from .actions import Action
from .board import FILES, SOUTH
from .state import State

#: Score of a won game (less the turns it takes, so that sooner is better).
WIN = 1_000_000
#: A counter on the board is worth this much; a rank nearer the opponent, ADVANCE.
COUNTER = 100
ADVANCE = 1


def evaluate(state: State) -> int:
    """The position's worth to the player to move (higher is better)."""
    me = state.to_move
    if state.winner is not None:
        return WIN if state.winner == me else -WIN
    if state.draw is not None:
        return 0
    left = state.left
    ahead = 0  # South's counters' ranks from its side, less North's from its side
    for stack, r in zip(state.cells, _rank_of(state.ranks), strict=True):
        if stack is not None:
            ahead += (r if stack.owner == SOUTH else r - state.ranks + 1) * len(stack.counters)
    score = COUNTER * (left[me] - left[1 - me]) + ADVANCE * ahead * (1 if me == SOUTH else -1)
    return score


@cache
def _rank_of(ranks: int) -> tuple[int, ...]:
    """The rank index of each cell index (cells go file by file)."""
    return tuple(r for _ in range(FILES) for r in range(ranks))


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


class _OutOfNodes(Exception):
    pass


class SearchBot(SwytchBot):
    """Iterative-deepening negamax with alpha-beta pruning and a node budget (positions
    made by :meth:`State.apply`); attacks are tried first. Ties go to the order the
    rng shuffled the legal actions into."""

    level = "search"
    #: Positions made per move: about 20 ms of CPU a move here (p99 ~40 ms; x25 on a Zero 2 W).
    NODES = 1200
    MAX_DEPTH = 8

    def __init__(self, seat: int, rng: random.Random | None = None, nodes: int | None = None):
        super().__init__(seat, rng)
        self.nodes = self.NODES if nodes is None else nodes
        self._left = 0
        #: Depth of the last completed search (for statistics).
        self.depth = 0

    def choose(self, state: State) -> Action:
        actions = state.legal_actions()
        self.rng.shuffle(actions)
        attacking = {id(a) for a in state.attacks()}
        actions.sort(key=lambda a: id(a) not in attacking)
        self._left = self.nodes
        best = actions[0]
        self.depth = 0
        for depth in range(1, self.MAX_DEPTH + 1):
            try:
                best_here, scored = self._root(state, actions, depth)
            except _OutOfNodes as out:
                found = out.args[0] if out.args else None
                if found is not None:
                    best = found  # the old best was searched first: only a better one wins
                break
            best, self.depth = best_here, depth
            # search the best first next time; the rest in their scored order
            actions = [a for _, a in sorted(scored, key=lambda sa: -sa[0])]
            if max(score for score, _ in scored) >= WIN - self.MAX_DEPTH or len(actions) == 1:
                break
        return best

    def _root(
        self, state: State, actions: list[Action], depth: int
    ) -> tuple[Action, list[tuple[int, Action]]]:
        alpha, beta = -WIN - 1, WIN + 1
        best: Action | None = None
        scored: list[tuple[int, Action]] = []
        for action in actions:
            try:
                score = -self._search(self._child(state, action), depth - 1, -beta, -alpha, 1)
            except _OutOfNodes:
                raise _OutOfNodes(best) from None
            scored.append((score, action))
            if best is None or score > alpha:
                best, alpha = action, score
        assert best is not None
        return best, scored

    def _child(self, state: State, action: Action) -> State:
        if self._left <= 0:
            raise _OutOfNodes
        self._left -= 1
        return state.apply(action)

    def _search(self, state: State, depth: int, alpha: int, beta: int, ply: int) -> int:
        if state.is_terminal():
            score = evaluate(state)
            return score - ply if score >= WIN else score + ply if score <= -WIN else score
        if depth == 0:
            return evaluate(state)
        best = -WIN - 1
        actions = state.attacks_first()
        for action in actions:
            score = -self._search(self._child(state, action), depth - 1, -beta, -alpha, ply + 1)
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        return best


LEVELS: dict[str, type[SwytchBot]] = {b.level: b for b in (RandomBot, EasyBot, SearchBot)}


def make_bot(level: str, seat: int, rng: random.Random | None = None) -> SwytchBot:
    """The bot of ``level`` (one of :data:`LEVELS`) for ``seat``."""
    try:
        return LEVELS[level](seat, rng)
    except KeyError:
        raise ValueError(
            f"unknown Swytch bot level {level!r} (one of {', '.join(LEVELS)})"
        ) from None
