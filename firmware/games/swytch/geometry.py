"""The board as a seat sees it: South sees it as set up, North turned by 180°.

The one place that decides the orientation of a seat's view: its screens draw with it
and its picker steps through stacks in its reading order (near rank first, then left
to right), so CHIP moves the cursor the way the picture reads.

>>> from firmware.games.swytch.board import Cell
>>> seen_from(Cell(0, 0), NORTH, 9), seen_from(Cell(0, 0), SOUTH, 9)
((7, 8), (0, 0))
"""

from __future__ import annotations

from collections.abc import Iterable

from .board import FILES, NORTH, SOUTH, Cell

__all__ = ["NORTH", "SOUTH", "reading_order", "seen_from"]


def seen_from(cell: Cell, seat: int, ranks: int) -> tuple[int, int]:
    """``cell`` as (column from the left, row from the near edge) for ``seat``; an
    onlooker (any seat but North) sees it as South does."""
    if seat == NORTH:
        return FILES - 1 - cell.c, ranks - 1 - cell.r
    return cell.c, cell.r


def raised(cell: Cell, seat: int) -> bool:
    """Whether ``cell`` sits half a cell further away than its row (odd files sit half
    a cell higher; turned by 180° they sit half a cell lower, so even files rise)."""
    return (cell.c % 2 == 1) != (seat == NORTH)


def reading_order(cells: Iterable[Cell], seat: int, ranks: int) -> list[Cell]:
    """``cells`` nearest rank first, each rank left to right (its raised cells half a
    cell further away in between, as the picture zigzags)."""

    def key(cell: Cell) -> tuple[int, int]:
        x, y = seen_from(cell, seat, ranks)
        return y, x

    return sorted(cells, key=key)
