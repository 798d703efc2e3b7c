"""The games a unit offers: one line each, name -> the module that holds its ``GAME``.

A game's module imports the unit's controller and screens, which import the transcript
layer that reads this registry: so an entry names its module and is imported when the
game is first asked for (which also keeps ``switch16 run``'s start-up small). Tests
register a :class:`~firmware.games.game.Game` object directly.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from firmware.jsonsafe import short_repr

if TYPE_CHECKING:
    from .game import Game

#: The game a transcript plays when its header names none (every Switch 16 transcript).
DEFAULT_GAME = "switch16"

GAMES: dict[str, str | Game] = {
    "switch16": "firmware.games.switch16",
    "swytch": "firmware.games.swytch",
}


class UnknownGameError(ValueError):
    """A name that is not in :data:`GAMES`."""


def game_names() -> tuple[str, ...]:
    """The registered games' names, in registry order."""
    return tuple(GAMES)


def get_game(name: str = DEFAULT_GAME) -> Game:
    """The registered game ``name``; :class:`UnknownGameError` names the choices."""
    entry = GAMES.get(name) if isinstance(name, str) else None
    if entry is None:
        raise UnknownGameError(f"unknown game {short_repr(name)} (one of {', '.join(GAMES)})")
    if isinstance(entry, str):
        game: Game = importlib.import_module(entry).GAME
        GAMES[name] = game
        return game
    return entry


def game_question(current: str) -> tuple[tuple[str, ...], int] | None:
    """The set-up's first question, when more than one game is registered: the games'
    titles and the index of ``current``; CHIP moves on to :func:`next_game`."""
    if len(GAMES) < 2:
        return None
    names = game_names()
    return tuple(get_game(n).title for n in names), names.index(current)


def next_game(current: str) -> str:
    """The game after ``current`` in the set-up's game question (CHIP)."""
    names = game_names()
    return names[(names.index(current) + 1) % len(names)]
