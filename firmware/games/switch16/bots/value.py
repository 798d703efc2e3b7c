"""The master's win-probability model of a position (package data ``data/master.json``).

A position is abstracted to what decides a race to card 16 at the start of a turn:
each seat's discarded count, who holds the chip or whose deck it lies on, and whose
turn it is. The model is a conditional logit: every seat gets a score from a few
learned tables, and P(seat wins) is its share of ``exp(score)``:

- ``deck[pos][d]``: discarded count ``d`` at turn position ``pos`` (0 = about to roll,
  1 = next, …);
- ``rank[pos][r]``: ``r`` seats have more cards gone than this one;
- ``gap[pos][g]``: cards gone minus the best other deck's, clipped to ±6;
- ``blocked[pos][band]`` / ``chip[pos][band]``: the chip lies on this seat's deck /
  is in its hand (band: 0–5, 6–10, 11–15 cards gone).

One weight vector per preset and player count, fitted from self-play outcomes by
:mod:`.stats.train_master`
(``python3 -m firmware.games.switch16.bots.stats.train_master``
regenerates the file from its seed). Two-player tables are solved exactly over the
abstraction (:class:`TableModel`): one where both seats maximise, and one per known
bot level, the best response to that bot's policy. Four players, one maximising seat
against three bots of one level: a :class:`RoleModel`, fitted to the turn search's own
backed-up values (fitted value iteration). Pure Python at play time: no numpy needed.
"""

from __future__ import annotations

import json
import math
import weakref
from functools import lru_cache
from importlib import resources
from itertools import islice
from typing import Any, ClassVar

from ..engine import State
from ..engine.rules import CARDS, DEFAULT_PRESET, Rules

#: A position abstraction: (discarded per seat, blocked seat or -1, chip holder or -1, turn).
Key = tuple[tuple[int, ...], int, int, int]

GAP = 6
DATA_FILE = "master.json"
#: Positions memoised by every model and search together (~340 bytes each, ~2 MB; a
#: 4-player game adds up to ~1,500): a unit runs for months on a 512 MB Pi Zero.
MEMO_BUDGET = 6_000
#: How many positions are memoised between two counts of the total.
MEMO_COUNT_EVERY = 1_000
#: Models kept, and searches (:func:`.search.search_for`): one per master
#: seat's view of the table (all-master tables share one) and the review's.
SEARCHES_KEPT = 4


