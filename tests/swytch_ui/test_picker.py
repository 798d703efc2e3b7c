"""The Swytch picker: every legal action is reachable with the three buttons, NO always
backs out, and nothing but a listed legal action ever comes out of it."""

from __future__ import annotations

import random
from collections import deque

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware.games.swytch.actions import Action, Move, Prepare, SwytchAction
from firmware.games.swytch.board import Board, Cell, Counter, Shape, Stack
from firmware.games.swytch.controls import CONTROLS, hold, press, row
from firmware.games.swytch.picker import Picker, Stage, Step
from firmware.games.swytch.state import State
from firmware.unit.controls import Part, does
from hal.events import Button

YES, NO, CHIP = Button.YES, Button.NO, Button.CHIP
P = Cell.parse


def explore(picker: Picker) -> tuple[set[Picker], list[Action]]:
    """Every picker state reachable by button presses, and every action chosen."""
    seen, chosen = {picker}, []
    todo = deque([picker])
    while todo:
        p = todo.popleft()
        for button in (YES, NO, CHIP):
            q = press(p, button)
            if q.chosen is not None:
                chosen.append(q.chosen)
            elif q not in seen:
                seen.add(q)
                todo.append(q)
    return seen, chosen


def random_state(seed: int, plies: int, ranks: int) -> State:
    rng = random.Random(seed)
    s = State.new(ranks, seed % 2)
    for _ in range(plies):
        if s.is_terminal():
            break
        s = s.apply(rng.choice(s.legal_actions()))
    return s


def check_position(s: State) -> None:
    seat = s.to_move
    legal = s.legal_actions()
    states, chosen = explore(Picker.new(s, seat))
    assert set(chosen) == set(legal)  # every legal action, and only those
    for a in chosen:
        s.apply(a)  # never raises
    for p in states:
        if p.stage is Stage.STACK:  # NO steps back a stack: CHIP undoes it
            assert press(press(p, NO), CHIP) == p
            continue
        back = p
        while back.stage is not Stage.STACK:
            back = press(back, NO)
            assert back.chosen is None
        assert back.origin == p.origin
        assert press(p, NO).stage is not p.stage  # one step back, never a commitment
    for p in states:  # a destination's several moves are told apart
        if p.stage is Stage.OPTION:
            targets = p.current_option.targets
            keys = [(t.move.destination, t.label) for t in targets]
            assert len(keys) == len(set(keys))


def test_from_the_set_up_every_action_is_reachable_and_nothing_else() -> None:
    check_position(State.new())
    check_position(State.new(11, 1))


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 80), st.integers(8, 11))
def test_from_random_positions_every_action_is_reachable(seed: int, plies: int, ranks: int) -> None:
    s = random_state(seed, plies, ranks)
    if not s.is_terminal():
        check_position(s)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 60))
def test_the_hint_shows_the_action_and_yes_takes_it(seed: int, plies: int) -> None:
    s = random_state(seed, plies, 9)
    if s.is_terminal():
        return
    p = hold(Picker.new(s, s.to_move), CHIP)
    assert p.hint_requested and p.chosen is None
    for action in s.legal_actions():
        shown = p.hinted(action)
        assert not shown.hint_requested
        assert press(shown, YES).chosen == action


def test_the_stack_options_are_counts_then_prepare_and_swytch() -> None:
    p = press(Picker.new(State.new(), 0, near=P("c2")), YES)
    assert p.stage is Stage.OPTION and p.origin == P("c2")
    assert [o.label for o in p.options] == ["move 2", "move 1", "prepare", "swytch"]
    p = press(press(press(p, CHIP), CHIP), YES)
    assert p.chosen == Prepare(P("c2"))
    p = press(press(press(Picker.new(State.new(), 0, near=P("c2")), YES), NO), NO)
    assert p.stage is Stage.STACK and p.chosen is None


def test_stacks_are_stepped_in_the_seat_s_reading_order() -> None:
    south = Picker.new(State.new(), 0).choices.stacks
    north = Picker.new(State.new(first=1), 1).choices.stacks
    assert [c.name for c in south[:3]] == ["a1", "b1", "c1"]
    assert [c.name for c in north[:3]] == ["h9", "g9", "f9"]  # North reads from its side
    assert south[8].name == "a2" and north[8].name == "h8"


def test_several_moves_to_one_cell_are_labelled() -> None:
    up_angled = Counter(True, True)
    board = Board.of(
        9,
        {
            P("d4"): Stack(0, Shape.HEX, (up_angled,) * 4),
            P("a9"): Stack(1, Shape.ROUND, (Counter(),)),
        },
    )
    s = State.from_board(board, 0)
    p = Picker.new(s, 0)
    assert p.origin == P("d4")
    labels: dict[Cell, set[str]] = {}
    (four,) = (o for o in p.options if o.label == "move 4")
    for t in four.targets:
        labels.setdefault(t.move.destination, set()).add(t.label)
    assert labels[P("d5")] == {"straight", "bent"}  # one step N (stays angled) or 4 bent


def test_outcome_is_shown_for_each_destination() -> None:
    board = Board.of(
        9,
        {
            P("c3"): Stack(0, Shape.HEX, (Counter(True),) * 2),
            P("c5"): Stack(1, Shape.HEX, (Counter(False),) * 3),
            P("c4"): Stack(0, Shape.HEX, (Counter(True),)),
        },
    )
    s = State.from_board(board, 0)
    p = press(Picker.new(s, 0, near=P("c3")), YES)
    assert p.current_option.label == "move 2"  # the whole stack first
    p = press(p, YES)  # move 2: onto c4, or jump c4 and attack c5
    outcomes = {t.move.destination.name: t.outcome for t in p.current_option.targets}
    assert outcomes["c5"] == "attack lost" and outcomes["c4"] == "stack"
    assert all(isinstance(t.move, Move) for t in p.current_option.targets)


def test_the_table_gives_every_stage_a_next_a_choose_and_a_back() -> None:
    for stage in Stage:
        keys = CONTROLS[stage, Part.TURN]
        assert {does(keys, b) for b in (YES, NO, CHIP)} == {Step.NEXT, Step.CHOOSE, Step.BACK}
    assert row(None) == CONTROLS[Stage.STACK, Part.OTHER]
    p = Picker.new(State.new(), 0)
    assert press(p, NO).origin == p.choices.stacks[-1]  # NO steps back, round the end
    assert isinstance(press(press(p, YES), YES).chosen, Move | SwytchAction | Prepare | None)


def test_a_finished_game_has_nothing_to_pick() -> None:
    over = State.from_board(Board.of(9, {P("d4"): Stack(0, Shape.HEX, (Counter(),))}), 1)
    with pytest.raises(ValueError, match="game is over"):
        Picker.new(over, 1)
