"""docs/RULES.md "The chip": laying it, blocking between discards, exchanges."""

from __future__ import annotations

import pytest

from firmware.games.switch16.engine import (
    DISCARD,
    PASS,
    REFUSE,
    RISK,
    ChipError,
    Green,
    Phase,
    Place,
    Red,
    TargetError,
    WrongPhaseError,
)
from firmware.kernel.errors import GameOverError

from .helpers import (
    BLOCK,
    GREEN,
    RED,
    decks,
    dice_for,
    discard_all,
    play,
    position,
    roll,
    tops,
)


def test_holder_lays_chip_on_another_seats_deck():
    s = position(3, held_by=2, turn=0)
    assert s.legal_actions() == [Place(2, 0), Place(2, 1)]
    t = s.apply(Place(2, 1))
    assert t.to_json()["chip"] == {"on_deck": "blue"}
    assert t.blocked(1)
    assert t.chip_holder is None
    assert t.turn == 0 and t.phase is Phase.ROLL  # laying the chip is not a turn


def test_place_only_by_the_holder():
    s = position(3, held_by=2)
    with pytest.raises(ChipError):
        s.apply(Place(1, 0))
    for chip in ({}, {"on_deck": 1}):
        with pytest.raises(ChipError):
            position(3, **chip).apply(Place(2, 0))


def test_place_not_on_own_deck():
    with pytest.raises(TargetError):
        position(3, held_by=2).apply(Place(2, 2))


@pytest.mark.parametrize("place", [Place(2, 3), Place(2, -1), Place(4, 0), Place("2", 0)])
def test_place_needs_real_seats(place):
    with pytest.raises(TargetError):
        position(3, held_by=2).apply(place)


def test_place_lays_on_the_deck_the_seat_controls_now():
    s = position(3, control=[2, 0, 1], held_by=0)
    t = s.apply(Place(0, 1))
    assert t.to_json()["chip"] == {"on_deck": "red"}
    assert t.chip_on_seat == 1


def test_place_allowed_in_roll_discard_decide_green_red_phases():
    base = position(4, discarded=[9, 2, 5, 2], held_by=2)
    phases = {
        Phase.ROLL: base,
        Phase.DISCARD: base.apply(roll(4, 5, 1, 6)),
        Phase.DECIDE: discard_all(base.apply(roll(4, 5, 1, 6))),
        Phase.GREEN: base.apply(roll(1, 1, 1, 1, switch=GREEN)),
        Phase.RED: base.apply(roll(1, 1, 1, 1, switch=RED)),
    }
    for phase, s in phases.items():
        assert s.phase is phase
        assert Place(2, 1) in s.legal_actions()
        t = s.apply(Place(2, 1))
        assert t.blocked(1)


def test_place_not_allowed_in_green_refusal():
    s = play(position(3, held_by=1), roll(1, 2, 3, switch=GREEN), Green(1))
    assert s.phase is Phase.GREEN_REFUSAL
    assert not any(isinstance(a, Place) for a in s.legal_actions())
    with pytest.raises(WrongPhaseError):
        s.apply(Place(1, 2))


def test_place_not_allowed_when_over():
    s = discard_all(position(2, discarded=[14, 0], held_by=1).apply(roll(3, 4, 5, 6, 6)))
    assert s.phase is Phase.OVER
    assert s.legal_actions() == []
    with pytest.raises(GameOverError):
        s.apply(Place(1, 0))


def test_chip_laid_between_two_discards_stops_them_then_decide():
    s = position(2, held_by=1).apply(roll(1, 2, 4))
    s = play(s, DISCARD, DISCARD)
    assert tops(s)[0] == 3 and s.phase is Phase.DISCARD
    t = s.apply(Place(1, 0))
    assert t.phase is Phase.DECIDE
    assert tops(t)[0] == 3
    assert t.turn == 0
    assert t.legal_actions() == [PASS, RISK]
    assert t.apply(PASS).turn == 1


def test_chip_laid_between_discards_then_risk_roll_on_blocked_deck_is_penalty():
    s = play(position(2, held_by=1).apply(roll(1, 2, 4)), DISCARD, DISCARD, Place(1, 0))
    t = play(s, RISK, roll(3, 4, 5))
    assert tops(t) == [1, 1]
    assert t.turn == 1
    assert t.blocked(0)


def test_chip_laid_on_another_seat_during_discards_does_not_stop_them():
    s = position(3, held_by=1).apply(roll(1, 1, 1))
    t = s.apply(Place(1, 2))
    assert t.phase is Phase.DISCARD
    assert tops(discard_all(t))[0] == 4


def test_chip_laid_before_first_discard_of_first_roll_turn_over_no_penalty():
    s = position(2, discarded=[3, 0], held_by=1).apply(roll(4, 5, 6))
    assert s.phase is Phase.DISCARD
    t = s.apply(Place(1, 0))
    assert tops(t) == [4, 1]
    assert t.turn == 1 and t.phase is Phase.ROLL


@pytest.mark.parametrize(
    ("preset", "before", "after"),
    [
        ("pressman-2003", 5, 1),
        ("pressman-2003", 10, 9),
        ("playmonster-2022", 10, 1),
        ("playmonster-2022", 13, 9),
        ("tablier", 10, 9),
    ],
)
def test_chip_laid_before_first_discard_of_risk_roll_is_penalty(preset, before, after):
    s = position(2, preset, discarded=[before - 2, 0], held_by=1)
    s = discard_all(s.apply(roll(*dice_for(s.dice_count(), before - 1, before))))
    assert tops(s)[0] == before and s.phase is Phase.DECIDE
    s = play(s, RISK, roll(*dice_for(s.dice_count(), before, None)))
    assert s.phase is Phase.DISCARD
    t = s.apply(Place(1, 0))
    assert tops(t) == [after, 1]
    assert t.turn == 1 and t.phase is Phase.ROLL
    assert t.blocked(0)


def test_chip_on_a_deck_stays_on_it_across_exchanges():
    s = position(3, discarded=[9, 1, 4], on_deck=1)
    t = s.apply(roll(1, 1, 1, 1, switch=RED))  # lowest: seat 1 (blue, blocked)
    assert decks(t) == ["blue", "red", "green"]
    assert t.to_json()["chip"] == {"on_deck": "blue"}
    assert t.chip_on_seat == 0


def test_chip_in_hand_stays_in_hand_across_exchanges():
    s = position(3, discarded=[9, 1, 1], held_by=0)
    t = play(s, roll(1, 1, 1, 1, switch=RED), Red(2))
    assert decks(t) == ["green", "blue", "red"]
    assert t.chip_holder == 0
    u = play(t, roll(1, 1, 1, switch=GREEN), Green(0), REFUSE)  # seat 1 asks seat 0
    assert u.chip_holder == 0  # pressman: keep


def test_blocked_deck_stays_blocked_until_a_block_roll_takes_the_chip():
    s = position(2, on_deck=1)
    s = play(s, roll(6, 6, 6))  # seat 0 nothing, turn to seat 1
    s = play(s, roll(1, 2, 3))  # seat 1 blocked: nothing
    assert s.blocked(1) and tops(s) == [1, 1] and s.turn == 0
    s = play(s, roll(6, 6, 6), roll(1, 2, 3, switch=BLOCK))
    assert s.chip_holder == 1 and s.phase is Phase.DISCARD
