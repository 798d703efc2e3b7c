"""Every game plays itself through the seam (:mod:`firmware.games.selfplay`): bots at
every seat, chance drawn from the state's own outcomes, and the transcript it saves
replays to the same end; ``switch16 selfplay`` and ``switch16 review`` of it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from firmware.cli import main
from firmware.games.game import Game
from firmware.games.selfplay import play_game, run
from firmware.transcript import replay_file, write_transcript

from .conftest import given_options, option_words


def test_the_seam_s_runner_plays_the_game_to_its_end(game: Game, tmp_path: Path) -> None:
    seats = [game.levels[0]] * game.seats.start
    played = play_game(game, seats, given_options(game), 5, record=True)
    assert played.state.game_over and len(played.actions) == played.length > 0
    result = run(game, seats, 2, given_options(game), seed=5, save_dir=tmp_path)
    assert result.games == 2 and sum(result.lengths.values()) == 2
    assert sum(result.wins) + result.draws == 2
    replayed = replay_file(str(tmp_path / "game-0001.jsonl"))
    assert replayed.ok and replayed.state is not None and replayed.state.game_over


def test_switch16_selfplay_saves_games_that_replay(name: str, game: Game, tmp_path: Path) -> None:
    """``switch16 selfplay`` of the game with its options."""
    seats = ",".join([game.levels[0]] * game.seats.start)
    argv = ["selfplay", "--game", name, "--games", "2", "--seats", seats, "--seed", "3",
            "--save", str(tmp_path), *option_words(game)]  # fmt: skip
    assert main(argv) == 0
    saved = sorted(tmp_path.glob("*.jsonl"))
    assert len(saved) == 2 and all(replay_file(str(p)).state.game_over for p in saved)


def test_review_reviews_the_game_or_says_it_has_none(
    name: str, game: Game, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``switch16 review`` of a game's first moves: its review, or a clear "no review"."""
    seats = [game.levels[0]] * game.seats.start
    played = play_game(game, seats, given_options(game), 8, record=True)
    header, actions = played.header, played.actions
    path = tmp_path / "game.jsonl"
    write_transcript(path, header, actions[:4])
    code = main(["review", "--json", str(path)])
    out, err = capsys.readouterr()
    if game.review_game(header, actions[:1]) is None:
        assert code == 1 and f"a {game.title} game: this game has no review" in err
    else:
        assert code == 0 and json.loads(out)["file"] == str(path)
