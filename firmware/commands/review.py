"""``switch16 review FILE [--json] [--plots DIR]``: the master's review of a game (an
unfinished one up to where it stops)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from firmware.argtypes import writable_dir
from firmware.games.registry import DEFAULT_GAME

if TYPE_CHECKING:
    from firmware.bots.review import Review

HELP = "review a game (an unfinished one so far): each decision's P(win) against the master's best"


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="transcript (.jsonl); - reads standard input")
    parser.add_argument("--json", action="store_true", help="print the review as JSON")
    parser.add_argument(
        "--plots",
        metavar="DIR",
        type=writable_dir,
        help="save a P(win)-over-time chart per seat (needs matplotlib)",
    )


def run(args: argparse.Namespace) -> int:
    # lazy: switch16 --help imports every command module: keep that light
    from firmware.bots.review import format_review, review
    from firmware.transcript import replay_file, replay_text

    result = replay_text(sys.stdin.read()) if args.file == "-" else replay_file(args.file)
    if result.header is None or result.error is not None:
        print(f"switch16 review: error: {args.file}: {result.error}", file=sys.stderr)
        return 1
    if result.header.game != DEFAULT_GAME:
        print(f"switch16 review: error: {args.file}: a {result.header.game} game; the "
              f"reviews are Switch 16's (its master bot's)", file=sys.stderr)  # fmt: skip
        return 1
    if args.plots:
        try:
            # lazy: matplotlib, the plots extra
            import matplotlib  # noqa: F401
        except ImportError:
            print("switch16 review: error: --plots needs matplotlib "
                  "(in the checkout: python3 -m pip install -e '.[plots]')",
                  file=sys.stderr)  # fmt: skip
            return 2
    rev = review(result.header, result.actions)
    plots = save_plots(rev, args.plots) if args.plots else []
    if args.json:
        out = rev.to_json()
        out["file"] = args.file
        out["plots"] = [str(p) for p in plots]
        print(json.dumps(out))
    else:
        print(format_review(rev, args.file))
        for path in plots:
            print(f"plot: {path}")
    return 0


def save_plots(rev: Review, directory: Path) -> list[Path]:
    """One PNG per seat: its P(win) after each transcript line, its decisions marked."""
    # lazy: matplotlib, the plots extra
    import matplotlib

    from firmware.engine.seats import seat_name, seat_number

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
            ax.annotate(f"{d.text} -{d.loss * 100:.0f}%", (d.line, d.chosen), fontsize=7)
        ax.set_xlabel("transcript line")
        ax.set_ylabel("P(win), master's estimate")
        ax.set_ylim(0, 1)
        ax.legend(loc="upper left")
        fig.tight_layout()
        path = out / f"review-seat{seat_number(seat)}.png"
        fig.savefig(path, dpi=100)
        plt.close(fig)
        paths.append(path)
    return paths
