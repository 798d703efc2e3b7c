"""``switch16 selfplay``: bots play each other headless; win rates and game statistics."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any

from firmware.argtypes import positive_int, writable_dir
from firmware.engine import DEFAULT_PRESET, PRESETS
from firmware.games.game import Game, count_text
from firmware.games.registry import DEFAULT_GAME, UnknownGameError, get_game

HELP = "play games between bots headless and print win rates and game statistics"

DEFAULT_SEATS = "expert,rulebook,rulebook,rulebook"


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=positive_int, default=None, metavar="N",
                        help="games to play (default: the game's; Switch 16's 1000)")  # fmt: skip
    parser.add_argument("--game", type=game_name, default=DEFAULT_GAME, metavar="NAME",
                        help=f"the registered game to play (default {DEFAULT_GAME})")  # fmt: skip
    parser.add_argument(
        "--seats",
        default=DEFAULT_SEATS,
        help=f"comma-separated bot level per seat, 2 to 4 seats (default {DEFAULT_SEATS})",
    )
    parser.add_argument("--rules", default=DEFAULT_PRESET, choices=list(PRESETS), metavar="PRESET",
                        help=f"rules preset ({', '.join(PRESETS)})")  # fmt: skip
    parser.add_argument("--points", action="store_true", help="play the points game to 100")
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


#: How to get the plots extra, the same words as docs/PLAYING.md's.
PLOTS_HINT = "in the checkout: python3 -m pip install -e '.[plots]'"


def run(args: argparse.Namespace) -> int:
    # lazy: every switch16 start (the unit's too) imports each command module
    from firmware.bots.stats.report import format_table
    from firmware.bots.stats.selfplay import ProgressBar, run_selfplay
    from firmware.engine import RulesError, make_rules

    show = sys.stderr.isatty() if args.progress is None else args.progress
    try:
        game = get_game(args.game)
        games = args.games or game.selfplay_games
        if game.name != DEFAULT_GAME:
            return _run_other(game, args, games, ProgressBar() if show else None)
        seats = parse_seats(args.seats)
        rules = make_rules(args.rules, {"points": True} if args.points else None)
    except (ValueError, RulesError) as exc:
        print(f"switch16 selfplay: error: {exc}", file=sys.stderr)
        return 2
    if args.plots:
        try:
            import matplotlib  # noqa: F401  # lazy: the optional plots extra, checked
        except ImportError:
            print(f"switch16 selfplay: error: --plots needs matplotlib ({PLOTS_HINT})",
                  file=sys.stderr)  # fmt: skip
            return 2
    summary = run_selfplay(
        seats,
        rules,
        games,
        seed=args.seed,
        jobs=args.jobs,
        save_dir=args.save,
        progress=ProgressBar() if show else None,
    )
    out: dict[str, Any] = summary.to_json()
    if args.plots:
        from firmware.bots.stats.plots import save_plots  # lazy: needs the plots extra

        out["plots"] = [str(p) for p in save_plots(summary, args.plots)]
    if args.json:
        print(json.dumps(out))
    else:
        print(format_table(summary))
        if args.save:
            print(f"transcripts: {args.save}/game-0001.jsonl …")
        for path in out.get("plots", []):
            print(f"plot: {path}")
    return 0


def _run_other(game: Game, args: argparse.Namespace, games: int,
               progress: Callable[[int, int], None] | None) -> int:  # fmt: skip
    """Self-play of a game other than Switch 16, through the game seam (its ``--seats``
    default: its strongest level at every seat it starts with); ``progress(done, total)``
    after each game."""
    from firmware.games.selfplay import run_games  # lazy: every switch16 start imports each command

    text = args.seats if args.seats != DEFAULT_SEATS else ",".join(
        [game.levels[-1]] * game.seats.start)  # fmt: skip
    seats = parse_seats(text, game)
    if args.rules != DEFAULT_PRESET or args.points or args.plots or args.jobs != 1:
        raise ValueError(
            f"--rules, --points, --plots and --jobs are Switch 16's, not {game.title}'s"
        )
    result = run_games(game, seats, games, seed=args.seed, save_dir=args.save, progress=progress)
    print(json.dumps(result.to_json()) if args.json else result.table())
    return 0
