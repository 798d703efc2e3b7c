"""``switch16 replay FILE... [--json]``: replay transcripts and report where each ends."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from firmware.engine import COLOURS, State
from firmware.engine.rules import CARDS

if TYPE_CHECKING:
    from firmware.transcript import Replayed

HELP = "replay transcripts: final position, or the first bad line and why"


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE",
                        help="transcript (.jsonl) files; - reads standard input")  # fmt: skip
    parser.add_argument(
        "--json", action="store_true", help="one JSON line per file (docs/TRANSCRIPTS.md)"
    )


def run(args: argparse.Namespace) -> int:
    from firmware.transcript import replay_file, replay_text  # not on `switch16 run`'s path

    ok = True
    for path in args.files:
        result = replay_text(sys.stdin.read()) if path == "-" else replay_file(path)
        ok &= result.ok
        if args.json:
            print(json.dumps(result.to_json(path)), flush=True)
        else:
            print(summary(path, result), flush=True)
    return 0 if ok else 1


def summary(path: str, result: Replayed) -> str:
    """A readable account of where the transcript ends."""
    lines = [f"{path}:"]
    if result.header is not None:
        h = result.header
        extra = f", options {h.rules.options()}" if h.rules.options() else ""
        lines.append(
            f"  {h.players} players, rules {h.rules.name}{extra}, seat {h.first} started; "
            f"{len(result.actions)} actions replayed"
        )
    if result.state is not None:
        lines.extend("  " + line for line in describe(result.state))
    if result.error is not None:
        torn = " (last line cut short: an interrupted write?)" if result.torn else ""
        where = "ERROR at " if result.error.line is not None else "ERROR: "
        lines.append(f"  {where}{result.error}{torn}")
        if result.state is not None:
            lines.append("  (position above is the one before that line)")
    return "\n".join(lines)


def describe(state: State) -> list[str]:
    """Seat-by-seat lines for a position."""
    out = []
    for seat in range(state.players):
        marks = []
        if state.chip_holder == seat:
            marks.append("holds the chip")
        if state.blocked(seat):
            marks.append("BLOCKED")
        if state.winner == seat:
            marks.append("WINNER")
        elif seat == state.turn and not state.game_over:
            marks.append(f"to move ({state.phase.value})")
        top = state.top_card(seat)
        top_text = f"all {CARDS} gone" if top > CARDS else f"top card {top:2d}"
        score = f", {state.scores[seat]} pts" if state.scores is not None else ""
        note = f"  [{', '.join(marks)}]" if marks else ""
        out.append(f"seat {seat}: {COLOURS[state.deck_of(seat)]:6} {top_text}{score}{note}")
    if state.chip_holder is None and state.chip_on_seat is None:
        out.append("chip on the table")
    if state.match_winners:
        out.append("match won by seat(s) " + ", ".join(map(str, state.match_winners)))
    return out
