"""docs/RULES.md "Evaluating the numbered dice": one-by-one discards, pass/risk, penalties."""

from __future__ import annotations

import pytest

from firmware.games.switch16.engine import DISCARD, PASS, RISK, Phase, Place, WrongPhaseError

from .helpers import BLOCK, dice_for, discard_all, play, position, roll, tops


def _risk_roll_failing(preset: str, top: int):
    """Seat 0 discards card ``top - 1`` (reaching ``top``), risks, and rolls nothing."""
    s = position(2, preset, discarded=[top - 2, 0])
    s = discard_all(s.apply(roll(*dice_for(s.dice_count(), top - 1, top))))
    assert tops(s)[0] == top
    assert s.phase is Phase.DECIDE
    s = s.apply(RISK)
    return s.apply(roll(*dice_for(s.dice_count(), None, top)))


# --------------------------------------------------------------- one card at a time
def test_roll_that_can_discard_waits_in_phase_discard():
    s = position(2).apply(roll(1, 2, 4))
    assert s.phase is Phase.DISCARD
    assert tops(s) == [1, 1]  # nothing gone before the first DISCARD
    assert s.legal_actions() == [DISCARD]


def test_each_discard_removes_exactly_one_card():
    s = position(2).apply(roll(1, 1, 1))
    s = s.apply(DISCARD)
    assert tops(s)[0] == 2 and s.phase is Phase.DISCARD
    s = s.apply(DISCARD)
    assert tops(s)[0] == 3 and s.phase is Phase.DISCARD
    s = s.apply(DISCARD)
    assert tops(s)[0] == 4 and s.phase is Phase.DECIDE


def test_discard_outside_phase_discard_is_wrong_phase():
    s = position(2)
    with pytest.raises(WrongPhaseError):
        s.apply(DISCARD)
    s = discard_all(s.apply(roll(1, 1, 1)))
    with pytest.raises(WrongPhaseError):
        s.apply(DISCARD)


def test_pass_ends_turn_and_keeps_discards():
    s = discard_all(position(3).apply(roll(1, 2, 4))).apply(PASS)
    assert tops(s) == [8, 1, 1]
    assert s.turn == 1 and s.phase is Phase.ROLL


def test_risk_rolls_again_same_seat():
    s = discard_all(position(3).apply(roll(1, 2, 4))).apply(RISK)
    assert s.turn == 0 and s.phase is Phase.ROLL
    assert tops(s) == [8, 1, 1]


def test_pass_and_risk_only_in_phase_decide():
    for s in (position(2), position(2).apply(roll(1, 2, 4))):
        for action in (PASS, RISK):
            with pytest.raises(WrongPhaseError):
                s.apply(action)


def test_risk_roll_that_discards_keeps_going():
    s = play(discard_all(position(2).apply(roll(1, 2, 4))), RISK, roll(2, 6, 1, 1))
    assert s.phase is Phase.DISCARD
    s = discard_all(s)
    assert tops(s)[0] == 11  # 8 (2+6), 9, 10 (2+6+1+1); no 11
    assert s.phase is Phase.DECIDE


def test_nothing_on_first_roll_turn_over_no_penalty():
    s = position(2, discarded=[10, 0])
    t = s.apply(roll(1, 1, 1, 1))
    assert tops(t) == [11, 1]
    assert t.turn == 1 and t.phase is Phase.ROLL


# ------------------------------------------------------------------------ penalties
@pytest.mark.parametrize(
    ("preset", "top", "after"),
    [
        ("pressman-2003", 2, 1),
        ("pressman-2003", 8, 1),
        ("pressman-2003", 9, 9),
        ("pressman-2003", 16, 9),
        ("playmonster-2022", 2, 1),
        ("playmonster-2022", 8, 1),
        ("playmonster-2022", 9, 1),
        ("playmonster-2022", 11, 1),
        ("playmonster-2022", 12, 9),
        ("playmonster-2022", 16, 9),
        ("tablier", 2, 1),
        ("tablier", 8, 1),
        ("tablier", 9, 9),
        ("tablier", 11, 9),
        ("tablier", 12, 9),
        ("tablier", 16, 9),
    ],
)
def test_penalty_band_on_failed_risk_roll(preset, top, after):
    t = _risk_roll_failing(preset, top)
    assert tops(t) == [after, 1]
    assert t.turn == 1 and t.phase is Phase.ROLL


def test_penalty_option_override():
    s = position(2, options={"penalty_low_max": 11}, discarded=[8, 0])  # top 9
    s = discard_all(s.apply(roll(3, 6, 6, 6)))  # 9 (3+6), no 10
    assert tops(s)[0] == 10
    t = play(s, RISK, roll(1, 1, 1, 1))
    assert tops(t)[0] == 1


def test_penalty_applies_to_the_deck_of_the_roller_only():
    s = position(3, discarded=[5, 9, 3])
    s = discard_all(s.apply(roll(6, 1, 1)))  # 6, 7, 8 -> top 9
    assert tops(s) == [9, 10, 4]
    t = play(s, RISK, roll(1, 1, 1, 1))
    assert tops(t) == [9, 10, 4]
    s = position(3, discarded=[5, 9, 3])
    s = discard_all(s.apply(roll(6, 1, 1)))
    t = play(s, RISK, roll(5, 5, 5, 5))  # cannot make 9 -> top 9 stays 9 (milestone)
    assert tops(t) == [9, 10, 4]


def test_penalty_from_top_8_returns_every_card():
    s = discard_all(position(2).apply(roll(1, 2, 4)))
    t = play(s, RISK, roll(1, 1, 1, 1))  # top 8: 1+1+1+1 = 4, no 8
    assert tops(t) == [1, 1]


def test_blocked_deck_discards_nothing_first_roll_no_penalty():
    s = position(2, discarded=[5, 0], on_deck=0)
    t = s.apply(roll(6, 6, 6))
    assert tops(t) == [6, 1]
    assert t.turn == 1
    assert t.blocked(0)


def test_blocked_deck_discards_nothing_on_risk_roll_penalty():
    s = discard_all(position(2, discarded=[8, 0], held_by=1).apply(roll(3, 6, 6, 6)))
    assert tops(s)[0] == 10
    s = play(s, Place(1, 0), RISK)
    t = s.apply(roll(4, 6, 6, 6))  # would make 10, but the deck is blocked
    assert tops(t) == [9, 1]
    assert t.turn == 1
    assert t.blocked(0)


def test_block_rolled_with_chip_on_own_deck_on_risk_roll_discards():
    s = discard_all(position(2, discarded=[8, 0], held_by=1).apply(roll(3, 6, 6, 6)))
    s = play(s, Place(1, 0), RISK, roll(4, 6, 6, 6, switch=BLOCK))
    assert s.chip_holder == 0
    assert s.phase is Phase.DISCARD
    assert tops(discard_all(s))[0] == 11
