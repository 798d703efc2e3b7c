"""The ``sim`` command line: options, the ``--bots`` syntax and the game it presets."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import platformdirs

from firmware.api import (
    DEFAULT_GAME,
    HUMAN,
    UnitSettings,
    add_option_arguments,
    count_text,
    flag_words,
    game_names,
    game_options,
    get_game,
    link_url,
    load_unit_config,
    nonempty,
    package_version,
    positive_float,
    positive_int,
    seat_index,
    seat_number,
    writable_dir,
)
from hal.config import ConfigError

#: Bot level of a seat named in ``--bots`` without a level (the default game's).
DEFAULT_LEVEL = get_game(DEFAULT_GAME).bot_level
#: The default game's bot levels, weakest first.
BOT_LEVELS = get_game(DEFAULT_GAME).levels


def parse_bots(spec: str, players: int, levels: Sequence[str] = BOT_LEVELS,
               default: str = DEFAULT_LEVEL) -> dict[int, str]:  # fmt: skip
    """``--bots`` → {seat index: level} (of ``levels``, a game's; a seat named without
    one: ``default``). Seats are numbered 1–4 as on the panels.

    ``2,3`` (default level), ``2:easy,4:expert``, ``all``, ``all:rulebook`` or
    ``others`` (every seat but seat 1); ``none``: no bots.
    """
    out: dict[int, str] = {}
    for item in filter(None, (part.strip() for part in spec.split(","))):
        seat_text, _, level = item.partition(":")
        level = level or default
        if level not in levels:
            raise ValueError(f"unknown bot level {level!r} (one of {', '.join(levels)})")
        if seat_text in ("all", "others"):
            first = 0 if seat_text == "all" else 1
            out.update((seat, level) for seat in range(first, players))
        elif seat_text == "none":
            continue
        elif seat_text.isdigit() and 0 <= seat_index(int(seat_text)) < players:
            out[seat_index(int(seat_text))] = level
        else:
            first, last = seat_number(0), seat_number(players - 1)
            raise ValueError(
                f"{seat_text!r} is not one of the seats {first}–{last} "
                "(a seat is SEAT or SEAT:LEVEL, e.g. 2:easy)"
            )
    return out


def default_players(spec: str, all_bots: bool = False, seats: range = range(2, 5),
                    levels: Sequence[str] = BOT_LEVELS) -> int:  # fmt: skip
    """Players when ``--players`` is not given (a game played by ``seats``): all it
    seats headless or with ``all``/``others``, else enough for the highest seat
    ``--bots`` names (at least its fewest)."""
    if all_bots or any(word in spec for word in ("all", "others")):
        return seats[-1]
    named = parse_bots(spec, seats[-1], levels, levels[-1])
    return max([seats.start, *(seat + 1 for seat in named)])


def _levels_by_game() -> str:
    """Each registered game's bot levels, weakest first, and its default."""
    return "; ".join(
        f"{name} {', '.join(get_game(name).levels)} (default {get_game(name).bot_level})"
        for name in game_names()
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="sim",
        description="Switch 16 unit simulator: the real firmware in a window.",
        epilog="Keys: seat 1 Z X C, seat 2 A S D, seat 3 Q W E, seat 4 J K L "
        "(roll/yes, pass/no, chip); hold SPACE or wiggle the mouse over the table to "
        "shake; F12 or P saves a screenshot; Esc quits.",
    )
    game = parser.add_argument_group("game (any of these but --game skips the set-up menu)")
    game.add_argument("--game", choices=game_names(), default=DEFAULT_GAME,
                      help=f"the game the unit starts with (default {DEFAULT_GAME}; its "
                      "set-up menu also asks)")  # fmt: skip
    game.add_argument(
        "--players", type=int, choices=range(2, 5), metavar="N", help="number of players, 2–4"
    )
    game.add_argument(
        "--bots",
        type=nonempty,
        metavar="SPEC",
        help="bot seats (1–4) and levels: '2,3', '2:easy,4:expert', 'all', "
        f"'others:rulebook'; levels by game: {_levels_by_game()}",
    )
    add_option_arguments(game)
    parser.add_argument("--seed", type=int, help="seed for the dice and the bots")
    parser.add_argument("--version", action="version", version=f"%(prog)s {package_version()}")
    parser.add_argument(
        "--scale",
        type=int,
        choices=range(1, 7),
        metavar="N",
        help="OLED pixel size in window pixels (default: fit the screen)",
    )
    parser.add_argument(
        "--oled", choices=("white", "blue"), default="white", help="OLED colour (default white)"
    )
    parser.add_argument("--config", metavar="FILE", type=nonempty,
                        help="unit config (hardware/unit.toml)")  # fmt: skip
    parser.add_argument(
        "--shots",
        metavar="DIR",
        type=writable_dir,
        default=Path("screenshots"),
        help="where the screenshot key saves PNGs (default ./screenshots)",
    )
    parser.add_argument(
        "--state-dir",
        metavar="DIR",
        type=writable_dir,
        help="journal directory (default: the user data directory's switch16/sim); an "
        "unfinished game there resumes unless game options are given",
    )
    parser.add_argument("--fps", type=positive_int, default=60, help="refresh cap (default 60)")
    parser.add_argument(
        "--mute", action="store_true", help="no sound (the window still shows the buzzer's note)"
    )
    demo = parser.add_argument_group("headless demo")
    demo.add_argument(
        "--headless",
        action="store_true",
        help="no window: bots play a game, print the turn log, save the transcript and screenshots",
    )
    demo.add_argument(
        "--out",
        metavar="DIR",
        type=writable_dir,
        default=None,
        help="where --headless writes (default: sim-demo, with --replay sim-replay, in the "
        "user data directory's switch16)",
    )
    demo.add_argument(
        "--shots-every",
        type=positive_int,
        default=8,
        metavar="N",
        help="demo: a screenshot every N turns (default 8)",
    )
    link = parser.add_argument_group("serial link (docs/LINK.md)")
    link.add_argument(
        "--link",
        metavar="URL",
        type=link_url,
        help="serve the unit's serial link on this pyserial URL (a pty, socket://…) in "
        "test mode, for `switch16 hil --port`; with --headless: human seats, no window",
    )
    link.add_argument(
        "--clock",
        choices=("real", "virtual"),
        default="real",
        help="--headless --link: real time, or a virtual clock the link's `advance` moves",
    )
    replay = parser.add_argument_group("watching a transcript")
    replay.add_argument(
        "--replay",
        type=nonempty,
        metavar="FILE",
        help="watch a transcript (a game from games/, a bug report, a journal): "
        "→/← step, PgDn/PgUp ten, Home/End, SPACE play, G + number + Enter a line",
    )
    replay.add_argument("--speed", type=positive_float, default=2.0, metavar="N",
                        help="lines a second when playing (default 2)")  # fmt: skip
    replay.add_argument(
        "--lines",
        type=nonempty,
        default="1,end",
        metavar="SPEC",
        help="with --headless: the lines to save as PNG, e.g. '1,10,20-25,end' or 'all'",
    )
    return parser


