"""Swytch bot strength: each level against the one below it and against a reference.

The reference (:class:`Reference`) is written here from the rules alone, through
``State.legal_actions`` and ``State.apply``: a plain fixed-depth alpha-beta whose
evaluation is material (counters on the board) and a won or lost end; it shares no code
with the bots. Each pairing plays ``--games`` games, the two sides' seats and the first
player alternating, and prints for the first-named player: wins / draws (by kind) /
losses, its win rate with a 95 % Wilson interval, the draws by the 100-quiet-turn rule
in which it led by 3 counters or more, game length, and both sides' CPU per move here
and on a Pi Zero 2 W (x K, benchmarks/ZERO_FACTOR.md), K calibrated to this host in the
same run (``zero_factor.Calibration``, timed before the first pairing and after each).

Targets (issue 33): the strongest level wins >= 50 % against the reference at equal CPU
per move, with quiet-rule draws from a lead of >= 3 under 5 %.

Run (the machine is shared: nice, one or two workers):
    nice -n 10 python benchmarks/swytch_bots.py [--games 200] [--jobs 2] [--seed 0]
        [--pairs medium:easy hard:medium hard:ref3] [--nodes LEVEL=N ...]
A side is a level (``random``, ``easy``, ``medium``, ``hard``) or ``refD``, the
reference at depth D.
"""

from __future__ import annotations

import argparse
import math
import random
import signal
import statistics
import time
from collections import Counter
from multiprocessing import Pool
from typing import NamedTuple, Protocol

from zero_factor import FACTORS, PLAN_FACTOR, Calibration  # beside this script

from firmware.games.swytch.actions import Action
from firmware.games.swytch.bots import LEVELS, SearchBot, make_bot
from firmware.games.swytch.state import Draw, State

#: A draw by the quiet rule "with a lead" when the player led by this many counters.
LEAD = 3
DEFAULT_PAIRS = ("medium:easy", "hard:medium", "hard:ref2", "hard:ref3")
_WIN = 10_000


class Reference:
    """A plain alpha-beta searcher at a fixed ``depth`` with a material evaluation;
    ``rng`` shuffles the actions at the root, so equal choices vary from game to game."""

    def __init__(self, depth: int, rng: random.Random) -> None:
        self.depth = depth
        self.rng = rng

    def decide(self, state: State) -> Action:
        actions = state.legal_actions()
        self.rng.shuffle(actions)
        best, alpha = actions[0], -_WIN - 1
        for action in _captures_first(state, actions):
            score = -self._value(state.apply(action), self.depth - 1, -_WIN - 1, -alpha, 1)
            if score > alpha:
                best, alpha = action, score
        return best

    def _value(self, state: State, depth: int, alpha: int, beta: int, ply: int) -> int:
        me = state.to_move
        if state.winner is not None:
            return (_WIN - ply) if state.winner == me else (ply - _WIN)
        if state.draw is not None:
            return 0
        if depth == 0:
            return state.left[me] - state.left[1 - me]
        best = -_WIN - 1
        for action in _captures_first(state, state.legal_actions()):
            score = -self._value(state.apply(action), depth - 1, -beta, -alpha, ply + 1)
            if score > best:
                best = score
                alpha = max(alpha, score)
                if alpha >= beta:
                    break
        return best


def _captures_first(state: State, actions: list[Action]) -> list[Action]:
    """``actions`` with the moves onto an opponent stack first (the rules' "attack")."""
    attacks = set(state.attacks())
    return [a for a in actions if a in attacks] + [a for a in actions if a not in attacks]


class Player(Protocol):
    def decide(self, state: State) -> Action: ...


def player(side: str, seat: int, rng: random.Random, nodes: dict[str, int]) -> Player:
    """A side by name: ``refD`` or a bot level (at ``nodes[level]`` if given)."""
    if side.startswith("ref"):
        return Reference(int(side[3:]), rng)
    bot = make_bot(side, seat, rng)
    if side in nodes and isinstance(bot, SearchBot):
        bot.nodes = nodes[side]
    return bot


class Game(NamedTuple):
    result: str  # for the first-named side: "win", "loss" or the draw's kind
    lead: int  # its counters less the other side's at the end
    plies: int
    cpu: tuple[list[float], list[float]]  # CPU seconds per move: first-named side, other


