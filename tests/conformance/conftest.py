"""The conformance suite runs once per installed game: the firmware's own (Switch 16,
Swytch) and the test game Nim, installed as a plugin package (:mod:`tests.plugin_games`).
Each game plays small and short: set-ups from its options' smallest values, bots at
every seat but the one the link enters by presses."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware.games import registry
from firmware.games.game import Game
from tests.plugin_games import nim_installed, on_path

__all__ = ["nim_installed", "on_path"]  # the fixtures

#: The games under test: every game the firmware installs, and the plugin package.
GAMES = (*registry.installed_games(), "nim")


@pytest.fixture(params=GAMES)
def name(request: pytest.FixtureRequest, on_path: Path) -> Iterator[str]:
    """A game's registry name, the game found through its entry point."""
    assert request.param in registry.installed_games(), "not installed as a plugin"
    yield request.param


@pytest.fixture
def game(name: str) -> Game:
    return registry.get_game(name)


def small_options(game: Game) -> dict[str, object]:
    """A short game: every numeric option at its smallest value."""
    return {o.name: o.values.start for o in game.options if isinstance(o.values, range)}


def seats_one_human(game: Game) -> list[str]:
    """Seat 1 a human, the others the weakest bot (the fewest seats the game takes)."""
    return ["human", *[game.levels[0]] * (game.seats.start - 1)]
