"""docs/RULES.md "Winning, and the points game"."""

from __future__ import annotations

import pytest

from firmware.games.switch16.engine import (
    DISCARD,
    PASS,
    RISK,
    NewRound,
    Phase,
    Place,
    TargetError,
    WrongPhaseError,
)
from firmware.kernel.errors import GameOverError, IllegalActionError

from .helpers import BLOCK, decks, discard_all, play, position, roll, tops

POINTS = {"points": True}


def _win(state):
    """Seat to move (top card 15) rolls 15 and 16 and discards both."""
    s = state.apply(roll(3, 4, 2, 6, 1))  # 3+4+2+6 = 15, 3+4+2+6+1 = 16
    return discard_all(s)


def test_discarding_card_16_wins_at_once():
    s = position(3, discarded=[14, 3, 0], turn=0, held_by=2)
    s = s.apply(roll(3, 4, 2, 6, 1))
    s = s.apply(DISCARD)
    assert s.phase is Phase.DISCARD and tops(s)[0] == 16
    s = s.apply(DISCARD)
    assert s.phase is Phase.OVER
    assert s.winner == 0
    assert s.to_json()["winner"] == 0
    assert s.to_json()["phase"] == "over"
    assert s.to_json()["seats"][0] == {"deck": "red", "discarded": 16}
    assert s.game_over and not s.is_chance


def test_winner_is_the_seat_not_the_deck():
    s = position(2, discarded=[0, 14], control=[1, 0], turn=0)
    s = _win(s)
    assert s.winner == 0
    assert decks(s) == ["blue", "red"]


def test_nothing_more_legal_after_win():
    s = _win(position(2, discarded=[14, 0], held_by=1))
    assert s.legal_actions() == []
    for action in (
        roll(1, 1, 1),
        roll(1, 1, 1, 1, 1),
        DISCARD,
        PASS,
        RISK,
        Place(1, 0),
        NewRound(0),
    ):
        with pytest.raises(GameOverError):
            s.apply(action)


def test_win_on_a_risk_roll():
    s = position(2, discarded=[12, 0])  # top 13, 5 dice
    s = discard_all(s.apply(roll(6, 6, 1, 1, 1)))  # 13, 14, 15; no 16
    assert tops(s)[0] == 16
    s = discard_all(play(s, RISK, roll(6, 6, 4, 1, 1)))
    assert s.winner == 0


def test_new_round_not_allowed_in_single_game_before_over():
    with pytest.raises(WrongPhaseError):
        position(2).apply(NewRound(0))


# ------------------------------------------------------------------ points game
def test_points_round_scores_winner_16_others_their_discards():
    s = position(4, options=POINTS, discarded=[14, 5, 0, 9], control=[0, 3, 2, 1])
    s = _win(s)
    assert s.phase is Phase.OVER and s.winner == 0
    # seat 1 controls yellow (9 gone), seat 2 green (0), seat 3 blue (5)
    assert s.scores == (16, 9, 0, 5)
    j = s.to_json()
    assert j["scores"] == [16, 9, 0, 5]
    assert j["round"] == 1
    assert j["match_winner"] is None


def test_points_round_over_waits_for_new_round():
    s = _win(position(3, options=POINTS, discarded=[14, 3, 2], held_by=1))
    assert s.round_pending and s.is_chance and not s.game_over
    assert s.legal_actions() == []
    for action in (roll(1, 1, 1), DISCARD, Place(1, 0)):
        with pytest.raises(IllegalActionError):
            s.apply(action)
    with pytest.raises(TargetError):
        s.apply(NewRound(3))


def test_points_new_round_fresh_decks_chip_on_table_roll_off_first():
    s = position(3, options=POINTS, discarded=[3, 5, 14], control=[1, 2, 0], turn=1, on_deck=0)
    s = _win(s)
    assert s.winner == 1
    t = s.apply(NewRound(2))
    assert t.round == 2
    assert t.scores == s.scores == (5, 16, 3)  # seat 0: blue, seat 2: red
    assert decks(t) == ["red", "blue", "green"]
    assert tops(t) == [1, 1, 1]
    assert t.to_json()["chip"] == "table"
    assert t.turn == 2 and t.phase is Phase.ROLL and t.winner is None
    assert t.to_json()["round"] == 2


def test_points_first_at_100_wins_the_match():
    s = position(3, options=POINTS, discarded=[14, 3, 0], scores=[90, 97, 10])
    s = _win(s)
    assert s.scores == (106, 100, 10)
    assert s.match_winners == (0,)
    assert s.to_json()["match_winner"] == [0]
    assert s.game_over and not s.round_pending and not s.is_chance
    with pytest.raises(GameOverError):
        s.apply(NewRound(0))


def test_points_a_non_round_winner_can_win_the_match():
    s = _win(position(3, options=POINTS, discarded=[14, 5, 0], scores=[0, 95, 99]))
    assert s.scores == (16, 100, 99)
    assert s.to_json()["match_winner"] == [1]


def test_points_below_100_match_goes_on():
    s = _win(position(2, options=POINTS, discarded=[14, 5], scores=[83, 94]))
    assert s.scores == (99, 99)
    assert s.to_json()["match_winner"] is None
    assert s.round_pending


def test_points_tie_at_top_round_winner_wins_if_tied():
    s = _win(position(3, options=POINTS, discarded=[14, 10, 0], scores=[90, 96, 0]))
    assert s.scores == (106, 106, 0)
    assert s.to_json()["match_winner"] == [0]


def test_points_tie_at_top_without_round_winner_is_shared():
    s = _win(position(3, options=POINTS, discarded=[14, 9, 12], scores=[0, 95, 92]))
    assert s.scores == (16, 104, 104)
    assert s.to_json()["match_winner"] == [1, 2]


def test_points_top_card_1_scores_zero_and_block_chip_irrelevant():
    s = _win(position(2, options=POINTS, discarded=[14, 0], held_by=1))
    assert s.scores == (16, 0)


def test_single_game_has_no_scores_in_state_json():
    j = position(2).to_json()
    assert set(j) == {"seats", "chip", "turn", "phase", "winner"}


def test_points_state_json_has_round_scores_match_winner():
    j = position(2, options=POINTS).to_json()
    assert j["round"] == 1 and j["scores"] == [0, 0] and j["match_winner"] is None


def test_points_full_round_played_from_start():
    s = position(2, options=POINTS)
    s = play(s, roll(1, 2, 4, switch=BLOCK))
    s = discard_all(s)
    assert s.chip_holder == 0 and tops(s) == [8, 1]
    s = s.apply(PASS)
    assert s.turn == 1
