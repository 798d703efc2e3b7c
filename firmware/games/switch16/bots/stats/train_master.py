"""Regenerate the master's win-probability model
(``firmware/games/switch16/bots/data/master.json``).

    python3 -m firmware.games.switch16.bots.stats.train_master [--games N] [--seed S] [--out FILE]

For every preset and player count: self-play games between expert and rulebook
bots (levels drawn per seat from the seed), every turn's starting position recorded
with the game's winner; identical positions (seats rotated so the roller is seat 0)
are counted together; then the conditional logit of :mod:`firmware.games.switch16.bots.value` is
fitted by maximum likelihood (full-batch Adam, a little L2). Two players are then
solved by value iteration: both seats maximising, and the best response to the
expert's policy. Four players, a master against three rulebook bots: a role model
(:class:`~firmware.games.switch16.bots.value.RoleModel`) fitted to the outcomes of such games, then
refitted a few rounds to the turn search's values of every position seen (fitted
value iteration; ``--roles-only`` redoes just this from the file's other models).
Deterministic for a seed on one machine. Needs numpy (the ``train`` extra:
``python3 -m pip install -e '.[train]'``); play does not.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from firmware.kernel.rolloff import roll_off

from ...driver import moves
from ...engine import PRESETS, Roll, Rules, State
from .. import make_bot
from ..master import MasterBot
from ..search import MAX, Search
from ..value import (
    DATA_FILE,
    Key,
    Model,
    RoleModel,
    TableModel,
    features,
    key_of,
    load_data,
    offsets,
    role_features,
    role_size,
    table_keys,
)

LEVELS_MIX = ("expert", "rulebook")
#: Bot levels a two-player best response is solved against.
RESPONSES = ("expert",)
DEFAULT_GAMES = 40_000
#: Role models: (player count, bot level) of the tables a master meets, games and rounds.
ROLES = ((4, "rulebook"),)
ROLE_GAMES = 20_000
ROLE_ROUNDS = 6


def rotate(key: Key) -> Key:
    """The same position with seats renumbered so the seat to move is seat 0."""
    ds, blocked, holder, turn = key
    n = len(ds)
    ds = ds[turn:] + ds[:turn]
    blocked = -1 if blocked < 0 else (blocked - turn) % n
    holder = -1 if holder < 0 else (holder - turn) % n
    return ds, blocked, holder, 0


def turn_starts(
    rules: Rules, levels: Sequence[str], game_rng: random.Random, search: Search | None = None
) -> tuple[list[Key], int]:
    """One game of bots of ``levels`` (chance from ``game_rng``): every turn's starting
    position, and the winner. ``search``: a master seat's (default: its own)."""
    players = len(levels)
    first = roll_off(game_rng, range(players))[0]
    bots = [
        make_bot(lv, s, random.Random(game_rng.getrandbits(32)), table=levels)
        for s, lv in enumerate(levels)
    ]
    if search is not None:
        for bot in bots:
            if isinstance(bot, MasterBot):
                bot.use_search(search)
    last = State.new(players, first, rules)
    seen: list[Key] = []
    for before, action, after in moves(last, bots, game_rng):
        if type(action) is Roll and not before.risk:
            seen.append(key_of(before))
        last = after
    assert last.winner is not None
    return seen, last.winner


def collect(
    rules: Rules, players: int, games: int, seed: int, levels_mix: Sequence[str]
) -> dict[Key, list[int]]:
    """Turn-start positions (rotated) → wins per (rotated) seat."""
    counts: dict[Key, list[int]] = {}
    rng = random.Random(seed)
    for _ in range(games):
        levels = [rng.choice(levels_mix) for _ in range(players)]
        seen, winner = turn_starts(rules, levels, random.Random(rng.getrandbits(64)))
        for key in seen:
            rk = rotate(key)
            row = counts.get(rk)
            if row is None:
                row = counts[rk] = [0] * players
            row[(winner - key[3]) % players] += 1
    return counts


