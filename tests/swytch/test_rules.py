"""Every rule of SWYTCH.md on hand-built positions (tokens: tests/swytch/helpers.py)."""

from __future__ import annotations

import pytest

from firmware.games.swytch.actions import Move
from firmware.games.swytch.board import Cell, Direction
from firmware.games.swytch.errors import GameOverError, IllegalMoveError
from firmware.games.swytch.notation import parse_action
from firmware.games.swytch.state import Draw, Outcome, State
from firmware.kernel.players import TERMINAL

from .helpers import destinations, play, position, stacks

# A North counter far away keeps a game going where only South's pieces matter.
NORTH_AWAY = {"h9": "No"}


def refused(state: State, text: str) -> str:
    with pytest.raises(IllegalMoveError) as info:
        state.apply(parse_action(text))
    return info.value.rule


# ------------------------------------------------------------------ directions
@pytest.mark.parametrize(
    ("cell", "expected"),
    [
        ("c3", {"N": "c4", "NE": "d3", "SE": "d2", "S": "c2", "SW": "b2", "NW": "b3"}),  # even
        ("d3", {"N": "d4", "NE": "e4", "SE": "e3", "S": "d2", "SW": "c3", "NW": "c4"}),  # odd
        ("a1", {"N": "a2", "NE": "b1"}),  # corner, even file
        ("h9", {"S": "h8", "SW": "g9"}),  # corner, odd file
        ("h1", {"N": "h2", "NW": "g2", "SW": "g1"}),  # odd file, bottom edge
        ("a9", {"S": "a8", "SE": "b8", "NE": "b9"}),  # even file, top edge
    ],
)
def test_directions_at_even_and_odd_files_and_edges(cell: str, expected: dict[str, str]) -> None:
    steps = {d.name: Cell.parse(cell).step(d, 9) for d in Direction}
    assert {d: c.name for d, c in steps.items() if c is not None} == expected
    # a round counter steps to exactly those cells
    away = {"e5": "No"} if cell != "e5" else NORTH_AWAY
    assert destinations(position({cell: "So", **away}), cell, 1) == set(expected.values())


def test_round_group_moves_straight_in_six_directions() -> None:
    state = position({"c3": "Sooo", **NORTH_AWAY})
    assert destinations(state, "c3", 2) == {
        "c4", "c5", "d3", "e4", "d2", "e2", "c2", "c1", "b2", "a2", "b3", "a4",
    }  # fmt: skip
    assert refused(state, "c3 2 c4-d4") == "straight"


def test_hex_normal_top_uses_its_three_directions_straight() -> None:
    up = position({"d5": "Suu", **NORTH_AWAY})
    assert destinations(up, "d5", 1) == {"d6", "e5", "c5"}
    assert destinations(up, "d5", 2) == {"d6", "d7", "e5", "f4", "c5", "b4"}
    down = position({"d5": "Sdd", **NORTH_AWAY})
    assert destinations(down, "d5", 1) == {"d4", "e6", "c6"}
    assert refused(up, "d5 2 d6-e6") == "straight"
    assert refused(up, "d5 1 d4") == "direction"
    assert refused(up, "d5 1 d7") == "direction"


def test_count_path_length_and_owner() -> None:
    state = position({"d5": "Suu", "f5": "Nd"})
    assert refused(state, "d5 3 d6") == "count"
    assert refused(state, "d5 1 d6-d7") == "path-length"
    assert refused(state, "e5 1 e6") == "own-stack"
    assert refused(state, "f5 1 f4") == "own-stack"


def test_top_counter_decides_how_the_stack_moves() -> None:
    # bottom counters point down, the top one up: the group moves up's way
    assert destinations(position({"d5": "Sddu", **NORTH_AWAY}), "d5", 1) == {"d6", "e5", "c5"}


# ----------------------------------------------------------------------- jumps
def test_jump_leaves_the_groups_bottom_counter() -> None:
    state = position({"c3": "Sddu", "c4": "Suu", **NORTH_AWAY})
    after = play(state, "c3 3 c4-c5")
    assert stacks(after) == {"c4": "Suud", "c5": "Sdu", **NORTH_AWAY}


def test_a_jump_after_an_empty_cell() -> None:
    state = position({"c3": "Sddu", "c5": "Su", **NORTH_AWAY})
    assert stacks(play(state, "c3 3 c4-c5-c6")) == {"c5": "Sud", "c6": "Sdu", **NORTH_AWAY}


def test_outcome_previews_each_kind() -> None:
    state = position({"c3": "Suuu", "c5": "Su", "d3": "Ndddd", "b2": "Nd"})
    kinds = {
        "c3 1 c4": Outcome.LAND,
        "c3 2 c4-c5": Outcome.STACK,
        "c3 3 d2": Outcome.LAND,
        "c3 3 b2": Outcome.ATTACK_WON,
    }
    for text, kind in kinds.items():
        assert state.outcome(parse_action(text)) is kind
    with pytest.raises(IllegalMoveError):
        state.outcome(parse_action("c3 1 d3"))  # NE is not an up direction


