"""Every bot plays only legal actions, whoever it plays with and under any preset."""

from __future__ import annotations

import itertools

import pytest

from firmware.games.switch16.bots import LEVELS, make_bot
from firmware.games.switch16.engine import PRESETS, Phase, State
from firmware.kernel.players import CHANCE

from .helpers import checked_game

LEVEL_NAMES = list(LEVELS)


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("points", [False, True])
def test_bots_play_only_legal_actions(preset: str, players: int, points: bool) -> None:
    games = 4 if points else 30
    for seed in range(games):
        levels = [LEVEL_NAMES[(seed + s) % 3] for s in range(players)]
        state = checked_game(levels, preset, points, seed)
        assert state.game_over


def test_unknown_level_is_named() -> None:
    with pytest.raises(ValueError, match="'grandmaster'"):
        make_bot("grandmaster", 0)


def test_choose_is_none_when_nothing_to_do() -> None:
    state = State.new(3, 0)
    for level, seat in itertools.product(LEVEL_NAMES, (1, 2)):
        assert state.current_player() == CHANCE
        assert make_bot(level, seat).choose(state) is None
    assert state.phase is Phase.ROLL


def test_every_level_is_the_class_its_name_names() -> None:
    """``switch16.levels`` names each level once; ``switch16.bots.LEVELS`` loads them."""
    from firmware.games.switch16.levels import LEVELS as NAMES
    from firmware.games.switch16.setup import BOT_LEVELS

    assert list(LEVELS) == list(NAMES) == list(BOT_LEVELS)
    assert all(cls.level == name for name, cls in LEVELS.items())
