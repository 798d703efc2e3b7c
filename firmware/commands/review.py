"""``switch16 review FILE [--json] [--plots DIR]``: a game reviewed by its game's strongest
bot (Switch 16's master, Swytch's searching bot; an unfinished one up to where it stops)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from firmware.argtypes import writable_dir
from firmware.games.registry import get_game

if TYPE_CHECKING:
    from firmware.games.game import GameReview

HELP = "review a game (an unfinished one so far): each decision against the strongest bot's best"


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="transcript (.jsonl); - reads standard input")
    parser.add_argument("--json", action="store_true", help="print the review as JSON")
    parser.add_argument(
        "--plots",
        metavar="DIR",
        type=writable_dir,
        help="save a value-over-time chart per seat (P(win) in Switch 16; needs matplotlib)",
    )


def run(args: argparse.Namespace) -> int:
    # lazy: switch16 --help imports every command module: keep that light
    from firmware.transcript import replay_file, replay_text

    result = replay_text(sys.stdin.read()) if args.file == "-" else replay_file(args.file)
    if result.header is None or result.error is not None:
        print(f"switch16 review: error: {args.file}: {result.error}", file=sys.stderr)
        return 1
    game = get_game(result.header.game)
    if args.plots:
        try:
            # lazy: matplotlib, the plots extra
            import matplotlib  # noqa: F401
        except ImportError:
            print("switch16 review: error: --plots needs matplotlib "
                  "(in the checkout: python3 -m pip install -e '.[plots]')",
                  file=sys.stderr)  # fmt: skip
            return 2
    rev = game.review_game(result.header, result.actions)
    if rev is None:
        print(f"switch16 review: error: {args.file}: a {game.title} game: this game has no "
              f"review", file=sys.stderr)  # fmt: skip
        return 1
    plots = save_plots(rev, args.plots) if args.plots else []
    if args.json:
        out = rev.to_json()
        out["file"] = args.file
        out["plots"] = [str(p) for p in plots]
        print(json.dumps(out))
    else:
        print(rev.report(args.file))
        for path in plots:
            print(f"plot: {path}")
    return 0


def save_plots(rev: GameReview, directory: Path) -> list[Path]:
    """One PNG per seat: its value (P(win) in Switch 16) after each transcript line, its
    decisions marked."""
    # lazy: matplotlib, the plots extra
    import matplotlib

    from firmware.kernel.seats import seat_name, seat_number

    matplotlib.use("Agg")
    # lazy: matplotlib, the plots extra
    import matplotlib.pyplot as plt

    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    xs = list(range(1, len(rev.curve) + 1))
    for seat in range(rev.header.players):
        fig, ax = plt.subplots(figsize=(7, 3.5))
        ax.plot(xs, [row[seat] for row in rev.curve], label=seat_name(seat))
        marks = rev.seat_decisions(seat)
        ax.scatter([d.line for d in marks], [d.chosen for d in marks], s=8, color="black",
                   label="decisions")  # fmt: skip
        for d in rev.mistakes(seat):
            ax.annotate(f"{d.text} {rev.loss_text(d)}", (d.line, d.chosen), fontsize=7)
        ax.set_xlabel("transcript line")
        ax.set_ylabel(rev.value_name)
        if rev.value_range is not None:
            ax.set_ylim(*rev.value_range)
        ax.legend(loc="upper left")
        fig.tight_layout()
        path = out / f"review-seat{seat_number(seat)}.png"
        fig.savefig(path, dpi=100)
        plt.close(fig)
        paths.append(path)
    return paths