def test_paths_cannot_pass_opponents_or_the_other_shape() -> None:
    assert refused(position({"c3": "Suu", "c4": "Nd"}), "c3 2 c4-c5") == "blocked"
    assert refused(position({"c3": "Suu", "c4": "So", **NORTH_AWAY}), "c3 2 c4-c5") == "shape"
    assert refused(position({"c3": "Suu", "c4": "So", **NORTH_AWAY}), "c3 1 c4") == "shape"
    assert refused(position({"c3": "So", "c4": "Su", **NORTH_AWAY}), "c3 1 c4") == "shape"


def test_a_path_with_a_jump_must_be_straight() -> None:
    state = position({"c3": "SuuU", "c4": "Su", **NORTH_AWAY})
    assert refused(state, "c3 3 c4-d3") == "jump-straight"
    # without the stack at c4 the same path is a legal bend
    assert stacks(play(position({"c3": "SuuU", **NORTH_AWAY}), "c3 3 c4-d3"))["d3"] == "Suuu"


def test_a_path_never_revisits_or_reenters_the_start() -> None:
    # up directions N, SE, SW sum to nothing: three steps would come back to d5
    state = position({"d5": "SuuU", **NORTH_AWAY})
    assert refused(state, "d5 3 d6-e6-d5") == "no-revisit"


# --------------------------------------------------------------- angled bends
def test_bent_path_flips_the_top_back_straight_stays_angled() -> None:
    state = position({"d5": "SuU", **NORTH_AWAY})
    assert stacks(play(state, "d5 2 d6-e6")) == {"e6": "Suu", **NORTH_AWAY}
    state = position({"d5": "SuuU", **NORTH_AWAY})
    assert stacks(play(state, "d5 2 d6-e6")) == {"d5": "Su", "e6": "Suu", **NORTH_AWAY}
    assert stacks(play(state, "d5 2 d6-d7")) == {"d5": "Su", "d7": "SuU", **NORTH_AWAY}
    assert stacks(play(state, "d5 1 d6")) == {"d5": "Suu", "d6": "SU", **NORTH_AWAY}


def test_only_the_groups_top_flips_back() -> None:
    state = position({"d5": "SUU", **NORTH_AWAY})
    assert stacks(play(state, "d5 2 d6-e6")) == {"e6": "SUu", **NORTH_AWAY}


def test_bent_paths_to_one_cell_are_one_action() -> None:
    state = position({"d5": "SuU", **NORTH_AWAY})
    moves = [a for a in state.legal_actions() if isinstance(a, Move) and a.count == 2]
    to_e6 = [m for m in moves if m.destination.name == "e6"]
    assert len(to_e6) == 1  # d6-e6 and e5-e6 land the same way
    assert play(state, "d5 2 d6-e6") == play(state, "d5 2 e5-e6")
    assert state.canonical(parse_action("d5 2 e5-e6")) == to_e6[0]


def test_failed_attacks_from_different_cells_are_different_actions() -> None:
    state = position({"d5": "SuU", "e6": "Nddd"})
    to_e6 = [a for a in state.legal_actions() if isinstance(a, Move) and a.count == 2]
    assert {m.path for m in to_e6 if m.destination.name == "e6"} == {
        (Cell.parse("d6"), Cell.parse("e6")),
        (Cell.parse("e5"), Cell.parse("e6")),
    }


# ---------------------------------------------------------------------- attacks
def test_attack_won_removes_the_defender_and_swytches() -> None:
    state = position({"d5": "Suu", "d7": "Noo", "a9": "Nd"})
    assert state.outcome(parse_action("d5 2 d6-d7")) is Outcome.ATTACK_WON
    after = play(state, "d5 2 d6-d7")
    assert stacks(after) == {"d7": "Sdd", "a9": "Nd"}
    assert after.quiet == 0 and after.counters(1) == 1


def test_bent_attack_won_flips_back_then_swytches() -> None:
    state = position({"d5": "SuU", "e6": "Nd", "a9": "Nd"})
    assert stacks(play(state, "d5 2 d6-e6")) == {"e6": "Sdd", "a9": "Nd"}


def test_round_attack_does_not_swytch() -> None:
    state = position({"c3": "So", "c4": "Nd", "a9": "Nd"})
    assert stacks(play(state, "c3 1 c4")) == {"c4": "So", "a9": "Nd"}


def test_attack_lost_stops_back_on_the_start_stack_and_swytches_it() -> None:
    state = position({"c3": "Sddu", "c4": "Nddd"})
    assert state.outcome(parse_action("c3 2 c4")) is Outcome.ATTACK_LOST
    # defender loses 2, the group loses its top, the rest comes back: all of c3 turns
    assert stacks(play(state, "c3 2 c4")) == {"c3": "Suu", "c4": "Nd"}


