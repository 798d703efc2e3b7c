"""Hand-built Swytch positions for the rule tests."""

from __future__ import annotations

from firmware.games.swytch.board import Board, Cell
from firmware.games.swytch.fen import parse_stack, stack_text
from firmware.games.swytch.notation import parse_action
from firmware.games.swytch.state import State


def position(stacks: dict[str, str], to_move: int = 0, ranks: int = 9, quiet: int = 0) -> State:
    """A state with ``stacks`` (cell name → stack token, e.g. ``{"c3": "Suu"}``)."""
    board = Board.of(ranks, {Cell.parse(c, ranks): parse_stack(t) for c, t in stacks.items()})
    return State.from_board(board, to_move, quiet)


def stacks(state: State) -> dict[str, str]:
    """The board as cell name → stack token."""
    return {cell.name: stack_text(stack) for cell, stack in state.board}


def play(state: State, *moves: str) -> State:
    for text in moves:
        state = state.apply(parse_action(text))
    return state


def destinations(state: State, origin: str, count: int) -> set[str]:
    """Where the moves from ``origin`` with ``count`` counters end."""
    return {
        a.destination.name
        for a in state.legal_actions()
        if hasattr(a, "path") and a.origin.name == origin and a.count == count
    }
