"""Every game plays itself through the seam (:mod:`firmware.games.selfplay`): bots at
every seat, chance drawn from the state's own outcomes, and the transcript it saves
replays to the same end."""

from __future__ import annotations

import random
from pathlib import Path

from firmware.games.game import Game
from firmware.games.selfplay import play_one, run_games
from firmware.transcript import replay_file

from .conftest import given_options


def test_the_seam_s_runner_plays_the_game_to_its_end(game: Game, tmp_path: Path) -> None:
    seats = [game.levels[0]] * game.seats.start
    _, actions, state = play_one(game, seats, 0, random.Random(5), given_options(game))
    assert state.game_over and actions
    result = run_games(game, seats, 2, seed=5, save_dir=tmp_path, options=given_options(game))
    assert len(result.lengths) == 2 and sum(result.wins) + result.draws >= 2
    replayed = replay_file(str(tmp_path / "game-0001.jsonl"))
    assert replayed.ok and replayed.state is not None and replayed.state.game_over
