"""Choosing a Swytch action with three buttons: a pure state machine over the legal actions.

A move is chosen as stack → option → destination: the stack's options are its counts
("move 2") and, for a hex stack, "prepare" and "swytch" (chosen at once); a count's
destinations are every legal move with that count, several at one cell told apart by
a label (a straight or bent path, a jump, where a lost attack falls back). The picker
reads only ``legal_actions()`` and ``outcome()`` of the position: it never judges a
rule, so whatever it yields is one of the listed actions.

>>> from firmware.games.swytch.state import State
>>> p = Picker.new(State.new(), seat=0)
>>> p.cursor.name, p.step(Step.CHOOSE).stage.value
('a2', 'option')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from itertools import pairwise
from math import atan2, hypot
from typing import Protocol

from .actions import Action, Move, Prepare, SwytchAction
from .board import Board, Cell, Direction
from .geometry import raised, reading_order, seen_from
from .state import Outcome


class Position(Protocol):
    """What the picker reads of a position (:class:`firmware.games.swytch.state.State`)."""

    @property
    def board(self) -> Board: ...

    def legal_actions(self) -> list[Action]: ...

    def outcome(self, move: Move) -> StrEnum: ...


class Stage(StrEnum):
    STACK = "stack"  #: CHIP / NO step through the own stacks that can act
    OPTION = "option"  #: a count, prepare or swytch of the chosen stack
    DESTINATION = "destination"  #: where the chosen count goes, and what happens there


class Step(StrEnum):
    """What a button does to the picker (the controls table maps buttons to steps)."""

    NEXT = "next"  #: the next stack / option / destination
    CHOOSE = "choose"  #: take it (the last choice yields the action)
    BACK = "back"  #: the choice before (at the first: the stack before)
    RANK = "rank"  #: the first stack of the next rank away (the stacks only)
    HINT = "hint"  #: ask for the bot's hint (the unit answers with :meth:`Picker.hinted`)


@dataclass(frozen=True, slots=True)
class Target:
    """One destination of a count: the move, what happens there and (when several
    moves end at the same cell) what tells it apart."""

    move: Move
    outcome: str
    label: str = ""


@dataclass(frozen=True, slots=True)
class Option:
    """One option of a stack: a count with its targets, or an action taken at once."""

    label: str
    targets: tuple[Target, ...] = ()
    action: Prepare | SwytchAction | None = None


@dataclass(frozen=True, slots=True)
class Choices:
    """The legal actions of a position arranged for the picker: its stacks at once, a
    stack's options (with every destination's outcome) when first asked for, then kept
    (a new picker, after every move, costs no look at moves nobody browses)."""

    stacks: tuple[Cell, ...]
    rows: tuple[int, ...]  #: per stack: its rank counted from the seat's side
    position: Position = field(hash=False, repr=False)
    seat: int = 0
    #: per stack cell: its legal actions
    actions: Mapping[Cell, tuple[Action, ...]] = field(
        default_factory=dict, compare=False, hash=False, repr=False
    )
    _options: dict[int, tuple[Option, ...]] = field(
        default_factory=dict, compare=False, hash=False, repr=False
    )

    @classmethod
    def of(cls, position: Position, seat: int) -> Choices:
        board = position.board
        by_cell: dict[Cell, list[Action]] = {}
        for action in position.legal_actions():
            cell = action.origin if isinstance(action, Move) else action.cell
            by_cell.setdefault(cell, []).append(action)
        stacks = tuple(reading_order(by_cell, seat, board.ranks))
        rows = tuple(seen_from(c, seat, board.ranks)[1] for c in stacks)
        actions = {cell: tuple(found) for cell, found in by_cell.items()}
        return cls(stacks, rows, position, seat, actions)

    def options_at(self, stack: int) -> tuple[Option, ...]:
        """The options of the stack at index ``stack`` (worked out once)."""
        found = self._options.get(stack)
        if found is None:
            cell = self.stacks[stack]
            found = self._options[stack] = _options(
                self.position, list(self.actions[cell]), self.seat
            )
        return found

    @property
    def options(self) -> tuple[tuple[Option, ...], ...]:
        """Every stack's options."""
        return tuple(self.options_at(i) for i in range(len(self.stacks)))


