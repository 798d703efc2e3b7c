"""The rulebook bot follows the published tips."""

from __future__ import annotations

import random

from firmware.games.selfplay import play_game
from firmware.games.switch16.bots import RulebookBot, make_bot
from firmware.games.switch16.engine import PASS, Phase, Place, Risk
from firmware.games.switch16.game import GAME

from .helpers import finishing_position, position


def test_never_risks_after_only_card_1_or_2() -> None:
    """Tip: no risk when the deck's only discarded cards are card 1, or cards 1 and 2."""
    bot = RulebookBot(0, random.Random(0))
    for d in (1, 2):
        for others in (0, 5, 15):
            assert bot.decide(position(3, [d, others, others])) == PASS


def test_no_risk_after_card_1_or_2_in_real_games() -> None:
    checked = 0
    for seed in range(40):
        game = play_game(GAME, ["rulebook"] * 4, {}, seed, record=True)
        state = game.header.initial_state()
        for action in game.actions:
            if state.phase is Phase.DECIDE and type(action) is Risk:
                assert state.discarded_of(state.turn) > 2
            checked += state.phase is Phase.DECIDE
            state = state.apply(action)
    assert checked > 100


def test_rulebook_risks_sometimes() -> None:
    bot = RulebookBot(0, random.Random(0))
    assert any(type(bot.decide(position(2, [d, 0]))) is Risk for d in range(3, 16))


def test_bots_block_a_player_about_to_finish() -> None:
    state = finishing_position()
    for level in ("rulebook", "expert"):
        assert make_bot(level, 1).interject(state) == Place(1, 0)
        assert make_bot(level, 1).choose(state) == Place(1, 0)


def test_holder_who_is_not_asked_keeps_the_chip_without_a_threat() -> None:
    state = finishing_position()
    early = state.apply(Place(1, 0))  # chip laid: nothing more to interject
    assert make_bot("rulebook", 1).interject(early) is None
