"""A command line's set-up options for a game (``sim --option``, ``switch16 selfplay
--option``): ``KEY=VALUE`` words and a tool's shorthand flags, read by the game's
options spec (:mod:`.options`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .options import option_values, option_words, read_options
from .registry import game_names, get_game

if TYPE_CHECKING:
    from .game import Game


def given_options(game: Game, words: Sequence[str],
                  shorthands: Mapping[str, str | None]) -> dict[str, Any]:  # fmt: skip
    """A command line's set-up options for ``game``: its ``--option KEY=VALUE`` words
    and shorthand flags (``{"rules": "tablier", "points": None}``: ``--rules tablier``
    given, ``--points`` not), read by the game's spec; a ValueError names the option,
    or the flags a game does not take and the games that do."""
    values = option_words(words)
    for key, value in shorthands.items():
        if value is None:
            continue
        if key not in {o.name for o in game.options}:
            owners = [get_game(n).title for n in game_names()
                      if key in {o.name for o in get_game(n).options}]  # fmt: skip
            flags = " and ".join(f"--{k}" for k in shorthands)
            raise ValueError(f"{flags} are {' and '.join(owners) or 'no game'}'s, "
                             f"not {game.title}'s")  # fmt: skip
        values[key] = value
    try:
        return read_options(game.options, values, words=True)
    except ValueError as exc:
        raise ValueError(f"--option: {exc}") from None


def shorthand_values(key: str) -> tuple[Any, ...]:
    """The values a shorthand flag (``--rules``) may take: option ``key``'s in the
    spec of every registered game that has it, in order, once each."""
    values: dict[Any, None] = {}
    for name in game_names():
        values.update(dict.fromkeys(option_values(get_game(name).options, key)))
    return tuple(values)
