"""Notation, position text and JSON: round trips, and errors that name the token or key."""

from __future__ import annotations

import pytest

from firmware.games.swytch.actions import Move, Prepare, SwytchAction
from firmware.games.swytch.board import Cell
from firmware.games.swytch.errors import NotationError, PositionError
from firmware.games.swytch.fen import from_fen, to_fen
from firmware.games.swytch.notation import format_action, parse_action
from firmware.games.swytch.state import State

from .helpers import play, position


def test_actions_round_trip_including_ranks_past_9() -> None:
    a10, a11 = Cell.parse("a10"), Cell.parse("a11")
    for action in (
        Prepare(Cell.parse("c2")),
        SwytchAction(Cell.parse("h9")),
        Move(Cell.parse("c2"), 2, (Cell.parse("c3"), Cell.parse("c4"))),
        Move(Cell.parse("a9"), 2, (a10, a11)),
    ):
        assert parse_action(format_action(action)) == action
    assert format_action(Move(Cell.parse("a9"), 2, (a10, a11))) == "a9 2 a10-a11"


@pytest.mark.parametrize(
    ("text", "token"),
    [
        ("c2 two c3", "'two'"),
        ("c2 0 c3", "'0'"),
        ("c2 2 c3-z4", "'z4'"),
        ("k2 1 c3", "'k2'"),
        ("prepare c", "'c'"),
        ("Swytch c2", "'Swytch'"),
        ("jump c2", "'jump c2'"),
        ("", "''"),
    ],
)
def test_parse_errors_name_the_token(text: str, token: str) -> None:
    with pytest.raises(NotationError, match=token):
        parse_action(text)


def test_position_text_round_trips() -> None:
    state = play(State.new(10), "prepare b2", "swytch a10")
    board, to_move = from_fen(state.to_json()["position"])
    assert board == state.board and to_move == state.to_move == 0
    assert to_fen(board, 1).endswith(" N")


@pytest.mark.parametrize(
    ("obj", "key"),
    [
        ({"position": "8/8 S"}, "'position'"),
        ({"position": "9,Suu/8/8/8/8/8/8/8/8 S"}, "rank 9"),
        ({"position": "Sx,7/8/8/8/8/8/8/8/8 S"}, "'x'"),
        ({"board": {"ranks": 9, "stacks": {"c3": {"owner": 2}}}}, "stacks.c3"),
        ({"board": {"ranks": 9, "stacks": {}}, "to_move": 3}, "'to_move'"),
        ({"position": "8/8/8/8/8/8/8/8/8 S", "quiet": -1}, "'quiet'"),
        ({"position": "8/8/8/8/8/8/8/8/8 S", "quiet": 1, "history": ["x"]}, r"'history'\[0\]"),
        ({"position": "8/8/8/8/8/8/8/8/Su,7 S", "winner": 1}, "'winner'"),
        (
            {"position": "8/8/8/8/8/8/8/8/Su,7 S", "quiet": 1, "history": ["8/8/8/8/8/8/8/8/8 S"]},
            "alternate",
        ),
        ({"position": "8/8/8/8/8/8/8/8/Su,No,6 S", "to_move": 1}, "'to_move'"),
        ([1], "object"),
    ],
)
def test_from_json_errors_name_the_key(obj: object, key: str) -> None:
    with pytest.raises(PositionError, match=key):
        State.from_json(obj)


def test_full_json_resumes_repetitions_exactly() -> None:
    cycle = ("swytch a1", "swytch a9", "swytch a1", "swytch a9")
    state = play(State.new(), *cycle, *cycle[:3])
    resumed = State.from_json(state.to_json(full=True))
    assert resumed == state
    assert play(resumed, cycle[3]).draw is not None
    assert play(State.from_json(state.to_json()), cycle[3]).draw is None  # not full: forgets


def test_finished_game_json_keeps_its_result() -> None:
    state = play(position({"d5": "Suu", "d7": "Nd"}), "d5 2 d6-d7")
    obj = state.to_json(full=True)
    assert obj["winner"] == 0 and State.from_json(obj).winner == 0


@pytest.mark.parametrize(
    ("text", "token"),
    [
        ("c2 1\tc3", "'c2 1\\\\tc3'"),  # a tab
        ("c2\u00a0 1 c3", "'c2\\\\xa0'"),  # a no-break space after a cell
        ("c02 1 c3", "'c02'"),  # a leading zero
        ("c\u0662 1 c3", "'c\u0662'"),  # an Arabic-Indic digit: str.isdigit() says yes
        ("a2 \u0662 a3-a4", "'\u0662'"),
        ("a2 02 a3-a4", "'02'"),
        ("a2  2 a3-a4", "one space"),
        (" prepare c2", "one space"),
        ("swytch c2 ", "one space"),
    ],
)
def test_only_the_ascii_notation_as_written_is_read(text: str, token: str) -> None:
    """Issue 35: these were read as the canonical action; the notation is one ASCII text
    per action, as format_action writes it."""
    with pytest.raises(NotationError, match=token):
        parse_action(text)


def test_a_cell_name_is_read_without_the_board_and_the_rules_name_its_ranks() -> None:
    """Issue 33: 'a0' was "off the board (ranks 1-11)" on a 9-rank board."""
    assert Cell.parse("a0") == Cell(0, -1) and Cell.parse("h99").name == "h99"
    for bad in ("a", "i2", "a-1", "a100", "A2", "a2 "):
        with pytest.raises(ValueError, match="not a cell"):
            Cell.parse(bad)
    with pytest.raises(ValueError, match=r"off the board \(ranks 1-9\)"):
        Cell.parse("a10", 9)