def _options(position: Position, actions: list[Action], seat: int) -> tuple[Option, ...]:
    moves: dict[int, list[Move]] = {}
    direct: list[Prepare | SwytchAction] = []
    for action in actions:
        if isinstance(action, Move):
            moves.setdefault(action.count, []).append(action)
        else:
            direct.append(action)
    # the whole stack first: most moves take all of it (a 1-stack has nothing else)
    out = [
        Option(f"move {k}", _targets(position, moves[k], seat)) for k in sorted(moves, reverse=True)
    ]
    out += [
        Option("prepare" if isinstance(a, Prepare) else "swytch", action=a)
        for a in sorted(direct, key=lambda a: isinstance(a, SwytchAction))
    ]
    return tuple(out)


def _targets(position: Position, moves: list[Move], seat: int) -> tuple[Target, ...]:
    board = position.board
    by_end: dict[Cell, list[Move]] = {}
    for move in moves:
        by_end.setdefault(move.destination, []).append(move)
    out = []
    for end in _useful_first(by_end, moves[0].origin, seat, board.ranks, position):
        group = by_end[end]
        labels = [_path_kind(board, m) for m in group] if len(group) > 1 else [""]
        if len(set(labels)) < len(labels):  # e.g. two bent paths: where a lost attack stops
            labels = [f"{k} via {(m.path[-2] if len(m.path) > 1 else m.origin).name}"
                      for k, m in zip(labels, group, strict=True)]  # fmt: skip
        out += [
            Target(m, str(position.outcome(m)), label)
            for m, label in sorted(zip(group, labels, strict=True), key=lambda t: len(t[0].path))
        ]
    return tuple(out)


def _useful_first(
    ends: dict[Cell, list[Move]], origin: Cell, seat: int, ranks: int, position: Position
) -> list[Cell]:
    """The destinations most worth offering first: won attacks, then straight ahead of
    the seat and fanning out (the nearer first at one angle)."""
    ox, oy = _seen(origin, seat, ranks)

    def key(end: Cell) -> tuple[bool, float, float]:
        x, y = _seen(end, seat, ranks)
        won = any(position.outcome(m) == Outcome.ATTACK_WON for m in ends[end])
        return not won, abs(atan2(x - ox, y - oy)), hypot(x - ox, y - oy)

    return sorted(reading_order(ends, seat, ranks), key=key)


def _seen(cell: Cell, seat: int, ranks: int) -> tuple[float, float]:
    """``cell``'s centre as ``seat`` sees it, in cell units (raised cells half higher)."""
    x, y = seen_from(cell, seat, ranks)
    return x * 0.866, y + (0.5 if raised(cell, seat) else 0.0)


def _path_kind(board: Board, move: Move) -> str:
    """ "jump" (passes an own stack), "straight" or "bent" (read off the path's cells)."""
    if any(board.at(c) is not None for c in move.path[:-1]):
        return "jump"
    cells = (move.origin, *move.path)
    steps = {
        next((d for d in Direction if a.step(d, board.ranks) == b), None)
        for a, b in pairwise(cells)
    }
    return "straight" if len(steps) == 1 else "bent"


