"""Every game in the unit's loop on the mocked Pi (the real ``pi`` backend on gpiozero's
MockFactory, emulated panels): its bots play a game, every panel shows the game's render
of its view; the journal a power cut leaves mid-game resumes that position on a unit
started afresh, which plays on to the end; ``switch16 replay`` reads what it kept."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from firmware.cli import main
from firmware.games.game import Game
from firmware.transcript import replay_file

from .conftest import bot_setup, glass_shows_views, unit_on_mock_pi


def kept_game(directory: Path) -> list[str]:
    """The transcript of the one game the unit archived in ``directory``."""
    (kept,) = (directory / "games").glob("*.jsonl")
    return kept.read_text().splitlines()


def test_a_game_its_power_cut_and_its_replay(
    name: str, game: Game, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    with unit_on_mock_pi(first, game=name, setup=bot_setup(game)) as (pi, unit):
        assert unit.run_until(lambda: unit.finished, 3600)
        assert unit.run_until(lambda: glass_shows_views(pi, unit), 5)
    lines = kept_game(first)
    cut = lines[: 1 + (len(lines) - 1) // 2]  # the journal as a power cut mid-game leaves it
    second.mkdir()
    (second / "current.jsonl").write_text("".join(line + "\n" for line in cut))
    with unit_on_mock_pi(second) as (pi, unit):  # a unit of any game, started afresh
        assert unit.game.name == name and unit.state is not None
        assert unit.run_until(lambda: glass_shows_views(pi, unit), 5)
        assert unit.run_until(lambda: unit.finished, 3600)
        final = unit.state
    assert kept_game(second)[: len(cut)] == cut  # it played on from where the cut left it
    (path,) = (second / "games").glob("*.jsonl")
    assert replay_file(str(path)).state == final
    assert main(["replay", "--json", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["state"] == final.to_json()
