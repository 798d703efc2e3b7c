"""Positions and a checking game driver for the bot tests."""

from __future__ import annotations

import random

from firmware.games.switch16.bots import Bot, make_bot
from firmware.games.switch16.driver import moves
from firmware.games.switch16.engine import (
    COLOURS,
    Act,
    Face,
    NewRound,
    Phase,
    Place,
    Roll,
    State,
    make_rules,
)


def checked_game(levels: list[str], preset: str, points: bool, seed: int) -> State:
    """Play one game through the driver; assert every bot action is legal and its own."""
    rng = random.Random(seed)
    rules = make_rules(preset, {"points": True} if points else None)
    bots: list[Bot] = [make_bot(lv, s, random.Random(seed + s)) for s, lv in enumerate(levels)]
    state = State.new(len(levels), rng.randrange(len(levels)), rules)
    for before, action, after in moves(state, bots, rng, max_actions=20_000):
        state = after
        for seat, bot in enumerate(bots):
            if seat != before.chip_holder:
                assert bot.interject(before) is None
        if before.is_chance and type(action) is not Place:
            assert type(action) in (Roll, NewRound)
            continue
        assert action in before.legal_actions(), (before, action)
        assert before.may(before.actor(action), Act.PLACE if type(action) is Place else Act.DECIDE)
    assert state.game_over, "game did not end"
    return state


def finishing_position() -> State:
    """Two seats: seat 1 holds the chip; seat 0 (top card 14) rolled 14, 15 and 16."""
    s = State.new(2, 0, make_rules())
    s = s.apply(Roll((1, 2, 4), Face.BLANK))  # cards 1..7
    while s.phase is Phase.DISCARD:
        s = s.apply(s.legal_actions()[0])
    s = s.apply(s.legal_actions()[0])  # pass
    s = s.apply(Roll((6, 6, 6), Face.BLOCK))  # seat 1 takes the chip, card 1 not made
    s = s.apply(Roll((1, 2, 4, 6), Face.BLANK))  # cards 8..13
    while s.phase is Phase.DISCARD:
        s = s.apply(s.legal_actions()[0])
    s = s.apply(s.legal_actions()[0])  # pass
    s = s.apply(Roll((6, 6, 6), Face.BLANK))
    s = s.apply(Roll((1, 2, 4, 6, 6), Face.BLANK))  # 14, 15, 16 makeable
    assert s.phase is Phase.DISCARD and s.chip_holder == 1 and s.top_card(0) == 14
    return s


def position(
    players: int, discarded: list[int], turn: int = 0, phase: Phase = Phase.DECIDE
) -> State:
    """A state with decks at ``discarded`` (seat s controls deck s), chip on the table.

    Built with ``State.from_json``; the roll on the table is a blank 6-6-6.
    """
    seats = [{"deck": COLOURS[s], "discarded": d} for s, d in enumerate(discarded)]
    rolled = phase is not Phase.ROLL
    return State.from_json({
        "seats": seats, "chip": "table", "turn": turn, "phase": phase.value,
        "winner": discarded.index(16) if phase is Phase.OVER else None,
        "dice": [6, 6, 6] if rolled else [], "switch": "blank" if rolled else None,
        "rolled_discards": 1 if phase is Phase.DECIDE else 0,
    })  # fmt: skip
