"""The games a unit offers: every installed package's ``switch16.games`` entry points.

A game is a plugin, like a HAL backend: its package's ``pyproject.toml`` names it,
``[project.entry-points."switch16.games"]`` ``mygame = "mypackage.game:GAME"``, and a
``pip install`` of the package adds it to the unit (its set-up menu, the link, the tools)
with no change here. An entry is imported when the game is first asked for (a game's
module imports the unit's controller and screens, and that keeps ``switch16 run``'s
start-up small). Tests may register a :class:`~firmware.games.game.Game` object directly.
"""

from __future__ import annotations

import importlib
import importlib.util
from functools import cache
from importlib import metadata
from typing import TYPE_CHECKING

from firmware.jsonsafe import short_repr

if TYPE_CHECKING:
    from .game import Game

#: The game a transcript plays when its header names none (every Switch 16 transcript).
DEFAULT_GAME = "switch16"
#: The entry-point group games register in.
ENTRY_POINT_GROUP = "switch16.games"


def installed_games() -> dict[str, str]:
    """Every installed game, name -> ``module:attribute``: the default game first, the
    others by name (the set-up's game question asks them in this order)."""
    found = {ep.name: ep.value for ep in metadata.entry_points(group=ENTRY_POINT_GROUP)}
    return dict(sorted(found.items(), key=lambda item: (item[0] != DEFAULT_GAME, item[0])))


#: The registered games, name -> ``module:attribute`` until first asked for, then the game.
GAMES: dict[str, str | Game] = dict(installed_games())


@cache
def game_parts(part: str) -> dict[str, str]:
    """Each installed game's own module ``part`` where its package has one, game name ->
    module name, found without importing the game (the package's ``__init__`` only): its
    sub-commands (``commands``, :mod:`firmware.cli`), its unit.toml sections
    (``config``, :mod:`firmware.settings`)."""
    found = {}
    for name, entry in installed_games().items():
        module = f"{entry.partition(':')[0]}.{part}"
        try:
            spec = importlib.util.find_spec(module)
        except ModuleNotFoundError:  # the game is a module, not a package
            spec = None
        if spec is not None:
            found[name] = module
    return found


class UnknownGameError(ValueError):
    """A name that is not in :data:`GAMES`."""


def game_names() -> tuple[str, ...]:
    """The registered games' names, in registry order."""
    return tuple(GAMES)


def get_game(name: str = DEFAULT_GAME) -> Game:
    """The registered game ``name``; :class:`UnknownGameError` names the choices."""
    entry = GAMES.get(name) if isinstance(name, str) else None
    if entry is None:
        if not GAMES:
            raise UnknownGameError(
                f"unknown game {short_repr(name)}: no game is installed (no {ENTRY_POINT_GROUP!r} "
                "entry points: install the firmware with pip, e.g. pip install -e .)"
            )
        raise UnknownGameError(f"unknown game {short_repr(name)} (one of {', '.join(GAMES)})")
    if isinstance(entry, str):
        module, _, attribute = entry.partition(":")
        game: Game = getattr(importlib.import_module(module), attribute or "GAME")
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
