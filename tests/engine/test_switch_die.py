"""docs/RULES.md "A roll": the switch die faces red, green and block."""

from __future__ import annotations

import pytest

from firmware.games.switch16.engine import (
    ACCEPT,
    DECLINE,
    DISCARD,
    LEAVE,
    REFUSE,
    RISK,
    TAKE,
    Green,
    Phase,
    Place,
    Red,
    TargetError,
    WrongPhaseError,
)

from .helpers import BLOCK, GREEN, RED, decks, discard_all, play, position, roll, tops


# ---------------------------------------------------------------------------- red
def test_red_exchanges_with_the_single_lowest_seat_automatically():
    s = position(3, discarded=[9, 4, 2])  # tops 10, 5, 3
    t = s.apply(roll(1, 2, 4, 6, switch=RED))
    assert decks(t) == ["green", "blue", "red"]
    assert tops(t) == [3, 5, 10]
    assert t.turn == 1
    assert t.phase is Phase.ROLL


def test_red_ties_for_lowest_go_to_phase_red_with_only_tied_seats():
    s = position(4, discarded=[9, 2, 5, 2], turn=0)  # tops 10, 3, 6, 3
    t = s.apply(roll(1, 2, 4, 6, switch=RED))
    assert t.phase is Phase.RED
    assert t.turn == 0
    assert t.legal_actions() == [Red(1), Red(3)]
    for bad in (Red(0), Red(2), Red(4), Red(-1)):
        with pytest.raises(TargetError):
            t.apply(bad)
    u = t.apply(Red(3))
    assert decks(u) == ["yellow", "blue", "green", "red"]
    assert u.turn == 1
    assert u.phase is Phase.ROLL


def test_red_without_a_lower_seat_no_exchange_turn_over():
    s = position(3, discarded=[2, 2, 7])  # seat 0 top 3; others 3 and 8: none lower
    t = s.apply(roll(1, 2, 3, switch=RED))
    assert decks(t) == ["red", "blue", "green"]
    assert tops(t) == [3, 3, 8]
    assert t.turn == 1
    assert t.phase is Phase.ROLL


def test_red_ignores_the_numbered_dice():
    s = position(2, discarded=[0, 0])  # top 1; 1,2,4 would discard 1..7 on blank
    t = s.apply(roll(1, 2, 4, switch=RED))
    assert tops(t) == [1, 1]
    assert t.turn == 1


def test_red_on_a_risk_roll_has_no_penalty():
    s = discard_all(position(2, discarded=[0, 9]).apply(roll(1, 2, 4)))  # top 8
    s = s.apply(RISK)
    t = s.apply(roll(6, 6, 6, 6, switch=RED))  # seat 1 (top 10) not lower: no exchange
    assert tops(t) == [8, 10]
    assert t.turn == 1
    # with a lower seat: exchange, still no penalty on either deck
    s2 = discard_all(position(2, discarded=[0, 0], turn=1).apply(roll(1, 2, 4))).apply(RISK)
    t2 = s2.apply(roll(6, 6, 6, 6, switch=RED))
    assert decks(t2) == ["blue", "red"]
    assert tops(t2) == [8, 1]
    assert t2.turn == 0


def test_red_chip_never_protects_the_holder():
    s = position(2, discarded=[9, 0], held_by=1)
    t = s.apply(roll(1, 1, 1, 1, switch=RED))
    assert decks(t) == ["blue", "red"]
    assert t.chip_holder == 1  # still in the same hand
    assert t.to_json()["chip"] == {"held_by": 1}


def test_red_chip_never_protects_a_blocked_deck_and_stays_on_it():
    s = position(2, discarded=[9, 0], on_deck=1)
    t = s.apply(roll(1, 1, 1, 1, switch=RED))
    assert decks(t) == ["blue", "red"]
    assert t.to_json()["chip"] == {"on_deck": "blue"}
    assert t.blocked(0) and not t.blocked(1)


# -------------------------------------------------------------------------- green
def test_green_phase_offers_any_other_seat_or_decline():
    s = position(4, turn=2).apply(roll(1, 2, 3, switch=GREEN))
    assert s.phase is Phase.GREEN
    assert s.legal_actions() == [DECLINE, Green(0), Green(1), Green(3)]
    with pytest.raises(TargetError):
        s.apply(Green(2))
    with pytest.raises(TargetError):
        s.apply(Green(4))


def test_green_exchange_with_any_seat_even_a_higher_one_ends_the_turn():
    s = position(3, discarded=[3, 10, 1])
    t = play(s, roll(1, 2, 4, switch=GREEN), Green(1))
    assert decks(t) == ["blue", "red", "green"]
    assert tops(t) == [11, 4, 2]
    assert t.turn == 1
    assert t.phase is Phase.ROLL


