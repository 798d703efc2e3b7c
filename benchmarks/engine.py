"""Engine speed: transcript replay (actions/s) and full random games/s.

Run: python benchmarks/engine.py [--games N] [--repeats R]
Target (issue 2): >= 300,000 actions/s replayed on a 2-core x86-64 CI machine.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from firmware import transcript
from firmware.games.switch16 import transcript_lines
from firmware.games.switch16.bots import random_bots
from firmware.games.switch16.chance import new_header
from firmware.games.switch16.driver import play
from firmware.games.switch16.engine import PRESETS, make_rules
from firmware.games.switch16.transcript_lines import action_line
from firmware.transcript import header_line, replay_text


def _parser() -> str:
    return getattr(transcript._loads, "__module__", None) or "orjson"


def make_transcripts(games: int, seed: int) -> tuple[list[str], int]:
    rng = random.Random(seed)
    texts, actions = [], 0
    presets = list(PRESETS)
    for i in range(games):
        rules = make_rules(presets[i % len(presets)])
        header = new_header(rng, 2 + i % 3, rules)
        _, acts = play(header.initial_state(), random_bots(header.players, rng), rng)
        texts.append("\n".join([header_line(header), *map(action_line, acts)]) + "\n")
        actions += len(acts)
    return texts, actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()

    texts, actions = make_transcripts(args.games, seed=16)
    print(f"transcripts: {args.games} random games, {actions} actions; JSON parser: {_parser()}")
    transcript_lines._LINE_CACHE.clear()
    transcript_lines._STEPS.clear()
    t0 = time.perf_counter()
    for text in texts:
        replay_text(text)
    cold = time.perf_counter() - t0
    print(f"replay, cold line cache: {actions / cold:,.0f} actions/s")
    replay_times = []
    for _ in range(args.repeats):
        t0 = time.perf_counter()
        for text in texts:
            result = replay_text(text)
            assert result.ok, result.error
        replay_times.append(time.perf_counter() - t0)
    med = statistics.median(replay_times)
    print(
        f"replay, warm: median {med * 1e3:.1f} ms -> {actions / med:,.0f} actions/s"
        " (target 300,000)"
    )

    game_times = []
    rng = random.Random(7)
    rules = make_rules()
    for _ in range(args.repeats):
        t0 = time.perf_counter()
        for _ in range(100):
            play(new_header(rng, 4, rules).initial_state(), random_bots(4, rng), rng)
        game_times.append(time.perf_counter() - t0)
    gmed = statistics.median(game_times)
    print(f"random 4-player games (driver, random bots): {100 / gmed:,.0f} games/s (median)")


if __name__ == "__main__":
    main()
