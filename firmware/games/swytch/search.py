"""The Swytch search: iterative-deepening alpha-beta over :mod:`.evaluation`, counted in
positions (a NODE budget, not a clock: the same position, budget and seed give the same
result on every machine).

- **Move ordering**: the transposition table's move first, then the attacks by what they
  take (``a >= d``), the killer moves of the ply, the rest by their history score.
- **Quiescence**: at the horizon, the attacks that take more than they lose are played
  out (a few plies), so that a leaf is never scored in the middle of an exchange.
- **Draws**: a position that repeats one in its history scores as a draw (0) in the
  search, so the side ahead avoids repetitions and the side behind looks for them; the
  100-quiet-turn draw is the engine's and scores 0 as well.
- **Memory**: the transposition table, killers and history live for one search (one
  move) and hold at most one entry per position made, so they are bounded by the budget.

>>> from .state import State
>>> result = Search(300).run(State.new())
>>> result.action in State.new().legal_actions(), result.nodes <= 300
(True, True)
"""

from __future__ import annotations

import random
from typing import NamedTuple

from .actions import Action, Move
from .evaluation import WIN, assess, attack_gain, evaluate
from .state import State, cell_index

#: Bound kinds of a transposition table entry.
_EXACT, _LOWER, _UPPER = 0, 1, 2
#: Plies of attacks played out at the horizon.
QUIESCENCE = 4
MAX_DEPTH = 32
#: The transposition table never holds more entries than this (it also holds at most one
#: per position made, so a budget below this is its bound).
TABLE_LIMIT = 1 << 16


class Result(NamedTuple):
    """A search's answer: the action, its score for the player to move (hundredths of a
    counter, ±:data:`WIN` less the turns to a won or lost end), the deepest completed
    depth (plies, 0 for a forced or budget-cut choice) and the positions made."""

    action: Action
    score: int
    depth: int
    nodes: int


class OutOfNodes(Exception):
    """The budget is spent (caught inside :meth:`Search.run`)."""


