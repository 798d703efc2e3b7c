"""Positions and a checking game driver for the bot tests."""

from __future__ import annotations

import random

from firmware.bots import Bot, make_bot
from firmware.chance import chance_action
from firmware.engine import Face, Phase, Roll, State, make_rules


def checked_game(levels: list[str], preset: str, points: bool, seed: int) -> State:
    """Play one game asking the bots like the unit does; assert every action is legal."""
    rng = random.Random(seed)
    rules = make_rules(preset, {"points": True} if points else None)
    bots: list[Bot] = [make_bot(lv, s, random.Random(seed + s)) for s, lv in enumerate(levels)]
    state = State.new(len(levels), rng.randrange(len(levels)), rules)
    for _ in range(20_000):
        if state.game_over:
            return state
        for seat, bot in enumerate(bots):
            if seat != state.chip_seat:
                assert bot.interject(state) is None
        holder = state.chip_seat
        place = bots[holder].interject(state) if holder >= 0 else None
        if place is not None:
            assert place in state.legal_actions(), (state, place)
            state = state.apply(place)
            continue
        if state.is_chance:
            state = state.apply(chance_action(state, rng))
            continue
        actor = state.target if state.phase is Phase.GREEN_REFUSAL else state.turn
        action = bots[actor].choose(state)
        assert action is not None and action in state.legal_actions(), (state, action)
        assert state.actor(action) == actor
        state = state.apply(action)
    raise AssertionError("game did not end")


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
    assert s.phase is Phase.DISCARD and s.chip_seat == 1 and s.top_card(0) == 14
    return s


def position(
    players: int, discarded: list[int], turn: int = 0, phase: Phase = Phase.DECIDE
) -> State:
    """A state with decks at ``discarded`` (seat s controls deck s), chip on the table.

    Built by copying a fresh state and setting its fields: tests only.
    """
    s = State.new(players, turn, make_rules())._copy()
    s.discarded = tuple(discarded)
    s.phase = phase
    s.rolled_discards = 1 if phase is Phase.DECIDE else 0
    return s
