"""A game is a plugin: a package installed with pip that names it under the
``switch16.games`` entry points is offered by the unit and read by its tools, with no
change to the firmware (here, the test game Nim in a package of its own)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from firmware.games import registry
from firmware.games.switch16.setup import GameSetup, SetupMenu
from tests.plugin_games import nim_installed, on_path, plugin_env

__all__ = ["nim_installed", "on_path"]  # the fixtures


def test_the_built_in_games_are_entry_points_the_default_first() -> None:
    games = registry.installed_games()
    assert list(games)[:2] == ["switch16", "swytch"]
    assert games["switch16"] == "firmware.games.switch16:GAME"


def test_an_installed_game_package_is_registered_and_offered(on_path: Path) -> None:
    assert registry.game_names() == ("switch16", "nim", "swytch")
    assert registry.get_game("nim").name == "nim"
    question = SetupMenu(GameSetup(), 4).questions()[0]
    assert (question.key, question.options) == ("game", ("Switch 16", "Nim", "Swytch"))


def test_the_tools_read_the_plugin_game(on_path: Path, tmp_path: Path) -> None:
    """``switch16 replay`` in a process of its own finds Nim through the entry point."""
    lines = [{"game": "nim", "players": 2, "first": 0, "pile": 7, "seats": ["human"] * 2},
             {"action": "take", "count": 3}, {"action": "take", "count": 4}]  # fmt: skip
    path = tmp_path / "nim.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    env = plugin_env(on_path)
    out = subprocess.run([sys.executable, "-m", "firmware", "replay", str(path)], env=env,
                         capture_output=True, text=True, stdin=subprocess.DEVNULL)  # fmt: skip
    assert out.returncode == 1, out.stdout + out.stderr  # 4 from a pile of 4: not legal
    assert "line 3" in out.stdout and "unknown game" not in out.stdout


def test_no_game_installed_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "GAMES", {})
    with pytest.raises(registry.UnknownGameError, match=r"no game is installed.*pip install"):
        registry.get_game("switch16")