def test_attack_lost_stops_back_on_a_jumped_stack() -> None:
    state = position({"c3": "Suuu", "c4": "Sd", "c5": "Nddd"})
    assert stacks(play(state, "c3 3 c4-c5")) == {"c4": "Sudd", "c5": "Nd"}


def test_attack_lost_on_a_bent_path_stops_on_the_cell_before() -> None:
    state = position({"d5": "SuuU", "e6": "Nuuuu"})
    assert stacks(play(state, "d5 3 d6-e6")) == {"d6": "Sdd", "e6": "Nu"}


def test_attack_lost_by_one_counter_leaves_nothing_to_swytch() -> None:
    state = position({"c3": "Sdu", "c4": "Ndd"})
    assert stacks(play(state, "c3 1 c4")) == {"c3": "Sd", "c4": "Nd"}


# ------------------------------------------------------------- prepare, swytch
def test_prepare_and_swytch() -> None:
    state = position({"c3": "Sdu", "c1": "So", **NORTH_AWAY})
    prepared = play(state, "prepare c3")
    assert stacks(prepared)["c3"] == "SdU"
    assert refused(position({"c3": "SdU", **NORTH_AWAY}), "prepare c3") == "prepare-normal"
    assert refused(state, "prepare c1") == "own-hex-stack"
    assert refused(state, "swytch c1") == "own-hex-stack"
    assert refused(state, "swytch h9") == "own-hex-stack"
    assert stacks(play(position({"c3": "SdU", **NORTH_AWAY}), "swytch c3"))["c3"] == "SuD"


# -------------------------------------------------------------------- the end
def test_eliminating_the_last_counter_wins() -> None:
    after = play(position({"d5": "Suu", "d7": "Nd"}), "d5 2 d6-d7")
    assert after.winner == 0 and after.current_player() == TERMINAL
    assert after.legal_actions() == []
    with pytest.raises(GameOverError):
        after.apply(parse_action("d7 1 d8"))


def test_losing_the_last_counter_in_ones_own_attack_loses() -> None:
    after = play(position({"c3": "Su", "c4": "Ndd"}), "c3 1 c4")
    assert after.winner == 1 and after.returns() == (-1, 1)


def test_threefold_repetition_counts_the_setup_as_first() -> None:
    state = State.new()
    cycle = ("swytch a1", "swytch a9", "swytch a1", "swytch a9")
    state = play(state, *cycle, *cycle[:3])
    assert state.draw is None
    state = play(state, cycle[3])
    assert state.draw is Draw.REPETITION and state.current_player() == TERMINAL


def test_repetition_compares_buried_counters_and_the_player_to_move() -> None:
    here = position({"c3": "Sdu", **NORTH_AWAY})
    buried = position({"c3": "Suu", **NORTH_AWAY})
    other_mover = position({"c3": "Sdu", **NORTH_AWAY}, to_move=1)  # the same board

    def with_history(*past: State) -> State:
        obj = here.to_json(full=True)
        obj["quiet"] = 2 * len(past)
        obj["history"] = [t.to_json()["position"] for p in past for t in (p, other_mover)]
        del obj["draw"]
        return State.from_json(obj)

    assert with_history(here, here).draw is Draw.REPETITION
    assert with_history(here, buried).draw is None
    assert with_history(buried, buried).draw is None  # here's board twice, North to move


def test_hundred_quiet_turns_draw() -> None:
    state = position({"c3": "Suu", "c6": "Nd"}, quiet=98)
    state = play(state, "swytch c3")
    assert state.draw is None and state.quiet == 99
    assert play(state, "c6 1 c5").draw is Draw.QUIET
    # a removal on the 100th turn resets the count instead
    state = position({"c3": "Suu", "c5": "Nd", "a9": "Nd"}, quiet=99)
    after = play(state, "c3 2 c4-c5")
    assert after.draw is None and after.quiet == 0


def test_a_cell_off_the_board_is_refused_naming_the_boards_ranks() -> None:
    """Issue 33: a round counter's step north off an 8-rank board was refused under
    'direction'; the rule is that the path stays on the board."""
    north = play(State.new(8), "a2 1 a3")  # North to move; c8 holds a round counter
    with pytest.raises(IllegalMoveError, match=r"c9 is off the board \(ranks 1-8\)") as info:
        north.apply(parse_action("c8 1 c9"))
    assert info.value.rule == "on-board"
    assert refused(State.new(9), "a0 1 a1") == "on-board"
    with pytest.raises(IllegalMoveError, match=r"a0 is off the board \(ranks 1-9\)"):
        State.new(9).apply(parse_action("prepare a0"))
    assert refused(State.new(9), "a1 2 a2-a10") == "on-board"
