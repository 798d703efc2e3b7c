"""``switch16 replay`` of a large corpus, whole process, against another checkout.

    python3 benchmarks/replay.py [--games 3000] [--against DIR] [--repeats 3] [--jobs N]

Writes a seeded corpus of random-bot transcripts (2-4 players, every preset, every
other one a points match) to a temporary directory, then runs
``python3 -m firmware replay`` (text and ``--json``) on all of it in a fresh process,
``--repeats`` times, for this checkout and, with ``--against``, for another one (e.g.
the original code: ``git archive 8589caf | tar -x -C /tmp/orig``), the two interleaved
(paired runs). Prints the median wall and CPU (user + sys of the process and its
workers) times and their ratios, and checks that both checkouts print byte-identical
output. ``--jobs`` goes to both checkouts' replay.

The processes run with the checkout as their working directory, so each imports its
own ``firmware`` (the current directory comes first on ``python -m``'s path).
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from firmware.games.switch16.bots import random_bots
from firmware.games.switch16.chance import new_header
from firmware.games.switch16.driver import play
from firmware.games.switch16.engine import PRESETS, make_rules
from firmware.games.switch16.transcript_lines import action_line
from firmware.transcript import header_line

HERE = Path(__file__).resolve().parent.parent


def write_corpus(directory: Path, games: int, seed: int = 16) -> tuple[list[str], int]:
    rng = random.Random(seed)
    presets = list(PRESETS)
    files, actions = [], 0
    for i in range(games):
        rules = make_rules(presets[i % len(presets)], {"points": i % 2 == 0})
        header = new_header(rng, 2 + i % 3, rules)
        _, acts = play(header.initial_state(), random_bots(header.players, rng), rng)
        path = directory / f"g{i:04d}.jsonl"
        path.write_text("\n".join([header_line(header), *map(action_line, acts)]) + "\n")
        files.append(str(path))
        actions += len(acts)
    return files, actions


def timed(checkout: Path, args: list[str]) -> tuple[float, float, bytes]:
    """(wall s, CPU s of the process and its children, stdout) of one replay process."""
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-m", "firmware", "replay", *args],
        cwd=checkout,
        env=env,
        capture_output=True,
        check=False,
    ).stdout
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--against", type=Path, help="another checkout to compare with")
    parser.add_argument("--jobs", help="passed to both checkouts' replay (default: their own)")
    args = parser.parse_args()
    checkouts = {"this": HERE}
    if args.against is not None:
        checkouts = {"against": args.against.resolve(), **checkouts}
    with tempfile.TemporaryDirectory() as tmp:
        files, actions = write_corpus(Path(tmp), args.games)
        print(f"corpus: {args.games} random-bot games, {actions:,} actions")
        for flags in ([], ["--json"]):
            runs: dict[str, list[tuple[float, float]]] = {name: [] for name in checkouts}
            outputs: dict[str, bytes] = {}
            extra = ["--jobs", args.jobs] if args.jobs else []
            for _ in range(args.repeats):
                for name, checkout in checkouts.items():
                    wall, cpu, out = timed(checkout, [*flags, *extra, *files])
                    runs[name].append((wall, cpu))
                    outputs[name] = out
            best = {
                name: (statistics.median(w for w, _ in r), statistics.median(c for _, c in r))
                for name, r in runs.items()
            }
            label = "replay " + " ".join(flags) if flags else "replay"
            for name, (wall, cpu) in best.items():
                print(f"{label:16} {name:8} wall {wall:6.2f} s   CPU {cpu:6.2f} s")
            if "against" in best:
                (w0, c0), (w1, c1) = best["against"], best["this"]
                same = outputs["against"] == outputs["this"]
                print(
                    f"{label:16} ratio    wall {w0 / w1:5.2f}x   CPU {c0 / c1:5.2f}x   "
                    f"output {'identical' if same else 'DIFFERS'}"
                )


if __name__ == "__main__":
    main()