class Search:
    """One search at a budget of ``nodes`` positions (made by :meth:`State.apply`);
    ``rng`` shuffles the root's actions, so equal choices vary from seed to seed."""

    def __init__(self, nodes: int, rng: random.Random | None = None) -> None:
        if nodes < 1:
            raise ValueError(f"a search needs a budget of at least 1 position, got {nodes}")
        self.nodes = nodes
        self.rng = rng
        self._left = 0
        self._table: dict[tuple[object, ...], tuple[int, int, int, Action | None]] = {}
        self._killers: list[list[Action]] = []
        self._history: dict[Action, int] = {}

    def run(self, state: State) -> Result:
        """The best action found for the player to move at ``state`` (not over)."""
        actions = state.legal_actions()
        if not actions:
            raise ValueError("the game is over: there is no action to search")
        if self.rng is not None:
            self.rng.shuffle(actions)
        self._left = self.nodes
        self._table = {}
        self._killers = [[] for _ in range(MAX_DEPTH + QUIESCENCE + 2)]
        self._history = {}
        actions = self._order(state, actions, None, 0)
        best, score, done = actions[0], 0, 0
        if len(actions) > 1:
            for depth in range(1, MAX_DEPTH + 1):
                try:
                    found, value, scored = self._root(state, actions, depth)
                except OutOfNodes as out:
                    if out.args and out.args[0] is not None:  # better than the old best
                        best, score = out.args[0]
                    break
                best, score, done = found, value, depth
                actions = [a for _, a in sorted(scored, key=lambda sa: -sa[0])]
                if abs(value) >= WIN - MAX_DEPTH - QUIESCENCE:
                    break
        return Result(best, score, done, self.nodes - self._left)

    def _root(
        self, state: State, actions: list[Action], depth: int
    ) -> tuple[Action, int, list[tuple[int, Action]]]:
        alpha, beta = -WIN - 1, WIN + 1
        best: Action | None = None
        scored: list[tuple[int, Action]] = []
        for action in actions:
            try:
                score = -self._search(self._child(state, action), depth - 1, -beta, -alpha, 1)
            except OutOfNodes:
                raise OutOfNodes(None if best is None else (best, alpha)) from None
            scored.append((score, action))
            if best is None or score > alpha:
                best, alpha = action, score
        assert best is not None
        return best, alpha, scored

    def _child(self, state: State, action: Action) -> State:
        if self._left <= 0:
            raise OutOfNodes
        self._left -= 1
        return state.apply(action)

    def _search(self, state: State, depth: int, alpha: int, beta: int, ply: int) -> int:
        if state.is_terminal():
            return _at(evaluate(state), ply)
        if state.history and state.key in state.history[-2::-2]:
            return 0  # a repetition: heading for the draw
        if depth <= 0:
            return self._quiesce(state, alpha, beta, ply, QUIESCENCE)
        key = state.key
        entry = self._table.get(key)
        hint: Action | None = None
        if entry is not None:
            got_depth, value, bound, hint = entry
            if got_depth >= depth:
                value = _from_table(value, ply)
                if (
                    bound == _EXACT
                    or (bound == _LOWER and value >= beta)
                    or (bound == _UPPER and value <= alpha)
                ):
                    return value
        start = alpha
        best, best_action = -WIN - 1, None
        for action in self._order(state, state.legal_actions(), hint, ply):
            child = self._child(state, action)
            score = -self._search(child, depth - 1, -beta, -alpha, ply + 1)
            if score > best:
                best, best_action = score, action
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        if child.quiet:  # a quiet action (attacks are ordered first anyway)
                            self._reward(action, depth, ply)
                        break
        bound = _LOWER if best >= beta else _UPPER if best <= start else _EXACT
        if len(self._table) >= TABLE_LIMIT:
            self._table.clear()
        self._table[key] = (depth, _to_table(best, ply), bound, best_action)
        return best

    def _quiesce(self, state: State, alpha: int, beta: int, ply: int, left: int) -> int:
        if state.is_terminal():
            return _at(evaluate(state), ply)
        stand, gain = assess(state)
        if stand >= beta or left == 0 or gain <= 0:
            return stand
        alpha = max(alpha, stand)
        best = stand
        for gain, action in self._gains(state):
            if gain <= 0:
                break
            score = -self._quiesce(self._child(state, action), -beta, -alpha, ply + 1, left - 1)
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        return best

    def _gains(self, state: State) -> list[tuple[int, Action]]:
        """The attacks with what each takes less what it loses, the best first."""
        cells, me = state.cells, state.to_move
        index = cell_index(state.ranks)
        out: list[tuple[int, Action]] = []
        for action in state.attacks():
            assert isinstance(action, Move)
            jumps = sum(
                1 for cell in action.path[:-1] if (s := cells[index[cell]]) and s.owner == me
            )
            target = cells[index[action.path[-1]]]
            assert target is not None
            out.append((attack_gain(action.count - jumps, len(target.counters)), action))
        out.sort(key=lambda ga: -ga[0])
        return out

    def _order(
        self, state: State, actions: list[Action], hint: Action | None, ply: int
    ) -> list[Action]:
        """``hint`` first, then the attacks by gain, the ply's killers, the rest by history."""
        attacks = self._gains(state)
        first = [a for _, a in attacks]
        if hint is not None:
            first = [hint, *(a for a in first if a != hint)]
        chosen = set(first)
        killers = [k for k in self._killers[ply] if k not in chosen and k in actions]
        chosen.update(killers)
        history = self._history
        rest = [a for a in actions if a not in chosen]
        rest.sort(key=lambda a: -history.get(a, 0))
        return first + killers + rest

    def _reward(self, action: Action, depth: int, ply: int) -> None:
        """A quiet action cut the search off: remember it (killer, history)."""
        killers = self._killers[ply]
        if action not in killers:
            killers.insert(0, action)
            del killers[2:]
        self._history[action] = self._history.get(action, 0) + depth * depth


def _at(score: int, ply: int) -> int:
    """A won (lost) end's score, less (plus) the plies to reach it."""
    if score >= WIN:
        return score - ply
    if score <= -WIN:
        return score + ply
    return score


def _to_table(score: int, ply: int) -> int:
    """A score as the table keeps it: a won end's distance from this position."""
    if score >= WIN - MAX_DEPTH - QUIESCENCE - 200:
        return score + ply
    if score <= -WIN + MAX_DEPTH + QUIESCENCE + 200:
        return score - ply
    return score


def _from_table(score: int, ply: int) -> int:
    if score >= WIN - MAX_DEPTH - QUIESCENCE - 200:
        return score - ply
    if score <= -WIN + MAX_DEPTH + QUIESCENCE + 200:
        return score + ply
    return score


def analyse(state: State, nodes: int, rng: random.Random | None = None) -> Result:
    """The search's best action and score for the player to move at ``state``, at a
    budget of ``nodes`` positions (what ``switch16 review`` compares moves with)."""
    return Search(nodes, rng).run(state)
