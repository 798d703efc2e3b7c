"""Swytch bots: legal, reproducible from their rng, and the searching one finds wins."""

from __future__ import annotations

import random

import pytest

from firmware.games.swytch.bots import LEVELS, SearchBot, evaluate, make_bot
from firmware.games.swytch.notation import format_action
from firmware.games.swytch.state import State

from .helpers import position


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_bots_play_legal_reproducible_games(level: str) -> None:
    def game(seed: int) -> list[str]:
        bots = [make_bot(level, 0, random.Random(seed)), make_bot("random", 1, random.Random(7))]
        state, actions = State.new(), []
        for _ in range(16):
            action = bots[state.to_move].decide(state)
            assert action in state.legal_actions()
            assert bots[state.to_move].interject(state) is None
            actions.append(format_action(action))
            state = state.apply(action)
        return actions

    assert game(1) == game(1)


def test_unknown_level_is_named() -> None:
    with pytest.raises(ValueError, match="'hard'"):
        make_bot("hard", 0)


def test_search_takes_the_winning_attack() -> None:
    # d5 2 d6-d7 removes North's last counter; other moves do not
    state = position({"d5": "Suu", "d7": "Nd", "a1": "So"})
    action = SearchBot(0, random.Random(0)).decide(state)
    assert state.apply(action).winner == 0


def test_search_escapes_a_losing_attack() -> None:
    # North's 3-stack on c5 can take South's single counter on c3 (two steps south); South
    # must step it out of reach or lose its last counter
    state = position({"c3": "So", "c5": "Nddd"})
    bot = SearchBot(0, random.Random(0))
    after = state.apply(bot.decide(state))
    assert all(after.apply(a).winner != 1 for a in after.legal_actions())


def test_search_beats_easy_and_random_in_a_few_games() -> None:
    """A smoke test; benchmarks/swytch_bots.py plays the 1,000-game statistics."""
    for index, opponent in enumerate(("easy", "random")):
        bots = [make_bot(opponent, 1 - index, random.Random(3))] * 2
        bots[index] = SearchBot(index, random.Random(index))
        state = State.new()
        while not state.is_terminal():
            state = state.apply(bots[state.to_move].decide(state))
        assert state.winner == index


def test_evaluate_counts_material_for_the_player_to_move() -> None:
    ahead = position({"c3": "Suu", "c7": "Nd"})
    assert evaluate(ahead) > 0
    assert evaluate(position({"c3": "Suu", "c7": "Nd"}, to_move=1)) < 0
