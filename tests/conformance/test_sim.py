"""Every game in the simulator, headless (SDL's dummy drivers): its bots play a demo
game with every screenshot's panels checked against the unit's frames, and ``--replay``
shows its transcript's first and last lines."""

from __future__ import annotations

import json
import os
from pathlib import Path

from firmware.games.game import Game
from firmware.transcript import replay_file

from .conftest import bot_setup, option_words

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

from sim import app  # pygame loads with the dummy drivers


def test_the_headless_demo_and_its_replay(name: str, game: Game, tmp_path: Path) -> None:
    demo, frames = tmp_path / "demo", tmp_path / "frames"
    argv = ["--headless", "--game", name, "--players", str(game.seats.start), "--seed", "2",
            "--shots-every", "50", "--out", str(demo), *option_words(game)]  # fmt: skip
    assert app.main(argv) == 0  # every screenshot checked its panels against the frames
    transcript = demo / "transcript.jsonl"
    result = replay_file(str(transcript))
    assert result.ok and result.state is not None and result.state.game_over
    assert json.loads(transcript.read_text().splitlines()[0]).get("game", name) == name
    assert app.main(["--replay", str(transcript), "--headless", "--lines", "1,end",
                     "--out", str(frames)]) == 0  # fmt: skip
    assert len(list(frames.glob("*.png"))) == 2


def test_the_table_s_status_line_is_the_game_s(name: str, game: Game, monkeypatch) -> None:
    """The simulator says under its table what the game says of the position (its
    ``table_status``), for every game: it keeps no game's wording of its own."""
    from sim.tableview import game_table_view

    state = game.header(bot_setup(game), 0).initial_state()
    said: list[tuple[object, bool]] = []

    def status(state: object, *, rolling: bool = False, shown: object = None) -> str:
        said.append((state, rolling))
        return f"{name}'s own words"

    monkeypatch.setattr(game, "table_status", status)
    view = game_table_view(name, state, ("human",) * game.seats.start, rolling=True)
    assert view.status == f"{name}'s own words" and said == [(state, True)]