def test_green_exchange_ignores_numbered_dice():
    t = play(position(2), roll(1, 2, 4, switch=GREEN), Green(1))
    assert tops(t) == [1, 1]


def test_green_decline_evaluates_the_dice_as_blank():
    t = play(position(2), roll(1, 2, 4, switch=GREEN), DECLINE)
    assert t.phase is Phase.DISCARD
    assert tops(discard_all(t)) == [8, 1]


def test_green_decline_nothing_to_discard_on_first_roll_turn_over():
    t = play(position(2, discarded=[4, 0]), roll(1, 1, 1, switch=GREEN), DECLINE)
    assert t.turn == 1
    assert tops(t) == [5, 1]


def test_green_decline_nothing_on_risk_roll_is_penalty():
    s = discard_all(position(2, discarded=[7, 0]).apply(roll(1, 2, 6, 6)))  # 8,9 -> top 10
    assert tops(s)[0] == 10
    t = play(s, RISK, roll(1, 1, 1, 1, switch=GREEN), DECLINE)
    assert tops(t) == [9, 1]
    assert t.turn == 1


def test_green_named_seat_without_chip_cannot_refuse():
    s = position(3, held_by=2).apply(roll(1, 2, 3, switch=GREEN))
    t = s.apply(Green(1))
    assert t.phase is Phase.ROLL  # exchanged at once
    assert decks(t) == ["blue", "red", "green"]


def test_green_named_chip_holder_may_refuse():
    s = play(position(3, held_by=1), roll(1, 2, 3, switch=GREEN), Green(1))
    assert s.phase is Phase.GREEN_REFUSAL
    assert s.legal_actions() == [REFUSE, ACCEPT]
    assert s.actor(REFUSE) == 1


def test_green_holder_accepts_exchange_keeps_chip_in_hand():
    t = play(position(3, held_by=1), roll(1, 2, 3, switch=GREEN), Green(1), ACCEPT)
    assert decks(t) == ["blue", "red", "green"]
    assert t.chip_holder == 1
    assert t.turn == 1


def test_green_after_refusal_name_another_seat_not_the_refuser():
    s = play(position(3, held_by=1), roll(1, 2, 3, switch=GREEN), Green(1), REFUSE)
    assert s.phase is Phase.GREEN
    assert s.turn == 0
    assert s.legal_actions() == [DECLINE, Green(2), Place(1, 0), Place(1, 2)]
    with pytest.raises(TargetError):
        s.apply(Green(1))
    t = s.apply(Green(2))
    assert decks(t) == ["green", "blue", "red"]
    assert t.turn == 1


def test_green_after_refusal_roller_may_decline():
    s = play(position(3, held_by=1), roll(1, 2, 4, switch=GREEN), Green(1), REFUSE)
    t = s.apply(DECLINE)
    assert t.phase is Phase.DISCARD
    assert decks(t) == ["red", "blue", "green"]


def test_green_after_every_seat_refused_only_decline_is_left():
    s = play(position(2, held_by=1), roll(1, 2, 4, switch=GREEN), Green(1), REFUSE)
    assert s.legal_actions() == [DECLINE, Place(1, 0)]  # keep: seat 1 still holds it


@pytest.mark.parametrize(
    ("preset", "options", "chip_after"),
    [
        ("pressman-2003", None, {"held_by": 1}),
        ("playmonster-2022", None, {"held_by": 1}),
        ("tablier", None, "table"),
        ("pressman-2003", {"refused_chip": "table"}, "table"),
        ("pressman-2003", {"refused_chip": "attacker"}, {"held_by": 0}),
        ("tablier", {"refused_chip": "keep"}, {"held_by": 1}),
        ("tablier", {"refused_chip": "attacker"}, {"held_by": 0}),
    ],
)
def test_green_refusal_chip_fate(preset, options, chip_after):
    s = position(3, preset, options=options, held_by=1)
    t = play(s, roll(1, 2, 3, switch=GREEN), Green(1), REFUSE)
    assert t.to_json()["chip"] == chip_after
    assert decks(t) == ["red", "blue", "green"]
    assert t.phase is Phase.GREEN


def test_green_refusal_keep_refuser_may_refuse_no_one_else():
    # after "keep" the refuser still holds the chip; the other seat cannot refuse
    s = play(position(3, held_by=1), roll(1, 2, 3, switch=GREEN), Green(1), REFUSE, Green(2))
    assert s.phase is Phase.ROLL
    assert decks(s) == ["green", "blue", "red"]


def test_green_refusal_attacker_chip_then_name_other_seat():
    s = position(3, options={"refused_chip": "attacker"}, held_by=1)
    s = play(s, roll(1, 2, 3, switch=GREEN), Green(1), REFUSE)
    assert s.chip_holder == 0
    assert Place(0, 2) in s.legal_actions()
    t = s.apply(Green(2))
    assert decks(t) == ["green", "blue", "red"]
    assert t.chip_holder == 0


