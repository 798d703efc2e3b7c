"""The Swytch game state and the rules that move it (docs/SWYTCH.md).

A :class:`State` is an immutable value: :meth:`State.apply` returns a new state and
never changes the old one; an illegal action raises :class:`IllegalMoveError` naming the
rule it breaks. :meth:`State.legal_actions` lists one action per outcome: moves from
the same stack with the same count that leave the same position are listed once, with
a canonical path (straight before bent, shortest first); :meth:`State.apply` takes
any legal path.

>>> state = State.new()
>>> state.current_player(), len(state.legal_actions())
(0, 77)
>>> from .notation import parse_action
>>> after = state.apply(parse_action("a2 2 a3-a4"))
>>> after.board.at(Cell.parse("a4")).height, after.to_move
(2, 1)
>>> after.apply(parse_action("a3 1 a4"))
Traceback (most recent call last):
...
firmware.games.swytch.errors.IllegalMoveError: a3 holds no stack of North (rule: own-stack)

Internally the board is a tuple of cells indexed ``c * ranks + r`` (the order of
:class:`Board`'s cells), each a :class:`Stack` or None.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from functools import cache
from typing import Any, NamedTuple

from firmware.jsonsafe import short_repr
from firmware.kernel.players import TERMINAL

from .actions import Action, Move, Prepare, SwytchAction
from .board import (
    DEFAULT_RANKS,
    FILES,
    NORTH,
    SIDE_NAMES,
    SOUTH,
    Board,
    BoardError,
    Cell,
    Counter,
    Direction,
    Shape,
    Stack,
)
from .errors import GameOverError, IllegalMoveError, PositionError
from .fen import from_fen, to_fen

__all__ = [
    "NORTH",
    "QUIET_LIMIT",
    "SOUTH",
    "TERMINAL",
    "Draw",
    "Outcome",
    "State",
    "cell_index",
    "neighbour_table",
]

#: A draw is declared as the 100th turn in a row without a removal ends.
QUIET_LIMIT = 100
#: A draw when a position (board and player to move) occurs for the third time.
REPEAT_LIMIT = 3

_HEX, _ROUND = Shape.HEX, Shape.ROUND
_DIRS = tuple(Direction)
_ALL_DIRS = tuple(range(6))
#: Direction indices a hex counter's indicators point to, by ``up``.
_POINTS = {up: tuple(_DIRS.index(d) for d in Counter(up).directions()) for up in (False, True)}
#: The four hex counter faces, shared so that equal counters are the same object.
_FACE = {(up, angled): Counter(up, angled) for up in (False, True) for angled in (False, True)}


class Outcome(StrEnum):
    """What happens at a move's destination (the screens' preview)."""

    LAND = "land"
    STACK = "stack"
    ATTACK_WON = "attack won"
    ATTACK_LOST = "attack lost"


_LAND, _STACK = Outcome.LAND, Outcome.STACK
_WON, _LOST = Outcome.ATTACK_WON, Outcome.ATTACK_LOST


class Draw(StrEnum):
    """Why a game was drawn."""

    REPETITION = "threefold repetition"
    QUIET = "100 turns without a removal"


Cells = tuple[Stack | None, ...]
Key = tuple[int, Cells]  # player to move first: positions of the other player differ fast


@cache
def _geometry(ranks: int) -> tuple[tuple[Cell, ...], dict[Cell, int], tuple[tuple[int, ...], ...]]:
    """Cells by index, index by cell, and each cell's neighbour index per direction (-1 off)."""
    cells = tuple(Cell(c, r) for c in range(FILES) for r in range(ranks))
    index = {cell: i for i, cell in enumerate(cells)}
    neighbours = tuple(
        tuple(-1 if (n := cell.step(d, ranks)) is None else index[n] for d in _DIRS)
        for cell in cells
    )
    return cells, index, neighbours


def neighbour_table(ranks: int) -> tuple[tuple[int, ...], ...]:
    """For each cell index (the order of :attr:`State.cells`), its neighbour's index in
    each direction (the order of :class:`Direction`), -1 off the board."""
    return _geometry(ranks)[2]


def cell_index(ranks: int) -> dict[Cell, int]:
    """Each cell's index in :attr:`State.cells`."""
    return _geometry(ranks)[1]


