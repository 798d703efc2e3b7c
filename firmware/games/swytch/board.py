"""The Swytch board: cells, directions, counters and stacks (docs/SWYTCH.md).

Pure values, no rules: the one definition the Swytch engine, its screens, its controls
and its bots share. Flat-top hexagonal cells in files ``a``-``h`` (index ``c``, a = 0)
and ranks ``1``-``ranks`` (index ``r``, 1 = 0); odd files sit half a cell higher.
South (seat 0) sits at rank 1, North (seat 1) at the last rank.

>>> board = Board.setup()
>>> board.at(Cell.parse("a1")).to_json()
{'owner': 0, 'shape': 'hex', 'counters': ['up', 'up']}
>>> Cell.parse("b1").step(Direction.NE, board.ranks).name, Cell.parse("a1").step(Direction.SW, 9)
('c2', None)
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any, NamedTuple

from firmware.jsonsafe import short_repr

FILES = 8
FILE_LETTERS = "abcdefgh"
DEFAULT_RANKS = 9
MIN_RANKS, MAX_RANKS = 8, 11
#: A cell's name: its file, then its rank in ASCII digits without a leading zero.
_CELL = re.compile(f"([{FILE_LETTERS}])(0|[1-9][0-9]?)")
SOUTH, NORTH = 0, 1
SIDE_NAMES = ("South", "North")


class BoardError(ValueError):
    """A cell name, a stack or a board object that does not describe a Swytch board."""


class Direction(Enum):
    """The six directions; ``value`` is the (file, rank) step at an even and an odd file."""

    N = ((0, 1), (0, 1))
    NE = ((1, 0), (1, 1))
    SE = ((1, -1), (1, 0))
    S = ((0, -1), (0, -1))
    SW = ((-1, -1), (-1, 0))
    NW = ((-1, 0), (-1, 1))

    @property
    def opposite(self) -> Direction:
        return _OPPOSITE[self]


_OPPOSITE = {
    Direction.N: Direction.S,
    Direction.S: Direction.N,
    Direction.NE: Direction.SW,
    Direction.SW: Direction.NE,
    Direction.SE: Direction.NW,
    Direction.NW: Direction.SE,
}

#: Where a hex counter's three indicators point, by orientation.
UP_DIRECTIONS = (Direction.N, Direction.SE, Direction.SW)
DOWN_DIRECTIONS = (Direction.S, Direction.NE, Direction.NW)


class Cell(NamedTuple):
    """A cell by file index ``c`` (a = 0) and rank index ``r`` (rank 1 = 0)."""

    c: int
    r: int

    @property
    def name(self) -> str:
        return f"{FILE_LETTERS[self.c]}{self.r + 1}"

    @classmethod
    def parse(cls, text: str, ranks: int | None = None) -> Cell:
        """``"c2"`` → Cell(2, 1): a file ``a``-``h`` and a rank in ASCII digits, as
        :attr:`name` writes it; raises BoardError naming the text. With ``ranks``, a
        rank off that board is an error too; without, ranks ``0``-``99`` are read (the
        rules say which are on the board)."""
        found = _CELL.fullmatch(text) if isinstance(text, str) else None
        if found is None:
            raise BoardError(f"{short_repr(text)} is not a cell (a file a-h and a rank, e.g. 'c2')")
        cell = cls(FILE_LETTERS.index(found[1]), int(found[2]) - 1)
        if ranks is not None and not 0 <= cell.r < ranks:
            raise BoardError(f"{text!r} is off the board (ranks 1-{ranks})")
        return cell

    def step(self, direction: Direction, ranks: int) -> Cell | None:
        """The neighbour in ``direction``, or None off the board."""
        dc, dr = direction.value[self.c & 1]
        c, r = self.c + dc, self.r + dr
        if 0 <= c < FILES and 0 <= r < ranks:
            return Cell(c, r)
        return None


class Shape(Enum):
    HEX = "hex"
    ROUND = "round"


@dataclass(frozen=True, slots=True)
class Counter:
    """One counter's faces: a hex counter points ``up`` (N, SE, SW) or down (S, NE, NW) and
    shows its normal or ``angled`` side; a round counter is always ``Counter()``."""

    up: bool = True
    angled: bool = False

    def directions(self) -> tuple[Direction, ...]:
        return UP_DIRECTIONS if self.up else DOWN_DIRECTIONS

    def turned(self) -> Counter:
        """The other orientation (a swytch)."""
        return replace(self, up=not self.up)


ROUND = Counter()


@dataclass(frozen=True, slots=True)
class Stack:
    """The counters on one cell, bottom first: one owner, one shape."""

    owner: int
    shape: Shape
    counters: tuple[Counter, ...]

    @property
    def height(self) -> int:
        return len(self.counters)

    @property
    def top(self) -> Counter:
        return self.counters[-1]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"owner": self.owner, "shape": self.shape.value}
        if self.shape is Shape.HEX:
            out["counters"] = [
                ("up" if k.up else "down") + ("-angled" if k.angled else "") for k in self.counters
            ]
        else:
            out["height"] = self.height
        return out

    @classmethod
    def from_json(cls, obj: Any, where: str = "stack") -> Stack:
        """Raises BoardError naming ``where`` and the key."""
        if not isinstance(obj, dict):
            raise BoardError(f"{where}: expected an object, got {obj!r}")
        owner = obj.get("owner")
        if owner not in (SOUTH, NORTH):
            raise BoardError(f"{where}: 'owner' must be 0 or 1, got {owner!r}")
        try:
            shape = Shape(obj.get("shape"))
        except ValueError:
            raise BoardError(
                f"{where}: 'shape' must be 'hex' or 'round', got {obj.get('shape')!r}"
            ) from None
        if shape is Shape.ROUND:
            height = obj.get("height")
            if not isinstance(height, int) or isinstance(height, bool) or height < 1:
                raise BoardError(f"{where}: 'height' must be a whole number ≥ 1, got {height!r}")
            return cls(owner, shape, (ROUND,) * height)
        faces = obj.get("counters")
        if not isinstance(faces, list) or not faces:
            raise BoardError(f"{where}: 'counters' must be a non-empty list")
        counters = []
        for i, face in enumerate(faces):
            if face not in _FACES:
                raise BoardError(
                    f"{where}: counters[{i}] must be one of {', '.join(_FACES)}; got {face!r}"
                )
            counters.append(_FACES[face])
        return cls(owner, shape, tuple(counters))


_FACES = {
    "up": Counter(True, False),
    "up-angled": Counter(True, True),
    "down": Counter(False, False),
    "down-angled": Counter(False, True),
}


@dataclass(frozen=True, slots=True)
class Board:
    """Every stack by cell (empty cells are absent); hashable, so repetitions can be counted."""

    ranks: int
    stacks: tuple[tuple[Cell, Stack], ...]  # sorted by cell
    #: The hash, worked out once (a board is hashed by every view drawn of it and every
    #: repetition counted); never pickled: str hashes differ from process to process.
    _hash: int | None = field(default=None, init=False, repr=False, compare=False)

    def __hash__(self) -> int:
        found = self._hash
        if found is None:
            found = hash((self.ranks, self.stacks))
            object.__setattr__(self, "_hash", found)
        return found

    def __reduce__(self) -> tuple[type[Board], tuple[int, tuple[tuple[Cell, Stack], ...]]]:
        return Board, (self.ranks, self.stacks)

    @classmethod
    def of(cls, ranks: int, stacks: Mapping[Cell, Stack]) -> Board:
        return cls(ranks, tuple(sorted(stacks.items())))

    @classmethod
    def setup(cls, ranks: int = DEFAULT_RANKS) -> Board:
        """The opening position (docs/SWYTCH.md "Set-up")."""
        if not MIN_RANKS <= ranks <= MAX_RANKS:
            raise BoardError(f"ranks must be {MIN_RANKS}-{MAX_RANKS}, got {ranks}")
        cells: dict[Cell, Stack] = {}
        for owner, back, front, up in ((SOUTH, 0, 1, True), (NORTH, ranks - 1, ranks - 2, False)):
            pair = Stack(owner, Shape.HEX, (Counter(up), Counter(up)))
            for c in range(FILES):
                cells[Cell(c, front)] = pair
                cells[Cell(c, back)] = (
                    pair if c in (0, FILES - 1) else Stack(owner, Shape.ROUND, (ROUND,))
                )
        return cls.of(ranks, cells)

    def cells(self) -> dict[Cell, Stack]:
        return dict(self.stacks)

    def at(self, cell: Cell) -> Stack | None:
        for where, stack in self.stacks:
            if where == cell:
                return stack
        return None

    def __iter__(self) -> Iterator[tuple[Cell, Stack]]:
        return iter(self.stacks)

    def counters(self, owner: int) -> int:
        """How many counters ``owner`` has on the board."""
        return sum(s.height for _, s in self.stacks if s.owner == owner)

    def to_json(self) -> dict[str, Any]:
        return {"ranks": self.ranks, "stacks": {c.name: s.to_json() for c, s in self.stacks}}

    @classmethod
    def from_json(cls, obj: Any) -> Board:
        """Raises BoardError naming the key."""
        if not isinstance(obj, dict):
            raise BoardError(f"board: expected an object, got {obj!r}")
        ranks = obj.get("ranks", DEFAULT_RANKS)
        if not isinstance(ranks, int) or not MIN_RANKS <= ranks <= MAX_RANKS:
            raise BoardError(f"board: 'ranks' must be {MIN_RANKS}-{MAX_RANKS}, got {ranks!r}")
        stacks = obj.get("stacks")
        if not isinstance(stacks, dict):
            raise BoardError("board: 'stacks' must be an object of cell → stack")
        return cls.of(
            ranks,
            {
                Cell.parse(name, ranks): Stack.from_json(s, f"stacks.{name}")
                for name, s in stacks.items()
            },
        )
