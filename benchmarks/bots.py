"""Self-play speed: full games/s on one core for each bot level (median of a few runs),
and the master's decision time (every call the unit makes: decide and interject).

Run: python benchmarks/bots.py [--games N] [--repeats R] [--players P] [--decisions-only]
Targets: >= 2,000 4-player games/s per core with rulebook bots (issue 6); the master's
median decision <= 5 ms and p99 <= 20 ms on every preset (issue 15).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from firmware.games.selfplay import run
from firmware.games.switch16.bots import LEVELS, Bot, make_bot
from firmware.games.switch16.chance import chance_action
from firmware.games.switch16.engine import PRESETS, Act, Phase, State, make_rules
from firmware.games.switch16.game import GAME


def decision_times(
    preset: str,
    players: int,
    games: int,
    seed: int = 1,
    opponents: str = "expert",
    told: bool = True,
) -> list[float]:
    """Seconds per master call (decide, or interject while holding the chip), one master
    seat against bots of ``opponents``' level (``told``: the bots know the table), fresh
    processes' caches included (the first game is cold)."""
    rules = make_rules(preset)
    times: list[float] = []
    rng = random.Random(seed)
    clock = time.perf_counter
    for g in range(games):
        master = g % players
        table = [opponents] * players
        table[master] = "master"
        bots: list[Bot] = [
            make_bot(level, s, random.Random(g + s), table=table if told else None)
            for s, level in enumerate(table)
        ]
        state = State.new(players, rng.randrange(players), rules)
        while True:
            action = None
            for seat, act in state.actors():
                if act is Act.CHANCE:
                    action = chance_action(state, rng)
                    break
                t0 = clock()
                if act is Act.PLACE:
                    action = bots[seat].interject(state)
                    if seat == master:
                        times.append(clock() - t0)
                    if action is not None:
                        break
                    continue
                action = bots[seat].decide(state)
                if seat == master and state.phase is not Phase.DISCARD:
                    times.append(clock() - t0)  # the unit discards by itself
                break
            if action is None:
                break
            state = state.apply(action)
    return times


def report_decisions(games: int) -> None:
    for opponents, told in (("expert", True), ("rulebook", True), ("expert", False)):
        who = f"vs {opponents}" + ("" if told else ", table untold")
        for preset in PRESETS:
            for players in (2, 3, 4):
                times = sorted(decision_times(preset, players, games, 1, opponents, told))
                med = statistics.median(times) * 1000
                p99 = times[int(0.99 * (len(times) - 1))] * 1000
                print(
                    f"master {preset:16} {players}p {who:22}: {len(times):6,} calls, "
                    f"median {med:.3f} ms, p99 {p99:.2f} ms, max {times[-1] * 1000:.1f} ms"
                )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--decision-games", type=int, default=300)
    parser.add_argument("--decisions-only", action="store_true")
    args = parser.parse_args()
    report_decisions(args.decision_games)
    if args.decisions_only:
        return
    for level in LEVELS:
        seats = [level] * args.players
        run(GAME, seats, 200, seed=99)  # warm the tables
        times = []
        for r in range(args.repeats):
            t0 = time.perf_counter()
            run(GAME, seats, args.games, seed=r)
            times.append(time.perf_counter() - t0)
        med = statistics.median(times)
        print(f"{level:9} {args.players}-player: {args.games / med:7,.0f} games/s (median)")


if __name__ == "__main__":
    main()