#: Move values by (ranks, origin, count, path of cell indices): made once, shared (a
#: search meets the same moves again and again), forgotten all at once when full.
_MOVES: dict[tuple[int, int, int, tuple[int, ...]], Move] = {}
#: About 1 MiB (~260 bytes an entry): a few games' moves, as fast as 32 times more; a
#: unit plays for months and a game makes ~2,000 new ones (at 1 << 17 the process grew
#: by ~20 KiB a game for thousands of games).
_MOVES_KEPT = 1 << 12


#: From this height on, bent paths are found pair by pair (:meth:`State._bent_ends_aimed`)
#: rather than by trying every path (3 ** height of them on an open board).
_LONG_PATHS = 6


class _Walk(NamedTuple):
    """A checked move: where it goes and what happens there."""

    origin: int
    k: int
    path: tuple[int, ...]
    jumps: int  #: own stacks passed
    bent: bool
    outcome: Outcome


class State:
    """One position of a Swytch game. Immutable by contract."""

    __slots__ = (
        "_attacks",
        "_board",
        "_legal",
        "_walks",
        "cells",
        "draw",
        "history",
        "left",
        "quiet",
        "ranks",
        "to_move",
        "winner",
    )

    ranks: int
    cells: Cells
    to_move: int
    #: The seat that won, or None.
    winner: int | None
    draw: Draw | None
    #: Turns in a row without a removal.
    quiet: int
    #: The positions since the last removal, before this one, oldest first; the players
    #: to move alternate (so only every other one can repeat this one).
    history: tuple[Key, ...]
    #: Counters on the board by seat.
    left: tuple[int, int]
    _board: Board | None
    _legal: list[Action] | None
    _walks: dict[int, tuple[Move, _Walk]] | None
    _attacks: list[Action] | None

    # ------------------------------------------------------------------ set-up
    @classmethod
    def new(cls, ranks: int = DEFAULT_RANKS, first: int = SOUTH) -> State:
        """The set-up with ``first`` to move."""
        if first not in (SOUTH, NORTH):
            raise ValueError(f"first must be 0 (South) or 1 (North), got {first!r}")
        return cls.from_board(Board.setup(ranks), first)

    @classmethod
    def from_board(
        cls, board: Board, to_move: int, quiet: int = 0, history: Sequence[Key] = ()
    ) -> State:
        """A state at ``board``; the result (win, draw) follows from the position."""
        _, index, _ = _geometry(board.ranks)
        cells: list[Stack | None] = [None] * (FILES * board.ranks)
        for cell, stack in board.stacks:
            cells[index[cell]] = stack
        return cls._make(board.ranks, tuple(cells), to_move, quiet, tuple(history), None)

    @classmethod
    def _make(
        cls,
        ranks: int,
        cells: Cells,
        to_move: int,
        quiet: int,
        history: tuple[Key, ...],
        left: tuple[int, int] | None,
    ) -> State:
        s = object.__new__(cls)
        s.ranks, s.cells, s.to_move, s.quiet, s.history = ranks, cells, to_move, quiet, history
        s._board = None
        s._legal = None
        s._walks = None
        s._attacks = None
        s.winner = None
        s.draw = None
        if left is None:
            count = [0, 0]
            for stack in cells:
                if stack is not None:
                    count[stack.owner] += len(stack.counters)
            left = (count[0], count[1])
        s.left = left
        if not left[to_move]:
            s.winner = 1 - to_move
        elif not left[1 - to_move]:
            s.winner = to_move
        elif quiet >= QUIET_LIMIT:
            s.draw = Draw.QUIET
        elif history[-2::-2].count((to_move, cells)) + 1 >= REPEAT_LIMIT:
            s.draw = Draw.REPETITION
        return s

    # ------------------------------------------------------------- questions
    @property
    def board(self) -> Board:
        if self._board is None:
            names = _geometry(self.ranks)[0]
            self._board = Board(
                self.ranks, tuple((names[i], s) for i, s in enumerate(self.cells) if s is not None)
            )
        return self._board

    @property
    def key(self) -> Key:
        """What a repetition compares: every counter and the player to move."""
        return (self.to_move, self.cells)

    def is_terminal(self) -> bool:
        return self.winner is not None or self.draw is not None

    # the game seam's questions (firmware.games.game.GameState)
    @property
    def players(self) -> int:
        return 2

    @property
    def game_over(self) -> bool:
        return self.is_terminal()

    def actor(self, action: Action) -> int:
        """The seat that takes ``action``: the side to move (Swytch has no chance)."""
        return self.to_move

    def current_player(self) -> int:
        """The seat to move, or TERMINAL once the game is over."""
        return TERMINAL if self.is_terminal() else self.to_move

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """None: Swytch has no chance (its dice only roll off who starts)."""
        return []

    def returns(self) -> tuple[int, int]:
        """+1 for a win, -1 for a loss, 0 for a draw or an unfinished game, by seat."""
        if self.winner is None:
            return (0, 0)
        return (1, -1) if self.winner == SOUTH else (-1, 1)

    def at(self, cell: Cell) -> Stack | None:
        index = _geometry(self.ranks)[1].get(cell)
        return None if index is None else self.cells[index]

    def counters(self, owner: int) -> int:
        return self.left[owner]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return (
            self.cells == other.cells
            and self.to_move == other.to_move
            and self.quiet == other.quiet
            and self.history == other.history
            and self.ranks == other.ranks
        )

    def __hash__(self) -> int:
        return hash((self.cells, self.to_move, self.quiet))

    def __repr__(self) -> str:
        return f"<swytch.State {to_fen(self.board, self.to_move)!r}>"

    # --------------------------------------------------------- legal actions
    def legal_actions(self) -> list[Action]:
        """Every legal action, one per outcome (empty once the game is over)."""
        if self._legal is None:
            self._legal = [] if self.is_terminal() else self._generate()
        return list(self._legal)

    def _generate(self) -> list[Action]:
        out: list[Action] = []
        known: dict[int, tuple[Move, _Walk]] = {}  # checked moves by id
        attacks: list[Action] = []
        names, _, neighbours = _geometry(self.ranks)
        me = self.to_move
        for i, stack in enumerate(self.cells):
            if stack is None or stack.owner != me:
                continue
            if stack.shape is _HEX:
                if not stack.counters[-1].angled:
                    out.append(Prepare(names[i]))
                out.append(SwytchAction(names[i]))
            for walks in self._paths_from(i, stack, neighbours):
                for walk in walks:
                    key = (self.ranks, i, walk.k, walk.path)
                    move = _MOVES.get(key)
                    if move is None:
                        if len(_MOVES) >= _MOVES_KEPT:
                            _MOVES.clear()
                        move = Move(names[i], walk.k, tuple(names[j] for j in walk.path))
                        _MOVES[key] = move
                    out.append(move)
                    known[id(move)] = (move, walk)
                    if walk.outcome is _WON or walk.outcome is _LOST:
                        attacks.append(move)
        self._walks = known
        self._attacks = attacks
        return out

    def _paths_from(
        self, origin: int, stack: Stack, neighbours: tuple[tuple[int, ...], ...]
    ) -> list[list[_Walk]]:
        """For each count k = 1..height, one walk per outcome."""
        cells = self.cells
        me, shape, height = stack.owner, stack.shape, stack.height
        top = stack.counters[-1]
        dirs = _ALL_DIRS if shape is _ROUND else _POINTS[top.up]
        bent: dict[tuple[int, int], tuple[int, ...]] = {}
        if top.angled:
            search = self._bent_ends if height < _LONG_PATHS else self._bent_ends_aimed
            bent = search(origin, dirs, height, neighbours)
        result = []
        for k in range(1, height + 1):
            seen: dict[tuple[Any, ...], _Walk] = {}
            for d in dirs:  # straight paths, jumps allowed
                path: list[int] = []
                jumps, prev, j = 0, origin, origin
                for _ in range(k):
                    j = neighbours[j][d]
                    if j < 0:
                        break
                    path.append(j)
                    target = cells[j]
                    if target is None:
                        if (j, False) not in seen:
                            seen[j, False] = _Walk(origin, k, tuple(path), jumps, False, _LAND)
                    elif target.owner == me:
                        if target.shape is not shape:
                            break
                        if (j, False) not in seen:
                            seen[j, False] = _Walk(origin, k, tuple(path), jumps, False, _STACK)
                        jumps += 1  # at most k - 1: the group always keeps a counter
                    else:
                        won = k - jumps >= len(target.counters)
                        key = (j, False) if won else (j, prev, jumps)
                        if key not in seen:
                            seen[key] = _Walk(
                                origin, k, tuple(path), jumps, False, _WON if won else _LOST
                            )
                        break
                    prev = j
            for (j, prev), bent_path in bent.items():  # shortest first
                if len(bent_path) > k:
                    continue
                target = cells[j]
                if target is None:
                    outcome = _LAND
                elif target.owner == me:
                    outcome = _STACK
                else:
                    outcome = _WON if k >= len(target.counters) else _LOST
                key = (j, prev, 0) if outcome is _LOST else (j, True)
                if key not in seen:
                    seen[key] = _Walk(origin, k, bent_path, 0, True, outcome)
            result.append(list(seen.values()))
        return result

    def _bent_ends(
        self,
        origin: int,
        dirs: tuple[int, ...],
        limit: int,
        neighbours: tuple[tuple[int, ...], ...],
    ) -> dict[tuple[int, int], tuple[int, ...]]:
        """Bent paths of at most ``limit`` steps through empty cells: the shortest path
        for each (last cell, cell before it), shortest first."""
        cells = self.cells
        me, shape = cells[origin].owner, cells[origin].shape  # type: ignore[union-attr]
        found: dict[tuple[int, int], tuple[int, ...]] = {}
        # breadth first over simple paths: (path, first direction, bent so far)
        layer: list[tuple[tuple[int, ...], int, bool]] = []
        for d in dirs:
            j = neighbours[origin][d]
            if j >= 0 and cells[j] is None:
                layer.append(((j,), d, False))
        for _ in range(limit - 1):
            nxt: list[tuple[tuple[int, ...], int, bool]] = []
            for path, first, bent in layer:
                here = path[-1]
                for d in dirs:
                    j = neighbours[here][d]
                    if j < 0 or j == origin or j in path:
                        continue
                    now_bent = bent or d != first
                    target = cells[j]
                    if now_bent and (target is None or target.owner != me or target.shape is shape):
                        found.setdefault((j, here), (*path, j))
                    if target is None:
                        nxt.append(((*path, j), first, now_bent))
            layer = nxt
        return found

    def _bent_ends_aimed(
        self,
        origin: int,
        dirs: tuple[int, ...],
        limit: int,
        neighbours: tuple[tuple[int, ...], ...],
    ) -> dict[tuple[int, int], tuple[int, ...]]:
        """What :meth:`_bent_ends` finds (with perhaps other paths of the same lengths),
        without trying every path: breadth first over (cell, direction so far or -1 once
        bent), revisits allowed, gives each reachable (last cell, cell before) pair its
        shortest bent walk's length L; then a depth-first search aimed at that pair, cut
        by the walk distances to its cell before, looks for a path of L steps, else of
        L + 3, L + 6… (every path to a cell has the same length modulo 3)."""
        cells = self.cells
        me, shape = cells[origin].owner, cells[origin].shape  # type: ignore[union-attr]
        shortest: dict[tuple[int, int], int] = {}
        seen: set[tuple[int, int]] = set()
        frontier: list[tuple[int, int]] = []
        for d in dirs:
            j = neighbours[origin][d]
            if j >= 0 and cells[j] is None:
                seen.add((j, d))
                frontier.append((j, d))
        for steps in range(2, limit + 1):
            nxt = []
            for here, way in frontier:
                for d in dirs:
                    j = neighbours[here][d]
                    if j < 0 or j == origin:
                        continue
                    now = way if way == d else -1
                    target = cells[j]
                    if now < 0 and (target is None or target.owner != me or target.shape is shape):
                        shortest.setdefault((j, here), steps)
                    if target is None and (j, now) not in seen:
                        seen.add((j, now))
                        nxt.append((j, now))
            frontier = nxt
        back = {d: _DIRS.index(_DIRS[d].opposite) for d in dirs}
        distances: dict[int, dict[int, int]] = {}
        found: dict[tuple[int, int], tuple[int, ...]] = {}
        for (j, before), steps in shortest.items():
            to_before = distances.get(before)
            if to_before is None:  # walk distances to ``before`` through empty cells
                to_before = distances[before] = {before: 0}
                ring = [before]
                while ring:
                    outer = []
                    for cell in ring:
                        for d in dirs:
                            q = neighbours[cell][back[d]]
                            if q >= 0 and q not in to_before and (cells[q] is None or q == origin):
                                to_before[q] = to_before[cell] + 1
                                if q != origin:
                                    outer.append(q)
                    ring = outer
            last = next(d for d in dirs if neighbours[before][d] == j)
            for length in range(steps, limit + 1, 3):
                path = _aimed_path(
                    cells, neighbours, dirs, origin, before, j, last, length - 1, to_before
                )
                if path is not None:
                    found[j, before] = (*path, j)
                    break
        return dict(sorted(found.items(), key=lambda item: len(item[1])))

    # ------------------------------------------------------------ checking
    def _walk(self, move: Move) -> _Walk:
        """Check ``move`` against the rules; raises IllegalMoveError naming the rule."""
        _, index, neighbours = _geometry(self.ranks)
        origin = index.get(move.origin, -1)
        if origin < 0:
            raise self._off_board(move.origin)
        stack = self.cells[origin]
        if stack is None or stack.owner != self.to_move:
            raise IllegalMoveError(
                "own-stack", f"{_name(move.origin)} holds no stack of {SIDE_NAMES[self.to_move]}"
            )
        k = move.count
        if type(k) is not int or not 1 <= k <= stack.height:
            raise IllegalMoveError(
                "count", f"count must be 1-{stack.height} for the stack at {move.origin.name}"
            )
        if not 1 <= len(move.path) <= k:
            raise IllegalMoveError("path-length", f"a path of {k} counters has 1-{k} steps")
        top = stack.counters[-1]
        dirs = _ALL_DIRS if stack.shape is _ROUND else _POINTS[top.up]
        cells, me = self.cells, stack.owner
        here, first, bent, jumps = origin, -1, False, 0
        seen = {origin}
        path: list[int] = []
        last = len(move.path) - 1
        for n, cell in enumerate(move.path):
            j = index.get(cell, -1)
            step = next((d for d in dirs if j >= 0 and neighbours[here][d] == j), None)
            if step is None:
                if j < 0:
                    raise self._off_board(cell)
                raise IllegalMoveError(
                    "direction",
                    f"{_name(cell)} is not one step from {_cell_name(self.ranks, here)} in a "
                    f"direction the top counter allows",
                )
            if j in seen:
                raise IllegalMoveError("no-revisit", f"the path enters {cell.name} twice")
            seen.add(j)
            if first < 0:
                first = step
            elif step != first:
                if shape_straight(stack.shape, top):
                    raise IllegalMoveError(
                        "straight",
                        "this group moves in a straight line (only an angled hex top may bend)",
                    )
                bent = True
            path.append(j)
            here = j
            target = cells[j]
            if target is not None and target.owner == me and target.shape is not stack.shape:
                raise IllegalMoveError(
                    "shape", f"{cell.name} holds an own stack of the other shape"
                )
            if n == last:
                break
            if target is not None:
                if target.owner != me:
                    raise IllegalMoveError("blocked", f"an opponent stack at {cell.name} blocks")
                jumps += 1  # at most k - 1 (a path has at most k steps): G keeps a counter
        if jumps and bent:
            raise IllegalMoveError("jump-straight", "a path with a jump must be straight")
        target = cells[path[-1]]
        if target is None:
            outcome = Outcome.LAND
        elif target.owner == me:
            outcome = Outcome.STACK
        elif k - jumps >= target.height:
            outcome = Outcome.ATTACK_WON
        else:
            outcome = Outcome.ATTACK_LOST
        return _Walk(origin, k, tuple(path), jumps, bent, outcome)

    def _off_board(self, cell: Any) -> IllegalMoveError:
        return IllegalMoveError(
            "on-board", f"{_name(cell)} is off the board (ranks 1-{self.ranks})"
        )

    def attacks(self) -> list[Action]:
        """The legal moves onto an opponent stack."""
        self.legal_actions()
        return list(self._attacks or ())

    def attacks_first(self) -> list[Action]:
        """The legal actions, the attacks first (for a search's move ordering)."""
        self.legal_actions()
        assert self._legal is not None
        if not self._attacks:
            return list(self._legal)
        attacking = {id(a) for a in self._attacks}
        return self._attacks + [a for a in self._legal if id(a) not in attacking]

    def outcome(self, move: Move) -> Outcome:
        """What ``move`` does at its destination; raises IllegalMoveError if it is illegal."""
        self._check_playing()
        return self._walk(move).outcome

    def _check_playing(self) -> None:
        if self.is_terminal():
            raise GameOverError("the game is over")

    # ------------------------------------------------------------- applying
    def apply(self, action: Action) -> State:
        """The state after ``action``; raises IllegalMoveError (or GameOverError)."""
        self._check_playing()
        if isinstance(action, Move):
            known = self._walks.get(id(action)) if self._walks is not None else None
            if known is not None and known[0] is action:  # listed: checked already
                return self._move(known[1])
            return self._move(self._walk(action))
        if not isinstance(action, Prepare | SwytchAction):
            raise IllegalMoveError("action", f"{action!r} is not a Swytch action")
        i = _geometry(self.ranks)[1].get(action.cell, -1)
        if i < 0:
            raise self._off_board(action.cell)
        stack = self.cells[i]
        if stack is None or stack.owner != self.to_move or stack.shape is not _HEX:
            raise IllegalMoveError(
                "own-hex-stack",
                f"{_name(action.cell)} holds no hex stack of {SIDE_NAMES[self.to_move]}",
            )
        if isinstance(action, Prepare):
            top = stack.counters[-1]
            if top.angled:
                raise IllegalMoveError(
                    "prepare-normal", f"the top counter at {action.cell.name} is already angled"
                )
            counters = (*stack.counters[:-1], _FACE[top.up, True])
        else:
            counters = tuple(_FACE[not k.up, k.angled] for k in stack.counters)
        cells = list(self.cells)
        cells[i] = Stack(stack.owner, _HEX, counters)
        return self._next(tuple(cells), removed=False)

    def _next(self, cells: Cells, removed: bool) -> State:
        if removed:
            return State._make(self.ranks, cells, 1 - self.to_move, 0, (), None)
        return State._make(
            self.ranks,
            cells,
            1 - self.to_move,
            self.quiet + 1,
            (*self.history, self.key),
            self.left,
        )

    def _move(self, walk: _Walk) -> State:
        cells = list(self.cells)
        origin, k, path = walk.origin, walk.k, walk.path
        stack = cells[origin]
        assert stack is not None
        me, shape = stack.owner, stack.shape
        group = stack.counters[-k:]
        rest = stack.counters[:-k]
        cells[origin] = Stack(me, shape, rest) if rest else None
        for j in path[:-1] if walk.jumps else ():
            below = cells[j]
            if below is not None:  # a jump: the group leaves its bottom counter
                cells[j] = Stack(me, shape, (*below.counters, group[0]))
                group = group[1:]
        dest = path[-1]
        target = cells[dest]
        end: int | None = dest
        outcome = walk.outcome
        if outcome is Outcome.ATTACK_LOST:
            assert target is not None
            a = len(group)
            cells[dest] = Stack(target.owner, target.shape, target.counters[:-a])
            group = group[:-1]
            end = path[-2] if len(path) > 1 else origin
            if group:
                below = cells[end]
                cells[end] = Stack(me, shape, (*below.counters, *group) if below else group)
            else:
                end = None
        elif outcome is Outcome.STACK:
            assert target is not None
            cells[dest] = Stack(me, shape, (*target.counters, *group))
        else:
            cells[dest] = Stack(me, shape, group)
        if walk.bent and outcome is not Outcome.ATTACK_LOST:  # the top flips back
            stack = cells[dest]
            assert stack is not None
            top = stack.counters[-1]
            cells[dest] = Stack(me, shape, (*stack.counters[:-1], _FACE[top.up, False]))
        attack = outcome in (Outcome.ATTACK_WON, Outcome.ATTACK_LOST)
        if attack and shape is _HEX and end is not None:  # the forced swytch
            stack = cells[end]
            assert stack is not None
            cells[end] = Stack(me, shape, tuple(_FACE[not c.up, c.angled] for c in stack.counters))
        return self._next(tuple(cells), removed=attack)

    def canonical(self, action: Action) -> Action:
        """The listed legal action with the same outcome as ``action`` (a move along any
        legal path); raises IllegalMoveError if it is illegal."""
        after = self.apply(action)
        if not isinstance(action, Move):
            return action
        for candidate in self.legal_actions():
            if (
                isinstance(candidate, Move)
                and candidate.origin == action.origin
                and candidate.count == action.count
                and self.apply(candidate).cells == after.cells
            ):
                return candidate
        raise AssertionError(f"{action} is legal but not listed")  # pragma: no cover

    # ------------------------------------------------------------------ JSON
    def to_json(self, full: bool = False) -> dict[str, Any]:
        """The position (``full``: with the positions since the last removal, so that
        :meth:`from_json` resumes exactly, repetitions included)."""
        out: dict[str, Any] = {
            "game": "swytch",
            "position": to_fen(self.board, self.to_move),
            "board": self.board.to_json(),
            "to_move": self.to_move,
            "quiet": self.quiet,
            "winner": self.winner,
            "draw": None if self.draw is None else self.draw.value,
        }
        if full:
            names = _geometry(self.ranks)[0]
            out["history"] = [
                to_fen(Board(self.ranks, tuple((names[i], s) for i, s in enumerate(c) if s)), m)
                for m, c in self.history
            ]
        return out

    @classmethod
    def from_json(cls, obj: Any) -> State:
        """Reads :meth:`to_json`'s object: ``position`` (or ``board`` and ``to_move``),
        ``quiet`` and, if present, ``history``. Raises PositionError naming the key."""
        if not isinstance(obj, dict):
            raise PositionError(f"a Swytch state must be an object, got {obj!r}")
        try:
            if "position" in obj:
                board, to_move = from_fen(obj["position"])
                if obj.get("to_move", to_move) != to_move:
                    raise PositionError(
                        f"'to_move' is {obj['to_move']!r}; 'position' says {to_move}"
                    )
            else:
                board = Board.from_json(obj.get("board"))
                to_move = obj.get("to_move", SOUTH)
                if to_move not in (SOUTH, NORTH):
                    raise PositionError(f"'to_move' must be 0 or 1, got {to_move!r}")
        except BoardError as exc:
            key = "position" if "position" in obj else "board"
            raise PositionError(f"{key!r}: {exc}") from None
        quiet = obj.get("quiet", 0)
        if type(quiet) is not int or not 0 <= quiet <= QUIET_LIMIT:
            raise PositionError(f"'quiet' must be 0-{QUIET_LIMIT}, got {quiet!r}")
        history_text = obj.get("history", [])
        if not isinstance(history_text, list) or len(history_text) > quiet:
            raise PositionError(f"'history' must be a list of at most 'quiet' ({quiet}) positions")
        history = []
        _, index, _ = _geometry(board.ranks)
        for n, text in enumerate(history_text):
            try:
                past, mover = from_fen(text)
            except BoardError as exc:
                raise PositionError(f"'history'[{n}]: {exc}") from None
            if past.ranks != board.ranks:
                raise PositionError(f"'history'[{n}]: {past.ranks} ranks, not {board.ranks}")
            cells: list[Stack | None] = [None] * (FILES * board.ranks)
            for cell, stack in past.stacks:
                cells[index[cell]] = stack
            if mover != (to_move + len(history_text) - n) % 2:
                raise PositionError(f"'history'[{n}]: the players to move must alternate")
            history.append((mover, tuple(cells)))
        state = cls.from_board(board, to_move, quiet, history)
        for key, value in (("winner", state.winner), ("draw", state.draw)):
            if key in obj and obj[key] != value:
                raise PositionError(f"{key!r} is {obj[key]!r} but the position gives {value!r}")
        return state