def play(job: tuple[str, str, int, int, dict[str, int]]) -> Game:
    """One game: ``a`` (the side measured) against ``b``; the index alternates the seats
    and, every two games, who starts."""
    a, b, seed, index, nodes = job
    rng = random.Random(f"{seed}/{a}/{b}/{index}")
    seat = index & 1
    sides: list[Player] = [None, None]  # type: ignore[list-item]
    sides[seat] = player(a, seat, random.Random(rng.getrandbits(64)), nodes)
    sides[1 - seat] = player(b, 1 - seat, random.Random(rng.getrandbits(64)), nodes)
    state = State.new(first=(index >> 1) & 1)
    cpu: tuple[list[float], list[float]] = ([], [])
    plies = 0
    while not state.is_terminal():
        mover = state.to_move
        start = time.process_time()
        action = sides[mover].decide(state)
        cpu[mover != seat].append(time.process_time() - start)
        state = state.apply(action)
        plies += 1
    if state.winner is not None:
        result = "win" if state.winner == seat else "loss"
    else:
        assert state.draw is not None
        result = "draw by repetition" if state.draw is Draw.REPETITION else "quiet draw"
    return Game(result, state.left[seat] - state.left[1 - seat], plies, cpu)


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a rate of ``wins`` in ``n``."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def _ms(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return 1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def _cpu_line(name: str, values: list[float], cal: Calibration) -> str:
    """CPU per move here and on the Zero: x K, calibrated to this host, at PLAN_FACTOR
    and at every factor in FACTORS."""
    p50, p90 = _ms(values, 0.5), _ms(values, 0.9)
    mean = 1000 * statistics.mean(values)
    k = cal.factor(PLAN_FACTOR)
    spread = "-".join(f"{p50 * cal.factor(f) / 1000:.2f}" for f in FACTORS)
    return (
        f"  {name:<8} CPU/move here: median {p50:.1f} ms, mean {mean:.1f}, p90 {p90:.1f}; "
        f"Zero (x{PLAN_FACTOR:g}, x{k:.1f} here): median {p50 * k / 1000:.2f} s "
        f"(x{'/'.join(f'{f:g}' for f in FACTORS)}: {spread} s), p90 {p90 * k / 1000:.2f} s"
    )


def report(a: str, b: str, games: list[Game], took: float, cal: Calibration) -> None:
    n = len(games)
    results = Counter(g.result for g in games)
    wins, losses = results.pop("win", 0), results.pop("loss", 0)
    low, high = wilson(wins, n)
    quiet_lead = sum(1 for g in games if g.result == "quiet draw" and g.lead >= LEAD)
    q_low, q_high = wilson(quiet_lead, n)
    plies = [g.plies for g in games]
    print(f"\n{a} vs {b}: {n} games in {took:.0f} s")
    print(
        f"  {a} wins {wins}, draws {sum(results.values())} {dict(results) or ''}, "
        f"losses {losses}; win rate {100 * wins / n:.1f} % (95 % {100 * low:.1f}-"
        f"{100 * high:.1f} %)"
    )
    print(
        f"  quiet draws with {a} ahead by >= {LEAD}: {quiet_lead} "
        f"({100 * quiet_lead / n:.1f} %, 95 % {100 * q_low:.1f}-{100 * q_high:.1f} %)"
    )
    print(
        f"  game length (turns): median {statistics.median(plies):.0f}, "
        f"mean {statistics.mean(plies):.1f}, max {max(plies)}"
    )
    print(_cpu_line(a, [t for g in games for t in g.cpu[0]], cal))
    print(_cpu_line(b, [t for g in games for t in g.cpu[1]], cal))
    print(f"  {cal.describe()}")


def _nodes(text: str) -> tuple[str, int]:
    level, _, value = text.partition("=")
    if level not in LEVELS or not value.isdigit() or int(value) < 1:
        raise argparse.ArgumentTypeError(f"--nodes wants LEVEL=N (N >= 1), got {text!r}")
    return level, int(value)


def _pair(text: str) -> tuple[str, str]:
    sides = text.split(":")
    for side in sides:
        if side not in LEVELS and not (
            side[:3] == "ref" and side[3:].isdigit() and side[3:] != "0"
        ):
            raise argparse.ArgumentTypeError(
                f"--pairs: {side!r} in {text!r} is neither a level ({', '.join(LEVELS)}) "
                "nor refD (the reference at depth D >= 1)"
            )
    if len(sides) != 2:
        raise argparse.ArgumentTypeError(f"--pairs wants A:B, got {text!r}")
    return sides[0], sides[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per pairing (200)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (2)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--pairs", nargs="+", type=_pair, default=[_pair(p) for p in DEFAULT_PAIRS])
    parser.add_argument("--nodes", nargs="+", type=_nodes, default=[], help="LEVEL=N budgets")
    args = parser.parse_args()
    if args.games < 1 or args.jobs < 1:
        parser.error("--games and --jobs must be at least 1")
    nodes = dict(args.nodes)
    # an interrupt reports the games played, also when started in the background (where
    # the shell has SIGINT ignored)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    budgets = ", ".join(
        f"{lv} {nodes.get(lv, cls.NODES)}"
        for lv, cls in LEVELS.items()
        if issubclass(cls, SearchBot)
    )
    print(f"Swytch bots, {args.games} games a pairing; node budgets: {budgets}")
    cal = Calibration()
    cal.measure()  # the host's speed before, and after each pairing: K for this host
    with Pool(min(args.jobs, args.games)) as pool:
        for a, b in args.pairs:
            start = time.perf_counter()
            jobs = [(a, b, args.seed, i, nodes) for i in range(args.games)]
            games: list[Game] = []
            try:
                for game in pool.imap_unordered(play, jobs):
                    games.append(game)
                    print(f"  {a} vs {b}: {len(games)}/{args.games}", end="\r", flush=True)
            except KeyboardInterrupt:  # report the games played, then stop
                pool.terminate()
                print(f"\ninterrupted after {len(games)} of {args.games} games")
                if games:
                    cal.measure()
                    report(a, b, games, time.perf_counter() - start, cal)
                return
            took = time.perf_counter() - start
            cal.measure()
            report(a, b, games, took, cal)


if __name__ == "__main__":
    main()
