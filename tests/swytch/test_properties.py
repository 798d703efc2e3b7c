"""Properties of random legal Swytch games, and the legal list against a naive oracle."""

from __future__ import annotations

import gc
import random
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware.games.swytch.actions import Move
from firmware.games.swytch.board import Cell, Direction
from firmware.games.swytch.errors import IllegalMoveError
from firmware.games.swytch.notation import format_action, parse_action
from firmware.games.swytch.state import State

from .helpers import position


def random_game(seed: int, plies: int, ranks: int = 9) -> Iterator[State]:
    """The states of a random legal game from the set-up (at most ``plies`` actions)."""
    rng = random.Random(seed)
    state = State.new(ranks, first=seed & 1)
    yield state
    for _ in range(plies):
        if state.is_terminal():
            return
        state = state.apply(rng.choice(state.legal_actions()))
        yield state


def naive_paths(origin: Cell, count: int, ranks: int) -> Iterator[tuple[Cell, ...]]:
    """Every simple path of 1..count steps in any directions (most of them illegal)."""

    def extend(path: tuple[Cell, ...]) -> Iterator[tuple[Cell, ...]]:
        if path:
            yield path
        if len(path) == count:
            return
        here = path[-1] if path else origin
        for d in Direction:
            nxt = here.step(d, ranks)
            if nxt is not None and nxt != origin and nxt not in path:
                yield from extend((*path, nxt))

    return extend(())


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), plies=st.integers(0, 120))
def test_random_games_keep_their_invariants(seed: int, plies: int) -> None:
    before = None
    for state in random_game(seed, plies):
        assert State.from_json(state.to_json(full=True)) == state
        for action in state.legal_actions():
            assert parse_action(format_action(action)) == action
        if before is not None:
            for seat in (0, 1):
                assert state.counters(seat) <= before.counters(seat)
            assert state.to_move == 1 - before.to_move
        before = state
    assert before is not None


def check_every_outcome_once(state: State, most: int = 3) -> None:
    """For counts up to ``most``: every path the rules accept gives the outcome of exactly one
    listed move, and the listed moves' outcomes differ."""
    listed: dict[tuple[Cell, int], dict[object, Move]] = {}
    for action in state.legal_actions():
        if isinstance(action, Move) and action.count <= most:
            outcomes = listed.setdefault((action.origin, action.count), {})
            after = state.apply(action).cells
            assert after not in outcomes, f"{action} repeats {outcomes.get(after)}"
            outcomes[after] = action
    for cell, stack in state.board:
        if stack.owner != state.to_move:
            continue
        for count in range(1, min(stack.height, most) + 1):
            reached = set()
            for path in naive_paths(cell, count, state.ranks):
                try:
                    reached.add(state.apply(Move(cell, count, path)).cells)
                except IllegalMoveError:
                    continue
            assert reached == set(listed.get((cell, count), {}))


def test_every_action_of_random_games_applies_at_8_and_11_ranks() -> None:
    for ranks in (8, 11):
        for state in random_game(ranks, 60, ranks):
            for action in state.legal_actions():
                state.apply(action)


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32), plies=st.integers(0, 150))
def test_legal_moves_are_every_outcome_once(seed: int, plies: int) -> None:
    *_, state = random_game(seed, plies)
    if not state.is_terminal():
        check_every_outcome_once(state)


@pytest.mark.parametrize(
    "stacks",
    [
        {"d5": "SuuU", "e6": "Nddd", "d7": "Nd", "c5": "Su", "c4": "So"},
        {"d5": "SdD", "d4": "Nuu", "e5": "Noo", "c6": "Sd", "b6": "Sd"},
        {"e4": "SUuU", "e5": "Su", "f4": "Nu", "d3": "No", "e2": "Suuu"},
        {"c3": "Sooo", "c4": "So", "d3": "Nddd", "b2": "Nu"},
    ],
)
def test_hand_built_moves_are_every_outcome_once(stacks: dict[str, str]) -> None:
    check_every_outcome_once(position(stacks))


def test_straight_and_bent_failed_attacks_from_one_cell_are_one_action() -> None:
    # a 5-step bend reaches d5 and attacks d6 from there, as the straight d5-d6 does
    state = position({"d4": "SuuuuU", "d6": "Ndddddd"})
    check_every_outcome_once(state, most=5)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    height=st.integers(2, 8),
    up=st.booleans(),
    others=st.integers(0, 25),
)
def test_aimed_bent_path_search_finds_what_trying_every_path_finds(
    seed: int, height: int, up: bool, others: int
) -> None:
    """Tall angled stacks use the aimed search: same (last cell, cell before) pairs, each
    with a path of the same (shortest) length, as the search through every path."""
    from firmware.games.swytch.state import _POINTS, _geometry

    rng = random.Random(seed)
    origin = Cell(rng.randrange(8), rng.randrange(9))
    top = "u" if up else "d"
    stacks = {origin.name: "S" + top * (height - 1) + top.upper()}
    for _ in range(others):
        cell = Cell(rng.randrange(8), rng.randrange(9))
        if cell != origin:
            stacks[cell.name] = rng.choice(["No", "Su", "Nd", "So", "Nuu", "Sdd"])
    stacks.setdefault("h9" if origin.name != "h9" else "a1", "No")
    state = position(stacks)
    _, index, neighbours = _geometry(9)
    args = (index[origin], _POINTS[up], height, neighbours)
    every = state._bent_ends(*args)
    aimed = state._bent_ends_aimed(*args)
    assert {k: len(p) for k, p in aimed.items()} == {k: len(p) for k, p in every.items()}
    for (last, before), path in aimed.items():
        assert path[-2:] == (before, last) and len(set(path)) == len(path)


def test_a_tall_angled_stack_on_an_open_board() -> None:
    state = position({"d5": "S" + "u" * 14 + "U", "h9": "No"})
    moves = [a for a in state.legal_actions() if isinstance(a, Move)]
    assert len(moves) == 884
    for move in moves[::37]:
        assert state.apply(move).left[0] == 15


def test_the_moves_the_engine_keeps_stay_few_game_after_game() -> None:
    """A unit plays for months in one process: the engine's shared Move values (a cache)
    stay within about 1 MiB, however many games went before (issue 35: 1 << 17 of them,
    ~34 MB, were kept; the soak saw ~20 KiB more a game)."""

    def moves_alive() -> int:
        gc.collect()
        return sum(type(o) is Move for o in gc.get_objects())

    before = moves_alive()  # what other tests hold
    for seed in range(40):  # every board size, ~1,000 new moves a game
        for _ in random_game(seed, 2000, 8 + seed % 4):
            pass
    more = moves_alive() - before
    assert more <= 4096, f"{more} more Move values alive after 40 games"
