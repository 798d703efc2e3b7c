"""The test game Nim as a pip-installed game package (``switch16-nim``, a
``switch16.games`` entry point): installed once per session into a directory of its own,
put on the path by the tests that want it, so the registry finds it as it finds any
installed game (never by editing the registry)."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware.games import registry

ROOT = Path(__file__).resolve().parents[1]

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


@pytest.fixture(scope="session")
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
def on_path(nim_installed: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The Nim package on the path and the registry read again from what is installed."""
    monkeypatch.syspath_prepend(str(nim_installed))
    importlib.invalidate_caches()
    monkeypatch.setattr(registry, "GAMES", dict(registry.installed_games()))
    yield nim_installed


def plugin_env(site: Path) -> dict[str, str]:
    """The environment of a process of its own that finds the plugin (and the tests' Nim)."""
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), str(ROOT)])}