def test_green_exchange_on_risk_roll_has_no_penalty():
    s = discard_all(position(2).apply(roll(1, 2, 4))).apply(RISK)
    t = play(s, roll(6, 6, 6, 6, switch=GREEN), Green(1))
    assert decks(t) == ["blue", "red"]
    assert tops(t) == [1, 8]
    assert t.turn == 1


def test_green_blocked_deck_exchange_chip_stays_on_deck():
    s = position(3, discarded=[2, 7, 0], on_deck=1)
    t = play(s, roll(1, 2, 3, switch=GREEN), Green(1))
    assert decks(t) == ["blue", "red", "green"]
    assert t.to_json()["chip"] == {"on_deck": "blue"}
    assert t.blocked(0)


# -------------------------------------------------------------------------- block
def test_block_takes_chip_from_table_then_evaluates():
    t = position(2).apply(roll(1, 2, 4, switch=BLOCK))
    assert t.chip_holder == 0
    assert t.phase is Phase.DISCARD


def test_block_takes_chip_from_another_hand():
    t = position(3, held_by=2).apply(roll(1, 1, 1, switch=BLOCK))
    assert t.chip_holder == 0
    assert t.turn == 0 and t.phase is Phase.DISCARD


def test_block_keeps_chip_already_in_own_hand():
    t = position(2, held_by=0).apply(roll(6, 6, 6, switch=BLOCK))
    assert t.chip_holder == 0
    assert t.turn == 1  # nothing discarded on the first roll: turn over


def test_block_off_own_deck_unblocks_then_discards_with_same_roll():
    s = position(2, discarded=[3, 0], on_deck=0)
    t = s.apply(roll(4, 1, 6, switch=BLOCK))
    assert t.chip_holder == 0
    assert not t.blocked(0)
    assert t.phase is Phase.DISCARD
    assert tops(discard_all(t))[0] == 8  # 4, 5 (4+1), 6, 7 (1+6); no 8


def test_block_off_own_deck_controlled_after_an_exchange():
    # the chip lies on the red deck, which seat 1 now controls
    s = position(2, control=[1, 0], on_deck=0, turn=1)
    t = s.apply(roll(1, 2, 3, switch=BLOCK))
    assert t.chip_holder == 1
    assert t.phase is Phase.DISCARD


@pytest.mark.parametrize("preset", ["pressman-2003", "tablier"])
def test_block_chip_on_another_deck_take_or_leave(preset):
    s = position(3, preset, discarded=[0, 5, 0], on_deck=1).apply(roll(1, 2, 4, switch=BLOCK))
    assert s.phase is Phase.BLOCK
    assert s.legal_actions() == [TAKE, LEAVE]
    taken = s.apply(TAKE)
    assert taken.chip_holder == 0
    assert taken.phase is Phase.DISCARD
    left = s.apply(LEAVE)
    assert left.to_json()["chip"] == {"on_deck": "blue"}
    assert left.phase is Phase.DISCARD


def test_block_leave_then_nothing_on_first_roll_turn_over():
    s = position(2, discarded=[3, 0], on_deck=1).apply(roll(1, 1, 1, switch=BLOCK))
    t = s.apply(LEAVE)
    assert t.turn == 1 and t.phase is Phase.ROLL
    assert t.blocked(1)


def test_block_playmonster_must_take_chip_off_another_deck():
    s = position(3, "playmonster-2022", on_deck=2)
    t = s.apply(roll(1, 2, 4, switch=BLOCK))
    assert t.chip_holder == 0
    assert t.phase is Phase.DISCARD
    with pytest.raises(WrongPhaseError):
        t.apply(LEAVE)


def test_block_option_must_take_overrides_pressman():
    s = position(2, options={"block_take": "must"}, on_deck=1)
    assert s.apply(roll(1, 2, 3, switch=BLOCK)).chip_holder == 0


def test_take_and_leave_only_in_phase_block():
    s = position(2).apply(roll(1, 2, 4))
    for action in (TAKE, LEAVE):
        with pytest.raises(WrongPhaseError):
            s.apply(action)


def test_block_on_a_risk_roll_blocked_elsewhere_then_nothing_is_penalty():
    s = discard_all(position(2, discarded=[4, 0], on_deck=1).apply(roll(5, 1, 1)))
    assert tops(s)[0] == 8  # 5, 6 (5+1), 7 (5+1+1)
    t = play(s, RISK, roll(1, 1, 1, 1, switch=BLOCK), LEAVE)
    assert tops(t)[0] == 1  # top 8 -> penalty to 1
    assert t.blocked(1)
    assert DISCARD not in t.legal_actions()
