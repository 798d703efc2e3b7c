"""``switch16 hil --port URL [SCRIPT…]``: the hardware-in-the-loop harness (docs/LINK.md)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from firmware.argtypes import link_url, positive_float, readable_file, writable_dir
from firmware.games.registry import game_names

HELP = "play scripted games against a unit over its serial link and check what it shows"


def game_list(text: str) -> list[str]:
    """``--games``: registered games' names, comma-separated."""
    names = [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in game_names()]
    if unknown or not names:
        raise argparse.ArgumentTypeError(f"unknown game {', '.join(unknown) or repr(text)} "
                                         f"(one of {', '.join(game_names())})")  # fmt: skip
    return names


def register(parser: argparse.ArgumentParser) -> None:
    # lazy: switch16 --help imports every command module: keep that light
    from firmware.link.target import VIAS

    target = parser.add_mutually_exclusive_group(required=True)
    target.add_argument("--port", metavar="URL", type=link_url,
                        help="the unit's link: /dev/ttyUSB0, a pty, socket://host:port, "
                        "rfc2217://host:port (any pyserial URL)")  # fmt: skip
    target.add_argument("--mock", choices=VIAS,
                        help="start a unit on mocked GPIO in another process and reach it "
                        "this way (ser2net: through a real ser2net, installed; adds a "
                        "power-cut test)")  # fmt: skip
    target.add_argument("--sim", choices=VIAS,
                        help="start `sim --headless --link` (the simulator, human seats) "
                        "in another process and reach it this way")  # fmt: skip
    parser.add_argument("--clock", choices=("real", "virtual"), default="real",
                        help="--mock/--sim: real time, or a virtual clock the harness moves "
                        "with `advance`")  # fmt: skip
    parser.add_argument("--mismatches", type=writable_dir, metavar="DIR",
                        help="save each mismatch's glass and expected render here")  # fmt: skip
    parser.add_argument("scripts", nargs="*", type=readable_file, metavar="SCRIPT",
                        help="*.hil scripts to play (default: the built-in suite)")  # fmt: skip
    parser.add_argument("--suite", action="store_true", help="the built-in suite too")
    parser.add_argument("--games", metavar="G,…", type=game_list,
                        help="the games whose scenarios the suite plays (default every "
                        "installed game)")  # fmt: skip
    parser.add_argument("--presets", metavar="P,…",
                        help="the set-ups of the games' whole games to play (presets, e.g. "
                        "tablier; default all)")  # fmt: skip
    parser.add_argument("--game-seconds", type=positive_float, default=90.0, metavar="S",
                        help="give up a game when it has had no action for this long, in "
                             "the unit's time (default 90)")  # fmt: skip
    parser.add_argument("--seed", type=int, default=1, help="the harness's choices")
    parser.add_argument("--no-frames", action="store_true",
                        help="do not check frames against render_seat")  # fmt: skip


def run(args: argparse.Namespace) -> int:
    # lazy: switch16 --help imports every command module: keep that light
    from firmware.link.client import LinkClient
    from firmware.link.harness import Harness
    from firmware.link.target import MockTarget

    via = args.mock or args.sim
    target = None
    if via:
        target = MockTarget(via, sim=bool(args.sim), virtual_clock=args.clock == "virtual")
    try:
        client = target.connect() if target is not None else LinkClient(args.port)
        print(f"hil: {target.url if target else args.port}", flush=True)
        harness = Harness(
            client,
            seed=args.seed,
            check_frames=not args.no_frames,
            progress=lambda line: print(line, flush=True),
            mismatch_dir=args.mismatches,
            game_seconds=args.game_seconds,
            restart=target.power_cut if target is not None else None,
        )
        print(f"hil: unit says {harness.hello}", flush=True)
        for script in args.scripts:
            harness.run_script(Path(script))
        if args.suite or not args.scripts:
            presets = args.presets.split(",") if args.presets else None
            harness.suite(presets, args.games)
        print(harness.report.summary(), flush=True)
        harness.c.close()
        return 0 if harness.report.ok else 1
    except (OSError, RuntimeError) as exc:
        print(f"hil: {exc}", file=sys.stderr)
        return 2
    finally:
        if target is not None:
            target.close()
