"""A Swytch position as one line of text, like chess's FEN (docs/SWYTCH.md "Position text").

Ranks from the last (North's back rank) down to 1, separated by ``/``; in each rank
the files ``a``-``h`` as comma-separated tokens: a number is that many empty cells, a
stack is its owner (``S`` South, ``N`` North) and its counters bottom first: ``o`` a
round counter, ``u``/``d`` a hex counter pointing up/down on its normal side, ``U``/``D``
on its angled side. Then a space and the side to move (``S`` or ``N``).

>>> text = to_fen(Board.setup(8), 0)
>>> text.split("/")[-1]
'Suu,So,So,So,So,So,So,Suu S'
>>> board, to_move = from_fen(text)
>>> board == Board.setup(8), to_move
(True, 0)
"""

from __future__ import annotations

from .board import (
    FILES,
    MAX_RANKS,
    MIN_RANKS,
    ROUND,
    Board,
    BoardError,
    Cell,
    Counter,
    Shape,
    Stack,
)

_OWNERS = "SN"
_LETTERS = {Counter(True, False): "u", Counter(False, False): "d"}
_LETTERS |= {Counter(True, True): "U", Counter(False, True): "D"}
_COUNTERS = {letter: counter for counter, letter in _LETTERS.items()}


def stack_text(stack: Stack) -> str:
    """``Suu``, ``No``…: one stack's token."""
    if stack.shape is Shape.ROUND:
        return _OWNERS[stack.owner] + "o" * stack.height
    return _OWNERS[stack.owner] + "".join(_LETTERS[k] for k in stack.counters)


def to_fen(board: Board, to_move: int) -> str:
    grid = dict(board.stacks)
    rows = []
    for r in range(board.ranks - 1, -1, -1):
        tokens: list[str] = []
        empty = 0
        for c in range(FILES):
            stack = grid.get(Cell(c, r))
            if stack is None:
                empty += 1
                continue
            if empty:
                tokens.append(str(empty))
                empty = 0
            tokens.append(stack_text(stack))
        if empty:
            tokens.append(str(empty))
        rows.append(",".join(tokens))
    return "/".join(rows) + " " + _OWNERS[to_move]


def parse_stack(token: str, where: str = "stack") -> Stack:
    """A stack token (``Suu``, ``No``…); raises BoardError naming ``where`` and the token."""
    owner = _OWNERS.find(token[0])
    body = token[1:]
    if owner < 0 or not body:
        raise BoardError(f"{where}: {token!r} is not a stack (S or N, then its counters)")
    if set(body) == {"o"}:
        return Stack(owner, Shape.ROUND, (ROUND,) * len(body))
    bad = next((ch for ch in body if ch not in _COUNTERS), None)
    if bad is not None:
        raise BoardError(f"{where}: {bad!r} in {token!r} is not a counter (o, u, d, U, D)")
    return Stack(owner, Shape.HEX, tuple(_COUNTERS[ch] for ch in body))


def from_fen(text: str) -> tuple[Board, int]:
    """(board, side to move); raises BoardError naming the rank and token."""
    if not isinstance(text, str) or text.count(" ") != 1:
        raise BoardError(f"{text!r} is not a position (ranks, a space, S or N)")
    rows_text, side = text.split(" ")
    if side not in ("S", "N"):
        raise BoardError(f"side to move must be S or N, got {side!r}")
    rows = rows_text.split("/")
    ranks = len(rows)
    if not MIN_RANKS <= ranks <= MAX_RANKS:
        raise BoardError(f"a position has {MIN_RANKS}-{MAX_RANKS} ranks, got {ranks}")
    stacks: dict[Cell, Stack] = {}
    for n, row in enumerate(rows):
        r = ranks - 1 - n
        c = 0
        for token in row.split(","):
            where = f"rank {r + 1}"
            if token.isdigit():
                c += int(token)
                continue
            if c >= FILES:
                raise BoardError(f"{where}: more than {FILES} files at {token!r}")
            stacks[Cell(c, r)] = parse_stack(token, where)
            c += 1
        if c != FILES:
            raise BoardError(f"rank {r + 1}: {c} files, expected {FILES}")
    return Board.of(ranks, stacks), _OWNERS.index(side)