class Memo(dict[Any, Any]):
    """A memo of positions (a model's, a search's), counted in :data:`MEMO_BUDGET`."""

    live: ClassVar[weakref.WeakSet[Memo]] = weakref.WeakSet()
    __hash__ = object.__hash__  # type: ignore[assignment]  # (in ``live``: by identity)
    __eq__ = object.__eq__
    added: ClassVar[int] = 0  #: positions memoised since the total was last counted

    def __init__(self) -> None:
        super().__init__()
        Memo.live.add(self)

    def put(self, key: Any, value: Any) -> None:
        """Memoise; when every memo together holds more than the budget, each forgets
        its older half (the values are exact: only time is lost, and the positions of
        the game being played stay)."""
        self[key] = value
        Memo.added += 1
        if Memo.added >= MEMO_COUNT_EVERY:
            Memo.added = 0
            memos = list(Memo.live)
            if sum(len(memo) for memo in memos) > MEMO_BUDGET:
                for memo in memos:
                    for old in list(islice(memo, len(memo) // 2)):  # oldest first
                        del memo[old]


#: Offsets of the feature tables in a weight vector, for ``n`` players.
_TABLES = ("deck", "rank", "gap", "blocked", "chip")


def sizes(n: int) -> dict[str, int]:
    """Entries of each feature table for ``n`` players."""
    return {
        "deck": n * CARDS,
        "rank": n * n,
        "gap": n * (2 * GAP + 1),
        "blocked": n * 3,
        "chip": n * 3,
    }


def offsets(n: int) -> dict[str, int]:
    out, at = {}, 0
    for name, size in sizes(n).items():
        out[name] = at
        at += size
    out["total"] = at
    return out


def band(d: int) -> int:
    return 0 if d <= 5 else 1 if d <= 10 else 2


def features(key: Key) -> list[list[int]]:
    """For each seat, the indices of its active weights (see the module doc)."""
    ds, blocked, holder, turn = key
    n = len(ds)
    off = offsets(n)
    out = []
    for j in range(n):
        pos = (j - turn) % n
        d = min(ds[j], CARDS - 1)
        rank = sum(1 for k in range(n) if k != j and ds[k] > ds[j])
        best = max(ds[k] for k in range(n) if k != j)
        gap = max(-GAP, min(GAP, d - best)) + GAP
        idx = [
            off["deck"] + pos * CARDS + d,
            off["rank"] + pos * n + rank,
            off["gap"] + pos * (2 * GAP + 1) + gap,
        ]
        if blocked == j:
            idx.append(off["blocked"] + pos * 3 + band(d))
        if holder == j:
            idx.append(off["chip"] + pos * 3 + band(d))
        out.append(idx)
    return out


#: Extra tables of a role model, per turn position: the gap to the lowest other deck
#: (a red hands the roller's deck to the lowest one), clipped to ±GAP, and where the
#: chip is for this seat (table or another hand, its hand, its deck, another deck)
#: by deck half (fewer than 8 cards gone or more).
CHIP_PLACES = 4


def role_size(n: int) -> int:
    """Weights of one role (the maximiser's or the bots') in a role model."""
    return offsets(n)["total"] + n * (2 * GAP + 1) + n * CHIP_PLACES * 2


def role_features(key: Key, me: int) -> list[list[int]]:
    """:func:`features` plus the role tables; seat ``me``'s indices point into the
    second half of the weights."""
    ds, blocked, holder, turn = key
    n = len(ds)
    low_at = offsets(n)["total"]
    chip_at = low_at + n * (2 * GAP + 1)
    half = role_size(n)
    out = []
    for j, idx in enumerate(features(key)):
        pos = (j - turn) % n
        low = min(ds[k] for k in range(n) if k != j)
        gap = max(-GAP, min(GAP, ds[j] - low)) + GAP
        place = 1 if holder == j else 2 if blocked == j else 3 if blocked >= 0 else 0
        chip = place * 2 + (1 if ds[j] >= 9 else 0)
        row = [*idx, low_at + pos * (2 * GAP + 1) + gap, chip_at + pos * CHIP_PLACES * 2 + chip]
        out.append([i + half for i in row] if j == me else row)
    return out


def key_of(state: State) -> Key:
    """The abstraction of ``state`` (meant for a turn's start; any phase is accepted)."""
    ds = tuple(state.discarded[c] for c in state.control)
    blocked = -1 if state.chip_deck is None else state.control.index(state.chip_deck)
    holder = -1 if state.chip_holder is None else state.chip_holder
    return ds, blocked, holder, state.turn


class Model:
    """Win probabilities of every seat for positions of one preset and player count."""

    def __init__(self, players: int, weights: list[float]) -> None:
        if len(weights) != offsets(players)["total"]:
            raise ValueError(f"{players} players need {offsets(players)['total']} weights")
        self.players = players
        self.weights = weights
        self._cache = Memo()

    def features(self, key: Key) -> list[list[int]]:
        return features(key)

    def probs(self, key: Key) -> tuple[float, ...]:
        """P(each seat wins) from the position ``key`` (a finished deck wins outright)."""
        out = self._cache.get(key)
        if out is not None:
            return out
        ds = key[0]
        if CARDS in ds:
            out = tuple(1.0 if d >= CARDS else 0.0 for d in ds)
        else:
            w = self.weights
            scores = [sum(w[i] for i in idx) for idx in self.features(key)]
            top = max(scores)
            exps = [math.exp(s - top) for s in scores]
            total = sum(exps)
            out = tuple(e / total for e in exps)
        self._cache.put(key, out)
        return out


class RoleModel(Model):
    """A table where seat ``me`` maximises and the other seats play one bot policy:
    :func:`role_features`, the maximiser on weights of its own."""

    def __init__(self, players: int, weights: list[float], me: int) -> None:
        if len(weights) != 2 * role_size(players):
            need = 2 * role_size(players)
            raise ValueError(f"a {players}-player role model needs {need} weights")
        self.players = players
        self.weights = weights
        self.me = me
        self._cache = Memo()

    def features(self, key: Key) -> list[list[int]]:
        return role_features(key, self.me)


def chip_states(n: int) -> list[tuple[int, int]]:
    """(blocked seat, holder) pairs: chip on the table, on a seat's deck, in a seat's hand."""
    return [(-1, -1), *((b, -1) for b in range(n)), *((-1, h) for h in range(n))]


def table_keys(n: int) -> list[Key]:
    """Every turn-start abstraction of ``n`` seats, in the order a solved table lists them."""
    chips = chip_states(n)
    out: list[Key] = []
    for code in range(CARDS**n):
        ds = tuple(code // CARDS ** (n - 1 - i) % CARDS for i in range(n))
        out.extend((ds, b, h, t) for b, h in chips for t in range(n))
    return out


def mirror(key: Key) -> Key:
    """Two players: the same position with the seats exchanged."""
    ds, blocked, holder, turn = key
    flip = (-1, 1, 0)  # -1 stays -1
    return (ds[1], ds[0]), flip[blocked + 1], flip[holder + 1], 1 - turn


class TableModel(Model):
    """Exact values of a solved game (two players): P(seat 0 wins) per turn-start position;
    ``mirrored``: the table's seat 0 plays seat 1 here."""

    def __init__(self, players: int, p0: list[float], mirrored: bool = False) -> None:
        self.players = players
        self.mirrored = mirrored
        self.weights = []
        self._cache = Memo()
        self._index = {key: i for i, key in enumerate(table_keys(players))}
        if len(p0) != len(self._index):
            raise ValueError(f"a {players}-player table needs {len(self._index)} entries")
        self._p0 = p0

    def probs(self, key: Key) -> tuple[float, ...]:
        ds = key[0]
        if CARDS in ds:
            return tuple(1.0 if d >= CARDS else 0.0 for d in ds)
        if self.mirrored:
            p = self._p0[self._index[mirror(key)]]
            return 1.0 - p, p
        p = self._p0[self._index[key]]
        return p, 1.0 - p


def load_data() -> dict[str, Any]:
    text = (
        resources.files("firmware.games.switch16.bots")
        .joinpath("data", DATA_FILE)
        .read_text("utf-8")
    )
    data: dict[str, Any] = json.loads(text)
    return data


@lru_cache(maxsize=SEARCHES_KEPT)
def model_for(rules: Rules, players: int, kinds: tuple[str, ...] | None = None) -> Model:
    """The fitted model for ``rules``' preset (a points game plays its rounds alike).

    ``kinds``: the seats' kinds as the search predicts them (``max`` or a bot level);
    one maximising seat against bots of one level gets that table's own model: with two
    players the solved best response, with four a :class:`RoleModel`, seen from the
    maximising seat.
    """
    data = load_data()
    models, solved = data["models"], data.get("tables", {})
    name = rules.name if f"{rules.name}/{players}" in models else DEFAULT_PRESET
    key = f"{name}/{players}"
    if kinds is not None and kinds.count("max") == 1:
        me = kinds.index("max")
        levels = {k for s, k in enumerate(kinds) if s != me}
        vs = f"{key}/{levels.pop()}" if len(levels) == 1 else ""
        if vs in data.get("responses", {}):
            return TableModel(players, data["responses"][vs], mirrored=me == 1)
        if vs in data.get("roles", {}):
            return RoleModel(players, data["roles"][vs], me)
    if key in solved:
        return TableModel(players, solved[key])
    return Model(players, models[key])
