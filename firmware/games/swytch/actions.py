"""Swytch actions: the three kinds of turn (docs/SWYTCH.md "A turn").

Small frozen values; :mod:`.notation` writes and reads them as text.
"""

from __future__ import annotations

from dataclasses import dataclass

from .board import Cell


@dataclass(frozen=True, slots=True)
class Prepare:
    """Flip the normal top counter of an own hex stack to its angled side."""

    cell: Cell


@dataclass(frozen=True, slots=True)
class SwytchAction:
    """Turn every counter of an own hex stack to the other orientation (a "swytch")."""

    cell: Cell


@dataclass(frozen=True, slots=True)
class Move:
    """Move the top ``count`` counters of the stack at ``origin`` along ``path`` (the cells
    entered, in order; the last is where they land, stack or attack)."""

    origin: Cell
    count: int
    path: tuple[Cell, ...]

    @property
    def destination(self) -> Cell:
        return self.path[-1]


Action = Prepare | SwytchAction | Move
