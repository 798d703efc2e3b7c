"""docs/RULES.md "A roll": dice counts per preset, malformed rolls, and the worked examples."""

from __future__ import annotations

import pytest

from firmware.games.switch16.engine import (
    DISCARD,
    PASS,
    RISK,
    DiceCountError,
    Phase,
    Roll,
    WrongPhaseError,
)
from firmware.games.switch16.engine.dice import can_make, cards_in, makeable_mask
from firmware.kernel.errors import IllegalActionError

from .helpers import BLANK, discard_all, position, roll, tops


# ------------------------------------------------------------------- dice count
@pytest.mark.parametrize("preset", ["pressman-2003", "playmonster-2022"])
@pytest.mark.parametrize(
    ("top", "n"),
    [(1, 3), (6, 3), (7, 4), (11, 4), (12, 5), (16, 5)],
)
def test_dice_count_from_top_card(preset, top, n):
    s = position(2, preset, discarded=[top - 1, 0])
    assert s.dice_count() == n
    s.apply(Roll((6,) * n, BLANK))  # accepted
    for wrong in (n - 1, n + 1):
        with pytest.raises(DiceCountError):
            s.apply(Roll((6,) * wrong, BLANK))


@pytest.mark.parametrize(
    ("discarded", "n"),
    [(0, 3), (6, 3), (7, 4), (11, 4), (12, 5), (15, 5)],
)
def test_dice_count_tablier_from_discarded_count(discarded, n):
    s = position(2, "tablier", discarded=[discarded, 0])
    assert s.dice_count() == n
    s.apply(Roll((6,) * n, BLANK))
    for wrong in (n - 1, n + 1):
        with pytest.raises(DiceCountError):
            s.apply(Roll((6,) * wrong, BLANK))


def test_dice_count_comes_from_the_deck_the_roller_controls():
    # seat 0 controls the blue deck (11 gone, top 12) -> 5 dice, whatever red shows
    s = position(2, discarded=[0, 11], control=[1, 0])
    assert s.dice_count() == 5
    assert s.dice_count(1) == 3


def test_risk_roll_uses_dice_count_of_new_top_card():
    s = position(2, discarded=[4, 0])  # top 5 -> 3 dice
    s = discard_all(s.apply(roll(5, 6, 6)))  # 5, then 6; 7 not makeable
    assert tops(s)[0] == 7
    s = s.apply(RISK)
    assert s.dice_count() == 4
    with pytest.raises(DiceCountError):
        s.apply(roll(1, 1, 1))
    s.apply(roll(1, 1, 1, 1))


@pytest.mark.parametrize("dice", [(), (1,), (1, 2), (1, 2, 3, 4), (1, 2, 3, 4, 5, 6)])
def test_roll_with_wrong_number_of_dice_is_dice_count_error(dice):
    s = position(2)
    with pytest.raises(DiceCountError):
        s.apply(Roll(dice, BLANK))


@pytest.mark.parametrize("dice", [(0, 1, 2), (1, 2, 7), (-1, 3, 3), (1, 2, "3")])
def test_die_values_out_of_range_rejected(dice):
    s = position(2)
    with pytest.raises(DiceCountError):
        s.apply(Roll(dice, BLANK))


def test_unknown_switch_face_rejected():
    s = position(2)
    with pytest.raises(DiceCountError):
        s.apply(Roll((1, 2, 3), "purple"))


def test_rejected_roll_leaves_state_unchanged():
    s = position(2)
    before = s.to_json()
    with pytest.raises(IllegalActionError):
        s.apply(Roll((1, 2), BLANK))
    assert s.to_json() == before
    assert s == position(2)


def test_roll_outside_phase_roll_is_wrong_phase():
    s = position(2).apply(roll(1, 2, 4))
    assert s.phase is Phase.DISCARD
    with pytest.raises(WrongPhaseError):
        s.apply(roll(1, 2, 4))


# ------------------------------------------------------------ evaluating the dice
def test_example_1_roll_1_3_4_discards_only_card_1():
    assert cards_in(makeable_mask((1, 3, 4))) == [1, 3, 4, 5, 7, 8]
    s = position(2).apply(roll(1, 3, 4))
    assert s.phase is Phase.DISCARD
    s = s.apply(DISCARD)
    assert tops(s)[0] == 2
    assert s.phase is Phase.DECIDE  # no 2: the run stops after card 1


def test_example_2_roll_1_2_4_discards_cards_1_to_7():
    assert cards_in(makeable_mask((1, 2, 4))) == [1, 2, 3, 4, 5, 6, 7]
    s = position(2).apply(roll(1, 2, 4))
    for expected_top in range(2, 8):
        s = s.apply(DISCARD)
        assert s.phase is Phase.DISCARD
        assert tops(s)[0] == expected_top
    s = s.apply(DISCARD)
    assert tops(s)[0] == 8
    assert s.phase is Phase.DECIDE
    assert s.legal_actions() == [PASS, RISK]


def test_card_made_by_a_single_die_or_any_sum():
    assert can_make((6, 6, 6), 6)
    assert can_make((6, 6, 6), 12)
    assert can_make((6, 6, 6), 18) is False  # cards stop at 16
    assert not can_make((6, 6, 6), 7)
    assert can_make((2, 3, 5, 6, 6), 16)  # 5 + 6 + 3 + 2
    assert not can_make((1, 1, 1), 4)


def test_dice_order_does_not_matter():
    assert makeable_mask((4, 1, 2)) == makeable_mask((1, 2, 4)) == makeable_mask((2, 4, 1))


def test_dice_reused_from_card_to_card():
    # top card 4, dice 1,3,4: card 4 (the 4), card 5 (1 + 4), no 6 -> stops at top 6.
    # The 4 served both card 4 and card 5.
    s = discard_all(position(2, discarded=[3, 0]).apply(roll(1, 3, 4)))
    assert tops(s)[0] == 6
    # top 2, dice 2,2,2: card 2, then 3 cannot be made -> stops at top 3.
    s = discard_all(position(2, discarded=[1, 0]).apply(roll(2, 2, 2)))
    assert tops(s)[0] == 3


def test_blank_roll_with_top_card_not_makeable_on_first_roll_turn_over_no_penalty():
    s = position(2, discarded=[5, 0])  # top 6
    t = s.apply(roll(1, 1, 1))
    assert t.turn == 1
    assert t.phase is Phase.ROLL
    assert tops(t) == [6, 1]