def preset_setup(args: argparse.Namespace, *, all_bots: bool = False) -> Any:
    """The set-up of ``args.game`` the options describe (None: let the unit's set-up
    menu ask); ValueError names an option the game does not take.

    ``all_bots`` (headless): every seat is a bot; seats ``--bots`` does not name get
    the game's demo levels (:attr:`~firmware.games.game.Game.demo_levels`); a game's
    flags (Switch 16's ``--rules``) are ``--option`` words.
    """
    flags = flag_words(args)
    given = args.players or args.bots is not None or flags or args.option
    if not given and not all_bots:
        return None
    game = args.game
    options = game_options(game, args.option, flags)
    played = get_game(game)
    levels, seats = played.levels, played.seats
    players = args.players or default_players(args.bots or "", all_bots, seats, levels)
    if players not in seats:
        raise ValueError(f"--players: {game} is played by {count_text(seats)}")
    bots = parse_bots(args.bots or "", players, levels, played.bot_level)
    demo = played.demo_levels
    kinds = tuple(bots.get(s, demo[s % len(demo)] if all_bots else HUMAN) for s in range(players))
    return played.setup_with(kinds, options)


def load_settings(args: argparse.Namespace) -> UnitSettings | None:
    """The unit's settings from ``--config`` (the reference build's without it); None
    once the reason they cannot be read is printed."""
    try:
        return load_unit_config(args.config)
    except ConfigError as exc:
        print(f"sim: {exc}", file=sys.stderr)
        return None


def user_data_dir(name: str) -> Path:
    """``name`` in the user data directory's switch16 (what the simulator writes
    unasked: never the directory it is started in, often a checkout)."""
    return Path(platformdirs.user_data_dir("switch16")) / name


def parse_lines(spec: str, last: int) -> list[int]:
    """``--lines``: "1,10,20-25", "all" or "end"; clamped to the replayed lines."""
    if spec == "all":
        return list(range(1, last + 1))
    out: list[int] = []
    for part in filter(None, (p.strip() for p in spec.split(","))):
        lo, _, hi = part.partition("-")
        try:
            a = last if lo == "end" else int(lo)
            b = a if not hi else last if hi == "end" else int(hi)
        except ValueError:
            raise ValueError(f"--lines: {part!r} is not a line number or range") from None
        if a < 1 or b < a:
            raise ValueError(f"--lines: {part!r} is not a range of lines from 1")
        out.extend(range(min(a, last), min(b, last) + 1))
    return sorted(set(out))


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.out is None:
        args.out = user_data_dir("sim-replay" if args.replay else "sim-demo")
    if args.replay:
        try:
            if not parse_lines(args.lines, 1):
                raise ValueError(f"--lines: {args.lines!r} names no line")
        except ValueError as exc:
            parser.error(str(exc))
    if args.clock == "virtual" and not (args.link and args.headless):
        parser.error("--clock virtual needs --headless --link URL")
    try:
        game = get_game(args.game)
        parse_bots(args.bots or "", args.players or game.seats[-1], game.levels, game.bot_level)
    except ValueError as exc:
        parser.error(f"--bots: {exc}")
    try:
        preset_setup(args)
    except ValueError as exc:
        parser.error(str(exc))
    return args
