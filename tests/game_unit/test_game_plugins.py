"""A game is a plugin: a package installed with pip that names it under the
``switch16.games`` entry points is offered by the unit and read by its tools, with no
change to the firmware (here, the test game Nim in a package of its own)."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from firmware.games import registry
from firmware.games.switch16.setup import GameSetup, SetupMenu

ROOT = Path(__file__).resolve().parents[2]

PYPROJECT = """\
[build-system]
requires = ["setuptools"]
build-backend = "setuptools.build_meta"

[project]
name = "switch16-nim"
version = "1.0"

[project.entry-points."switch16.games"]
nim = "switch16_nim:GAME"
"""


@pytest.fixture(scope="module")
def nim_installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The directory pip installed the ``switch16-nim`` package into (--target)."""
    source = tmp_path_factory.mktemp("nim-src")
    (source / "pyproject.toml").write_text(PYPROJECT)
    (source / "switch16_nim.py").write_text(
        '"""Nim as a game package."""\nfrom tests.game_unit.nim import NIM as GAME\n'
    )
    target = tmp_path_factory.mktemp("site")
    pip = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target",
           str(target), str(source)]  # fmt: skip
    done = subprocess.run(pip, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    if done.returncode != 0:
        pytest.fail(f"pip install of the Nim package failed:\n{done.stderr}")
    return target


@pytest.fixture
def on_path(nim_installed: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.syspath_prepend(str(nim_installed))
    importlib.invalidate_caches()
    monkeypatch.setattr(registry, "GAMES", dict(registry.installed_games()))
    return nim_installed


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
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(on_path), str(ROOT)])}
    out = subprocess.run([sys.executable, "-m", "firmware", "replay", str(path)], env=env,
                         capture_output=True, text=True, stdin=subprocess.DEVNULL)  # fmt: skip
    assert out.returncode == 1, out.stdout + out.stderr  # 4 from a pile of 4: not legal
    assert "line 3" in out.stdout and "unknown game" not in out.stdout


def test_no_game_installed_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "GAMES", {})
    with pytest.raises(registry.UnknownGameError, match=r"no game is installed.*pip install"):
        registry.get_game("switch16")
