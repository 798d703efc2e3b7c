"""The conformance suite runs once per installed game: the firmware's own (Switch 16,
Swytch) and the test game Nim, installed as a plugin package (:mod:`tests.plugin_games`).
Each game plays short: the weakest bots, the fewest seats, a human seat where the link
enters moves by presses."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from firmware.games import registry
from firmware.games.game import Game
from firmware.unit import Unit
from hal.testing import MockPi, mock_pi_hal
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


def given_options(game: Game) -> dict[str, object]:
    """Every set-up option at its default, given explicitly (the tools read them
    through the game's options spec)."""
    return {o.name: o.default for o in game.options}


def seats_one_human(game: Game) -> list[str]:
    """Seat 1 a human, the others the weakest bot (the fewest seats the game takes)."""
    return ["human", *[game.levels[0]] * (game.seats.start - 1)]


def option_words(game: Game) -> list[str]:
    """``--option key=value`` for each of the game's options, at its default (the
    command lines of ``sim`` and ``switch16 selfplay``)."""
    words = {k: str(v).lower() if isinstance(v, bool) else str(v)
             for k, v in given_options(game).items()}  # fmt: skip
    return [w for k, v in words.items() for w in ("--option", f"{k}={v}")]


def bot_setup(game: Game) -> object:
    """A game of the weakest bots at the fewest seats."""
    return game.setup_with([game.levels[0]] * game.seats.start, given_options(game))


@contextmanager
def unit_on_mock_pi(directory: Path, **unit_kwargs: Any) -> Iterator[tuple[MockPi, Unit]]:
    """A started unit on the real Pi backend over gpiozero's MockFactory (the reference
    build, emulated panels) on virtual time; leaving the block pulls the plug (the
    journal is left as it is)."""
    with mock_pi_hal() as pi:
        unit = Unit(pi.hal, directory, rng=random.Random(1), **unit_kwargs)
        unit.start()
        yield pi, unit


def glass_shows_views(pi: MockPi, unit: Unit) -> bool:
    """Every seat's panel shows the game's render of its view of the unit's UI state."""
    game, ui = unit.game, unit.controller.ui()
    return not unit.refresh_pending and all(
        pi.glass(seat).tobytes() == game.render(game.seat_view(ui, seat)).convert("1").tobytes()
        for seat in range(len(pi.hal.seats))
    )
