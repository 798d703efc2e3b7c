"""``switch16 replay FILE... [--json]``: replay transcripts and report where each ends."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING

from firmware.argtypes import positive_int
from firmware.games.registry import DEFAULT_GAME, get_game

if TYPE_CHECKING:
    from firmware.transcript import Replayed

HELP = "replay transcripts: final position, or the first bad line and why"


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE",
                        help="transcript (.jsonl) files; - reads standard input")  # fmt: skip
    parser.add_argument(
        "--json", action="store_true", help="one JSON line per file (docs/TRANSCRIPTS.md)"
    )
    parser.add_argument(
        "--jobs", type=positive_int, default=None, metavar="N",
        help=f"worker processes (default: one per core, up to {MAX_JOBS}, from "
        f"{PARALLEL_FROM} files on; 1: none); the output is the same, in order",
    )  # fmt: skip


def run(args: argparse.Namespace) -> int:
    ok = True
    for good, text in _results(args.files, args.json, _jobs(args)):
        ok &= good
        print(text, flush=True)
    return 0 if ok else 1


#: Replays go to worker processes from this many files on (below, starting them costs
#: more than it saves), at most this many workers.
PARALLEL_FROM = 64
MAX_JOBS = 4


def _jobs(args: argparse.Namespace) -> int:
    """Processes to replay with: ``--jobs`` (never more than the files), else one for
    a few files, up to :data:`MAX_JOBS` for many."""
    if args.jobs:
        return min(int(args.jobs), len(args.files))
    if len(args.files) < PARALLEL_FROM or "-" in args.files:
        return 1
    return max(1, min(MAX_JOBS, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
                      else os.cpu_count() or 1))  # fmt: skip


def _results(files: list[str], as_json: bool, jobs: int) -> Iterator[tuple[bool, str]]:
    """(ok, what to print) per file, in the order given."""
    if jobs > 1 and "-" not in files:
        # lazy: multiprocessing is slow to import; only for many files
        import multiprocessing

        if "fork" in multiprocessing.get_all_start_methods():
            # Chunks of files per task: the order is kept (imap), each worker's line
            # cache warms up over its chunks.
            size = max(1, min(256, len(files) // (jobs * 8)))
            chunks = [(files[i : i + size], as_json) for i in range(0, len(files), size)]
            with multiprocessing.get_context("fork").Pool(jobs) as pool:
                for chunk in pool.imap(_replay_chunk, chunks):
                    yield from chunk
            return
    for path in files:
        yield _replay_one(path, as_json)


def _replay_chunk(task: tuple[list[str], bool]) -> list[tuple[bool, str]]:
    paths, as_json = task
    return [_replay_one(path, as_json) for path in paths]


def _replay_one(path: str, as_json: bool) -> tuple[bool, str]:
    # lazy: switch16 --help imports every command module: keep that light
    from firmware.transcript import replay_file, replay_text

    result = replay_text(sys.stdin.read()) if path == "-" else replay_file(path)
    text = json.dumps(result.to_json(path)) if as_json else summary(path, result)
    return result.ok, text


def summary(path: str, result: Replayed) -> str:
    """A readable account of where the transcript ends."""
    lines = [f"{path}:"]
    if result.header is not None:
        game = get_game(result.header.game)
        lines.append(f"  {game.header_text(result.header)}; {len(result.actions)} actions replayed")
    if result.state is not None:
        game = get_game(result.header.game if result.header is not None else DEFAULT_GAME)
        lines.extend("  " + line for line in game.describe(result.state))
    if result.error is not None:
        torn = " (last line cut short: an interrupted write?)" if result.torn else ""
        where = "ERROR at " if result.error.line is not None else "ERROR: "
        lines.append(f"  {where}{result.error}{torn}")
        if result.state is not None:
            lines.append("  (position above is the one before that line)")
    return "\n".join(lines)
