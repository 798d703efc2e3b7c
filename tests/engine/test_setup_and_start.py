"""docs/RULES.md "Pieces and words", "Who starts" and "Presets"."""

from __future__ import annotations

import random

import pytest

from firmware.games.switch16.engine import (
    COLOURS,
    PRESETS,
    Face,
    Phase,
    RulesError,
    State,
    make_rules,
)
from firmware.games.switch16.engine.actions import SWITCH_DIE
from firmware.kernel.rolloff import roll_off, roll_off_leaders

from .helpers import decks, tops


# ----------------------------------------------------------------- seats and decks
@pytest.mark.parametrize("players", [2, 3, 4])
def test_seats_decks_colours_at_start(players):
    s = State.new(players, 0)
    assert s.players == players
    assert decks(s) == ["red", "blue", "green", "yellow"][:players]
    assert tops(s) == [1] * players
    j = s.to_json()
    assert j == {
        "seats": [{"deck": c, "discarded": 0} for c in COLOURS[:players]],
        "chip": "table",
        "turn": 0,
        "phase": "roll",
        "winner": None,
    }


@pytest.mark.parametrize("players", [0, 1, 5, "2", 2.0, True])
def test_players_out_of_range_rejected(players):
    with pytest.raises(ValueError):
        State.new(players, 0)


@pytest.mark.parametrize(("players", "first"), [(2, 2), (3, -1), (4, 4), (2, None)])
def test_first_seat_must_be_a_seat(players, first):
    with pytest.raises(ValueError):
        State.new(players, first)


@pytest.mark.parametrize("first", [0, 1, 2])
def test_first_seat_rolls_first(first):
    s = State.new(3, first)
    assert s.turn == first
    assert s.phase is Phase.ROLL
    assert s.is_chance
    assert s.legal_actions() == []  # nothing but the roll (a chance outcome) is due


def test_switch_die_faces():
    assert sorted(SWITCH_DIE) == sorted(
        [Face.BLANK, Face.BLANK, Face.BLOCK, Face.BLOCK, Face.GREEN, Face.RED]
    )


# ----------------------------------------------------------------------- who starts
def test_roll_off_highest_starts():
    assert roll_off_leaders({0: 3, 1: 6, 2: 5}) == (1,)


def test_roll_off_tied_highest_roll_again():
    assert roll_off_leaders({0: 6, 1: 2, 2: 6, 3: 6}) == (0, 2, 3)


def test_roll_off_lower_ties_do_not_matter():
    assert roll_off_leaders({0: 2, 1: 2, 2: 5}) == (2,)


@pytest.mark.parametrize("bad", [{}, {0: 0, 1: 3}, {0: 7, 1: 3}, {0: 3.0, 1: 2}])
def test_roll_off_rejects_bad_rolls(bad):
    with pytest.raises(ValueError):
        roll_off_leaders(bad)


class _ScriptedRng(random.Random):
    def __init__(self, values):
        super().__init__(0)
        self.values = list(values)
        self.calls = 0

    def randint(self, a, b):
        self.calls += 1
        return self.values.pop(0)


def test_roll_off_ties_reroll_only_among_tied_seats():
    # seats 0..3 roll 5, 6, 6, 1 -> seats 1 and 2 roll again: 2, 4 -> seat 2 starts
    rng = _ScriptedRng([5, 6, 6, 1, 2, 4])
    first, rounds = roll_off(rng, range(4))
    assert first == 2
    assert rounds == [{0: 5, 1: 6, 2: 6, 3: 1}, {1: 2, 2: 4}]
    assert rng.values == []


# -------------------------------------------------------------------------- presets
def test_preset_table():
    assert set(PRESETS) == {"pressman-2003", "playmonster-2022", "tablier"}
    p, m, t = (make_rules(n) for n in ("pressman-2003", "playmonster-2022", "tablier"))
    assert make_rules() == p
    assert (p.dice_from, p.penalty_low_max, p.block_take, p.refused_chip) == (
        "top",
        8,
        "choose",
        "keep",
    )
    assert (m.dice_from, m.penalty_low_max, m.block_take, m.refused_chip) == (
        "top",
        11,
        "must",
        "keep",
    )
    assert (t.dice_from, t.penalty_low_max, t.block_take, t.refused_chip) == (
        "discarded",
        8,
        "choose",
        "table",
    )
    assert not (p.points or m.points or t.points)


def test_option_overrides_single_preset_option():
    r = make_rules("tablier", {"refused_chip": "keep"})
    assert r.refused_chip == "keep"
    assert r.dice_from == "discarded"
    assert r.options() == {"refused_chip": "keep"}


def test_unknown_preset_is_named():
    with pytest.raises(RulesError, match="bogus"):
        make_rules("bogus")


def test_unknown_option_key_is_named():
    with pytest.raises(RulesError, match="colour_blind"):
        make_rules("pressman-2003", {"colour_blind": True})


@pytest.mark.parametrize(
    ("key", "value"),
    [("refused_chip", "burn"), ("points", 1), ("block_take", True), ("dice_from", "bottom")],
)
def test_bad_option_value_is_named(key, value):
    with pytest.raises(RulesError, match=key):
        make_rules("pressman-2003", {key: value})
