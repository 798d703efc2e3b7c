"""Actions in words (Switch 16's action_text): what the review and the sim's turn log say."""

from __future__ import annotations

from firmware.games.switch16.action_text import action_text, deck_names, outcome_text
from firmware.games.switch16.engine import DISCARD, PASS, RISK, Face, Green, Place, Roll, State
from firmware.kernel.seats import seat_name


def test_decisions_read_as_the_review_says_them() -> None:
    s = State.new(3, 0).apply(Roll((1, 2, 4), Face.BLANK))
    assert action_text(s, DISCARD, seat_name) == "discard 1"
    for _ in range(7):
        s = s.apply(DISCARD)
    assert action_text(s, RISK, deck_names(s)) == "risk at 8"
    assert action_text(s, PASS, deck_names(s)) == "pass at 8"
    g = State.new(3, 0).apply(Roll((6, 6, 6), Face.GREEN))
    assert action_text(g, Green(2), deck_names(g)) == "green: take GREEN"
    assert action_text(g, Green(None), seat_name) == "no switch"


def test_outcomes_come_from_the_engine_facts() -> None:
    g = State.new(3, 0).apply(Roll((6, 6, 6), Face.GREEN))
    assert outcome_text(g, Green(1), g.apply(Green(1)), seat_name) == " → switch with seat 2"
    s = State.new(2, 0)
    block = Roll((6, 6, 6), Face.BLOCK)
    held = s.apply(block)
    assert outcome_text(s, block, held, seat_name) == " → takes the chip"
    risky = State.new(2, 0).apply(Roll((1, 2, 4), Face.BLANK))
    for _ in range(7):
        risky = risky.apply(DISCARD)
    risky = risky.apply(RISK)
    miss = Roll((6, 6, 6, 6), Face.BLANK)
    assert outcome_text(risky, miss, risky.apply(miss), seat_name) == " → penalty, top 1"
    assert action_text(held, Place(0, 1), seat_name) == "chip on seat 2"