def shape_straight(shape: Shape, top: Counter) -> bool:
    """Whether a group of this shape and top must move in a straight line."""
    return shape is _ROUND or not top.angled


def _name(cell: Any) -> str:
    return cell.name if isinstance(cell, Cell) else short_repr(cell)


def _cell_name(ranks: int, i: int) -> str:
    return _geometry(ranks)[0][i].name


def _aimed_path(
    cells: Cells,
    neighbours: tuple[tuple[int, ...], ...],
    dirs: tuple[int, ...],
    origin: int,
    goal: int,
    avoid: int,
    last: int,
    steps: int,
    distance: dict[int, int],
) -> tuple[int, ...] | None:
    """A path of exactly ``steps`` steps from ``origin`` to ``goal`` through empty cells,
    never entering a cell twice, ``origin`` or ``avoid``, that with a final step in
    direction ``last`` is bent; or None. ``distance``: walk distances to ``goal``."""
    path: list[int] = []
    on_path = {origin, avoid}

    def extend(here: int, left: int, ways: frozenset[int]) -> bool:
        if left == 0:
            return here == goal and len(ways | {last}) > 1
        for d in dirs:
            j = neighbours[here][d]
            if j < 0 or j in on_path or cells[j] is not None or distance.get(j, steps + 1) >= left:
                continue
            on_path.add(j)
            path.append(j)
            if extend(j, left - 1, ways | {d}):
                return True
            path.pop()
            on_path.discard(j)
        return False

    return tuple(path) if extend(origin, steps, frozenset()) else None