def fit(
    counts: Mapping[Key, Sequence[float]],
    players: int,
    iters: int = 600,
    feats: Callable[[Key], list[list[int]]] = features,
    total: int = 0,
    start: Sequence[float] | None = None,
) -> list[float]:
    """Maximum-likelihood weights of the conditional logit for ``counts`` (wins per
    seat, or any non-negative weights: observations × target probabilities); ``feats``
    and ``total``: the model's feature indices and weight count (default: a
    :class:`Model`'s); ``start``: the weights to start from (default: zeros)."""
    import numpy as np  # lazy: numpy is the optional train extra (collect runs without it)

    keys = list(counts)
    rows = [feats(key) for key in keys]
    width = max(5, *(len(f) for row in rows for f in row))
    total = total or offsets(players)["total"]
    idx = np.full((len(keys), players, width), total, dtype=np.int64)  # ``total``: a zero pad
    for r, row in enumerate(rows):
        for j, f in enumerate(row):
            idx[r, j, : len(f)] = f
    wins = np.array([counts[k] for k in keys], dtype=np.float64)
    n_obs = wins.sum(axis=1)
    w = np.zeros(total + 1) if start is None else np.array([*start, 0.0])
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    lr, b1, b2, l2 = 0.05, 0.9, 0.999, 1e-4
    norm = n_obs.sum()
    flat = idx.reshape(len(keys), players * width)
    for t in range(1, iters + 1):
        scores = w[idx].sum(axis=2)
        scores -= scores.max(axis=1, keepdims=True)
        e = np.exp(scores)
        p = e / e.sum(axis=1, keepdims=True)
        resid = p * n_obs[:, None] - wins  # d(-loglik)/d(score)
        g_rows = np.repeat(resid, width, axis=1).reshape(len(keys), players * width)
        grad = np.bincount(flat.ravel(), weights=g_rows.ravel(), minlength=total + 1) / norm
        grad += l2 * w
        grad[total] = 0.0
        m = b1 * m + (1 - b1) * grad
        v = b2 * v + (1 - b2) * grad * grad
        w -= lr * (m / (1 - b1**t)) / (np.sqrt(v / (1 - b2**t)) + 1e-8)
        w[total] = 0.0
    return [round(float(x), 5) for x in w[:total]]


def solve_two_players(
    rules: Rules, start: Model, tol: float = 1e-7, against: str = "max"
) -> list[float]:
    """Two players: value iteration over every turn-start position with the turn search
    (each seat maximising its own P(win), the chip holder free to lay the chip before
    any roll; or seat 1 playing the bot policy ``against``: seat 0's best response),
    from ``start``'s values, damped by half; P(seat 0 wins) in table order."""
    keys = table_keys(2)
    values = [start.probs(k)[0] for k in keys]
    kinds = ("max", against)
    for _ in range(5000):
        search = Search(rules, 2, TableModel(2, values), kinds)
        new = [search.roll_turn(k[3], k[0], k[1], k[2], False)[0] for k in keys]
        diff = max(abs(a - b) for a, b in zip(new, values, strict=True))
        values = [(a + b) / 2 for a, b in zip(new, values, strict=True)]
        if diff < tol:
            break
    return [round(v, 6) for v in values]


def fit_role(
    name: str, players: int, level: str, generic: list[float], games: int, seed: int, rounds: int
) -> list[float]:
    """A master in seat 0, searching with the ``generic`` model, against bots of
    ``level``: a :class:`RoleModel` fitted to the outcomes of ``games`` games, then
    ``rounds`` times refitted to the turn search's values (the search reading the
    previous fit) of every turn start seen, each weighted by how often it was seen."""
    rules = PRESETS[name]
    levels = ["master", *[level] * (players - 1)]
    kinds = (MAX, *[level] * (players - 1))
    search = Search(rules, players, Model(players, generic), kinds)  # memoised across games
    rng = random.Random(seed)
    wins: dict[Key, list[int]] = {}
    for _ in range(games):
        seen, winner = turn_starts(rules, levels, random.Random(rng.getrandbits(64)), search)
        for key in seen:
            row = wins.get(key)
            if row is None:
                row = wins[key] = [0] * players
            row[winner] += 1

    def feats(key: Key) -> list[list[int]]:
        return role_features(key, 0)

    total = 2 * role_size(players)
    weights = fit(wins, players, feats=feats, total=total)
    for _ in range(rounds):
        search = Search(rules, players, RoleModel(players, weights, 0), kinds)
        backed: dict[Key, list[float]] = {}
        for key, row in wins.items():
            seen_n = sum(row)
            values = search.roll_turn(key[3], key[0], key[1], key[2], False)
            backed[key] = [seen_n * v for v in values]
        weights = fit(backed, players, 500, feats, total, weights)
    return weights