@dataclass(frozen=True, slots=True)
class Picker:
    """Where a seat is in choosing its action. ``chosen`` is set once it has chosen;
    ``hint_requested`` once it held CHIP (the unit answers with :meth:`hinted`)."""

    choices: Choices
    stage: Stage = Stage.STACK
    stack: int = 0
    option: int = 0
    target: int = 0
    chosen: Action | None = None
    hint_requested: bool = False
    hinted_now: bool = False  #: it shows the bot's hint (until the next step)

    @classmethod
    def new(cls, position: Position, seat: int, near: Cell | None = None) -> Picker:
        """The picker for ``seat`` on turn in ``position``, its cursor on the stack at
        ``near`` when that stack can act (e.g. the one moved last), else the first."""
        choices = Choices.of(position, seat)
        if not choices.stacks:
            raise ValueError("no legal action to pick (the game is over)")
        stack = choices.stacks.index(near) if near in choices.stacks else 0
        return cls(choices, stack=stack)

    # ----------------------------------------------------------- what it shows
    @property
    def cursor(self) -> Cell:
        """The highlighted cell: the stack, or the highlighted destination."""
        if self.stage is Stage.DESTINATION:
            return self.current_target.move.destination
        return self.origin

    @property
    def origin(self) -> Cell:
        return self.choices.stacks[self.stack]

    @property
    def options(self) -> tuple[Option, ...]:
        return self.choices.options_at(self.stack)

    @property
    def current_option(self) -> Option:
        return self.options[self.option]

    @property
    def current_target(self) -> Target:
        return self.current_option.targets[self.target]

    # ------------------------------------------------------------ the buttons
    def step(self, step: Step) -> Picker:
        """The picker after ``step`` (itself once it has chosen)."""
        if self.chosen is not None:
            return self
        p = replace(self, hinted_now=False) if self.hinted_now else self  # the hint is left
        if step is Step.NEXT:
            return p._next()
        if step is Step.CHOOSE:  # the player chose: a hint not come yet is not wanted
            return replace(p, hint_requested=False)._choose()
        if step is Step.HINT:
            return replace(p, hint_requested=True)
        if step is Step.RANK:
            return p._rank()
        return p._back()

    def _next(self) -> Picker:
        if self.stage is Stage.STACK:
            return replace(self, stack=(self.stack + 1) % len(self.choices.stacks), option=0)
        if self.stage is Stage.OPTION:
            return replace(self, option=(self.option + 1) % len(self.options))
        return replace(self, target=(self.target + 1) % len(self.current_option.targets))

    def _rank(self) -> Picker:
        """The first stack of the next rank away from the seat (after the furthest:
        the nearest); only while choosing the stack."""
        if self.stage is not Stage.STACK:
            return self
        rows = self.choices.rows
        later = next((i for i, r in enumerate(rows) if r > rows[self.stack]), 0)
        return replace(self, stack=later, option=0)

    def _choose(self) -> Picker:
        if self.stage is Stage.STACK:
            if len(self.options) == 1 and self.options[0].targets:  # one count: go on
                return replace(self, stage=Stage.DESTINATION, option=0, target=0)
            return replace(self, stage=Stage.OPTION, option=0)
        if self.stage is Stage.OPTION:
            opt = self.current_option
            if opt.action is not None:
                return replace(self, chosen=opt.action)
            return replace(self, stage=Stage.DESTINATION, target=0)
        return replace(self, chosen=self.current_target.move)

    def _back(self) -> Picker:
        if self.stage is Stage.STACK:
            return replace(self, stack=(self.stack - 1) % len(self.choices.stacks))
        if self.stage is Stage.DESTINATION and len(self.options) > 1:
            return replace(self, stage=Stage.OPTION, target=0)
        return replace(self, stage=Stage.STACK, option=0, target=0, hint_requested=False)

    # -------------------------------------------------------------- the hint
    def hinted(self, action: Action) -> Picker:
        """The picker showing ``action`` (the bot's hint) ready to be taken with YES;
        unchanged if ``action`` is not one of its choices."""
        for i, options in enumerate(self.choices.options):
            for j, opt in enumerate(options):
                if opt.action == action:
                    return replace(self, stage=Stage.OPTION, stack=i, option=j, target=0,
                                   hint_requested=False, hinted_now=True)  # fmt: skip
                for k, t in enumerate(opt.targets):
                    if t.move == action:
                        return replace(self, stage=Stage.DESTINATION, stack=i, option=j,
                                       target=k, hint_requested=False,
                                       hinted_now=True)  # fmt: skip
        return replace(self, hint_requested=False)
