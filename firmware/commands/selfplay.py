"""``switch16 selfplay``: bots play each other headless; win rates and game statistics."""

from __future__ import annotations

import argparse
import json
import sys

from firmware.argtypes import positive_int, writable_dir
from firmware.games.command_line import add_option_arguments, flag_words, given_options
from firmware.games.game import Game, count_text
from firmware.games.registry import DEFAULT_GAME, UnknownGameError, get_game

HELP = "play games between bots headless and print win rates and game statistics"


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=positive_int, default=None, metavar="N",
                        help="games to play (default: the game's; Switch 16's 1000)")  # fmt: skip
    parser.add_argument("--game", type=game_name, default=DEFAULT_GAME, metavar="NAME",
                        help=f"the registered game to play (default {DEFAULT_GAME})")  # fmt: skip
    parser.add_argument("--seats", metavar="LEVELS",
                        help="comma-separated bot level per seat (default: the game's; "
                        "Switch 16's expert,rulebook,rulebook,rulebook)")  # fmt: skip
    add_option_arguments(parser)
    parser.add_argument("--jobs", type=positive_int, default=1, metavar="J",
                        help="processes to use")  # fmt: skip
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="seed of the run")
    parser.add_argument("--save", type=writable_dir, metavar="DIR",
                        help="write every game as DIR/game-NNNN.jsonl")  # fmt: skip
    parser.add_argument("--plots", type=writable_dir, metavar="DIR",
                        help="save PNG charts (needs matplotlib)")  # fmt: skip
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="progress bar on stderr (default: when stderr is a terminal)",
    )


def game_name(text: str) -> str:
    """A registered game's name (``--game``)."""
    try:
        return get_game(text).name
    except UnknownGameError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def parse_seats(text: str, game: Game | None = None) -> list[str]:
    """Bot levels of ``game`` (Switch 16's by default) from ``--seats``; ValueError
    names the bad entry."""
    game = game or get_game()
    levels, players = game.levels, game.seats
    seats = [part.strip() for part in text.split(",")]
    for i, name in enumerate(seats):
        if name not in levels:
            raise ValueError(
                f"--seats entry {i + 1} is {name!r}: not a bot level "
                f"(expected one of {', '.join(levels)})"
            )
    if len(seats) not in players:
        raise ValueError(f"--seats needs {count_text(players)} seats, got {len(seats)}")
    return seats


def run(args: argparse.Namespace) -> int:
    # lazy: every switch16 start (the unit's too) imports each command module
    from firmware.games import selfplay
    from firmware.games.progress import ProgressBar

    show = sys.stderr.isatty() if args.progress is None else args.progress
    try:
        game = get_game(args.game)
        seats = parse_seats(args.seats or ",".join(game.selfplay_seats), game)
        options = given_options(game, args.option, flag_words(args))
        result = selfplay.run(
            game,
            seats,
            args.games or game.selfplay_games,
            options,
            seed=args.seed,
            jobs=args.jobs,
            save_dir=args.save,
            plots=args.plots,
            progress=ProgressBar() if show else None,
        )
    except ValueError as exc:
        print(f"switch16 selfplay: error: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(result.to_json()) if args.json else result.table())
    return 0
