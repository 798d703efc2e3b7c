"""Swytch bots: legal and reproducible; the search finds wins, converts a lead, keeps to
its node budget; the evaluation knows the attack arithmetic."""

from __future__ import annotations

import random

import pytest

from firmware.games.swytch.bots import (
    LEVELS,
    WIN,
    HardBot,
    MediumBot,
    SearchBot,
    analyse,
    evaluate,
    make_bot,
)
from firmware.games.swytch.game import GAME
from firmware.games.swytch.notation import format_action
from firmware.games.swytch.search import Search
from firmware.games.swytch.state import Draw, State

from .helpers import position


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_bots_play_legal_reproducible_games(level: str) -> None:
    def game(seed: int) -> list[str]:
        bots = [make_bot(level, 0, random.Random(seed)), make_bot("random", 1, random.Random(7))]
        state, actions = State.new(), []
        for _ in range(8):
            action = bots[state.to_move].decide(state)
            assert action in state.legal_actions()
            assert bots[state.to_move].interject(state) is None
            actions.append(format_action(action))
            state = state.apply(action)
        return actions

    assert game(1) == game(1)


def test_levels_are_offered_weakest_first() -> None:
    assert GAME.levels == ("easy", "medium", "hard")
    for level in GAME.levels:
        assert type(GAME.make_bot(level, 0, random.Random(0), ())) is LEVELS[level]
    assert MediumBot.NODES < HardBot.NODES


def test_unknown_level_is_named() -> None:
    with pytest.raises(ValueError, match="'expert'"):
        make_bot("expert", 0)


def test_search_takes_the_winning_attack() -> None:
    # d5 2 d6-d7 removes North's last counter; other moves do not
    state = position({"d5": "Suu", "d7": "Nd", "a1": "So"})
    action = make_bot("hard", 0, random.Random(0)).decide(state)
    assert state.apply(action).winner == 0


def test_search_escapes_a_losing_attack() -> None:
    # North's 3-stack on c5 can take South's single counter on c3 (two steps south); South
    # must step it out of reach or lose its last counter
    state = position({"c3": "So", "c5": "Nddd"})
    after = state.apply(make_bot("hard", 0, random.Random(0)).decide(state))
    assert all(after.apply(a).winner != 1 for a in after.legal_actions())


@pytest.mark.parametrize("seed", [0, 1])
def test_a_won_endgame_is_won_not_drawn(seed: int) -> None:
    """Six counters against one: the side ahead hunts the last counter down well before
    the 100-quiet-turn rule, without repeating a position (the old bot parked its stacks
    on the far rank and drew by the quiet rule)."""
    state = position({"a1": "Suu", "d2": "Suu", "h1": "Suu", "e8": "No"}, quiet=40)
    bots = [make_bot("medium", 0, random.Random(seed)), make_bot("medium", 1, random.Random(9))]
    seen = set()
    while not state.is_terminal():
        if state.to_move == 0:
            assert state.key not in seen, "the side ahead repeated a position"
            seen.add(state.key)
        state = state.apply(bots[state.to_move].decide(state))
    assert state.winner == 0 and state.draw is not Draw.QUIET


def test_the_side_behind_takes_a_repetition_draw() -> None:
    """One counter against six, the draw a step away: North steps back to e9, where it has
    twice been with South to move (the third time is a draw), rather than play on."""
    south = {"a1": "Suu", "c1": "Suu", "h1": "Suu"}
    back = position({**south, "e9": "No"}, to_move=0).key
    between = position({**south, "e9": "No"}, to_move=1).key
    here = position({**south, "e8": "No"}, to_move=1)
    state = State.from_board(here.board, 1, quiet=3, history=(back, between, back))
    after = state.apply(make_bot("hard", 1, random.Random(0)).decide(state))
    assert after.draw is Draw.REPETITION


def test_search_keeps_to_its_budget_and_is_deterministic() -> None:
    state = State.new()
    results = [Search(400, random.Random(3)).run(state) for _ in range(2)]
    assert results[0] == results[1] and results[0].nodes <= 400
    endgame = position({"c3": "Suu", "f2": "So", "c7": "Nd", "g8": "No"})
    assert Search(3000).run(endgame).depth > Search(300).run(endgame).depth


def test_analyse_scores_a_won_position_as_won() -> None:
    state = position({"d5": "Suu", "d7": "Nd", "a1": "So"})
    result = analyse(state, 500)
    assert result.score >= WIN - 10 and state.apply(result.action).winner == 0
    assert analyse(position({"c3": "Suu", "c7": "Nd"}), 500).score > 0


def test_evaluate_counts_material_for_the_player_to_move() -> None:
    ahead = position({"c3": "Suu", "c7": "Nd"})
    assert evaluate(ahead) > 0
    assert evaluate(position({"c3": "Suu", "c7": "Nd"}, to_move=1)) < 0


def test_evaluate_knows_the_attack_arithmetic() -> None:
    """a >= d: North's 3-stack two steps from South's 2-stack threatens it (South to move
    but the threat counts); a 1-stack there does not take it, though North's counters
    are further advanced there (the old material-and-advancement score preferred it)."""
    tall = position({"c3": "Suu", "c5": "Nddd", "a1": "So", "h9": "No"})
    short = position({"c3": "Suu", "c5": "Nd", "a1": "So", "h4": "Nooo"})
    assert tall.left == short.left
    assert evaluate(tall) < evaluate(short)


def test_search_bot_reports_its_last_search() -> None:
    bot = SearchBot(0, random.Random(0), nodes=300)
    bot.decide(State.new())
    assert bot.last is not None and bot.last.nodes <= 300
