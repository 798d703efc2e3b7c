"""A command line's set-up options for a game (``sim``, ``switch16 selfplay``,
``switch16 run --seats``): ``--option KEY=VALUE`` words and the flags the games
declare in their options spec (:attr:`.options.Option.flag`: Switch 16's ``--rules``
and ``--points``). A tool adds and reads them here and names no option of a game."""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .options import Option, option_words, read_options
from .registry import GAMES, game_names, game_parts, get_game

if TYPE_CHECKING:
    from .game import Game


def declared_options(name: str) -> Sequence[Option]:
    """Registered game ``name``'s options spec; while the game is not loaded, from its
    package's ``options`` part (``OPTIONS``) where it has one, so that a command line's
    flags load no game (``switch16 run`` shows its splash before the unit loads)."""
    part = game_parts("options").get(name)
    if isinstance(GAMES.get(name), str) and part is not None:
        options: Sequence[Option] = importlib.import_module(part).OPTIONS
        return options
    return get_game(name).options


def option_flags() -> dict[str, list[tuple[str, Option]]]:
    """The flag options of the registered games: flag name -> (game name, option) of
    every game that declares it, in the registry's order."""
    out: dict[str, list[tuple[str, Option]]] = {}
    for name in game_names():
        for option in declared_options(name):
            if option.flag:
                out.setdefault(option.name, []).append((name, option))
    return out


def add_option_arguments(parser: argparse.ArgumentParser | argparse._ArgumentGroup, *,
                         words: bool = True, when: str = "") -> None:  # fmt: skip
    """``--option KEY=VALUE`` (``words``) and every registered game's flags on
    ``parser``; ``when`` says when they count (``"with --seats"``)."""
    after = f" {when}" if when else ""
    if words:
        parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                            help="a set-up option of the game (repeatable; e.g. --game "
                            "swytch --option ranks=10; an unknown key names the game's "
                            f"options){after}")  # fmt: skip
    for name, owners in option_flags().items():
        games = " and ".join(game for game, _ in owners)
        first = owners[0][1]
        if first.kind is bool:
            parser.add_argument(f"--{name}", action="store_true",
                                help=f"{first.label} ({games}){after}: "
                                f"--option {name}=true")  # fmt: skip
            continue
        values: dict[str, None] = {}
        for _, option in owners:
            values.update(dict.fromkeys(map(str, option.values or ())))
        choices = list(values) if all(o.values is not None for _, o in owners) else None
        metavar = name.upper()
        allowed = f"{', '.join(choices)}; " if choices else ""
        parser.add_argument(f"--{name}", choices=choices, metavar=metavar,
                            help=f"{first.label} ({games}: {allowed}default {first.default})"
                            f"{after}: --option {name}={metavar}")  # fmt: skip


def flag_words(args: argparse.Namespace) -> dict[str, str]:
    """The games' flags given on a command line (:func:`add_option_arguments`) as
    ``--option`` words: ``{"rules": "tablier", "points": "true"}``."""
    out = {}
    for name in option_flags():
        value = getattr(args, name, None)
        if value is not None and value is not False:
            out[name] = "true" if value is True else str(value)
    return out


def given_options(game: Game, words: Sequence[str],
                  flags: Mapping[str, str] | None = None) -> dict[str, Any]:  # fmt: skip
    """A command line's set-up options for ``game``: its ``--option KEY=VALUE`` words
    and the flags given (:func:`flag_words`), read by the game's spec; a ValueError
    names the option, or a flag the game does not take and the games that do."""
    values = option_words(words)
    flags = flags or {}
    declared = {o.name for o in game.options if o.flag}
    for key, value in flags.items():
        if key not in declared:
            owners = [get_game(name) for name, _ in option_flags().get(key, [])]
            names = [o.name for o in owners[0].options if o.flag] if owners else [key]
            titles = " and ".join(g.title for g in owners) or "no game"
            verb = "are" if len(names) > 1 else "is"
            raise ValueError(f"{' and '.join(f'--{n}' for n in names)} {verb} {titles}'s, "
                             f"not {game.title}'s")  # fmt: skip
        values[key] = value
    try:
        return read_options(game.options, values, words=True)
    except ValueError as exc:
        raise ValueError(f"--option: {exc}") from None