def _fit_role(job: tuple[str, int, str, list[float], int, int, int]) -> list[float]:
    return fit_role(*job)


def train_roles(
    models: dict[str, list[float]], games: int, seed: int, rounds: int, jobs: int
) -> dict[str, list[float]]:
    """Every preset's role models (:data:`ROLES`), from its generic ``models``."""
    todo = [
        (
            name,
            players,
            level,
            models[f"{name}/{players}"],
            games,
            seed * 100 + p_i * 10 + 7,
            rounds,
        )
        for p_i, name in enumerate(PRESETS)
        for players, level in ROLES
    ]
    if jobs > 1:
        with multiprocessing.get_context("spawn").Pool(min(jobs, len(todo))) as pool:
            out = pool.map(_fit_role, todo)
    else:
        out = [_fit_role(job) for job in todo]
    return {f"{job[0]}/{job[1]}/{job[2]}": w for job, w in zip(todo, out, strict=True)}


def train(
    games: int, seed: int, levels_mix: Sequence[str], role_games: int, rounds: int, jobs: int
) -> dict[str, Any]:
    models: dict[str, list[float]] = {}
    solved: dict[str, list[float]] = {}
    responses: dict[str, list[float]] = {}
    for p_i, (name, rules) in enumerate(PRESETS.items()):
        for players in (2, 3, 4):
            t0 = time.perf_counter()
            counts = collect(rules, players, games, seed * 100 + p_i * 10 + players, levels_mix)
            weights = models[f"{name}/{players}"] = fit(counts, players)
            if players == 2:
                table = solved[f"{name}/2"] = solve_two_players(rules, Model(2, weights))
                for level in RESPONSES:
                    responses[f"{name}/2/{level}"] = solve_two_players(
                        rules, TableModel(2, table), against=level
                    )
            took = time.perf_counter() - t0
            print(f"{name}/{players}: {len(counts)} positions, {took:.0f} s", file=sys.stderr)
    return {
        "format": 1,
        "about": "switch16 master bot: conditional-logit win model"
        " (firmware/games/switch16/bots/value.py)",
        "games": games,
        "seed": seed,
        "levels": list(levels_mix),
        "models": models,
        "tables": solved,
        "responses": responses,
        **role_data(models, role_games, seed, rounds, jobs),
    }


def role_data(
    models: dict[str, list[float]], games: int, seed: int, rounds: int, jobs: int
) -> dict[str, Any]:
    return {
        "role_games": games,
        "role_rounds": rounds,
        "roles": train_roles(models, games, seed, rounds, jobs),
    }


NO_NUMPY = "train_master: needs numpy: in the checkout run python3 -m pip install -e '.[train]'"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=DEFAULT_GAMES, help="games per model")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--levels", default=",".join(LEVELS_MIX), help="bot levels drawn per seat")
    parser.add_argument("--role-games", type=int, default=ROLE_GAMES, help="games per role model")
    parser.add_argument("--role-rounds", type=int, default=ROLE_ROUNDS, help="refits per role")
    parser.add_argument(
        "--roles-only",
        action="store_true",
        help="keep the shipped file's other models, fit the role models again",
    )
    parser.add_argument("--jobs", type=int, default=1, help="processes for the role models")
    parser.add_argument(
        "--out", default=str(Path(__file__).parents[1] / "data" / DATA_FILE), help="file to write"
    )
    args = parser.parse_args(argv)
    try:
        import numpy  # noqa: F401  # lazy: says so when the train extra is missing
    except ImportError:
        print(NO_NUMPY, file=sys.stderr)
        return 2
    if args.roles_only:
        data = load_data()
        data.update(
            role_data(data["models"], args.role_games, data["seed"], args.role_rounds, args.jobs)
        )
    else:
        data = train(
            args.games,
            args.seed,
            args.levels.split(","),
            args.role_games,
            args.role_rounds,
            args.jobs,
        )
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(data, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
