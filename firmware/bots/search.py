"""The master's look-ahead: every seat's win probability from any position.

:func:`state_value` answers for a :class:`State` in any phase with a vector (one
P(win) per seat). A turn's start is read from the fitted model
(:mod:`firmware.bots.value`); anything in the middle of a turn is searched to the
end of that turn, expectimax over the dice (the exact run-length distribution of the
roller's deck for its dice count, and the switch die's four faces), each seat choosing
what is best for itself (max-n): the roller passes or risks, takes a deck on green
or declines, takes or leaves the chip; a red switch goes to the lowest deck. An
opponent holding the chip lays it on a run that would finish, and refuses a green
switch to a worse deck. Positions inside a turn are abstracted to (cards gone per
seat, blocked seat, chip holder) and memoised, so a decision costs a few hundred
model look-ups at most.
"""

from __future__ import annotations

from functools import cache

from firmware import odds
from firmware.engine import ACCEPT, REFUSE, Phase, Place, State
from firmware.engine.dice import run_length
from firmware.engine.rules import CARDS, Rules

from .value import Model, model_for

Vec = tuple[float, ...]
Ds = tuple[int, ...]

_THIRD = 1 / 3
_SIXTH = 1 / 6
_MEMO_LIMIT = 100_000


def _swap(ds: Ds, blocked: int, a: int, b: int) -> tuple[Ds, int]:
    """Seats ``a`` and ``b`` exchange decks (the chip on a deck goes with it)."""
    out = list(ds)
    out[a], out[b] = ds[b], ds[a]
    if blocked == a:
        blocked = b
    elif blocked == b:
        blocked = a
    return tuple(out), blocked


def _set(ds: Ds, seat: int, d: int) -> Ds:
    out = list(ds)
    out[seat] = d
    return tuple(out)


class Search:
    """Turn search for one rule set and player count (memoised positions)."""

    def __init__(self, rules: Rules, players: int, model: Model | None = None) -> None:
        self.rules = rules
        self.n = players
        self.model = model if model is not None else model_for(rules, players)
        self.dists = [odds.run_distribution_float(d + 1, rules.dice_count(d)) for d in range(CARDS)]
        self.pen = [rules.after_penalty(d) for d in range(CARDS)]
        self.choose_take = rules.block_take == "choose"
        self._decide: dict[tuple[int, Ds, int, int], Vec] = {}
        self._risk: dict[tuple[int, Ds, int, int], Vec] = {}
        self._win = [tuple(1.0 if s == w else 0.0 for s in range(players)) for w in range(players)]

    # --------------------------------------------------------------- leaves
    def start(self, ds: Ds, blocked: int, holder: int, turn: int) -> Vec:
        """A turn's start: the fitted model."""
        return self.model.probs((ds, blocked, holder, turn))

    def end(self, r: int, ds: Ds, blocked: int, holder: int) -> Vec:
        """Roller ``r``'s turn ends here."""
        return self.model.probs((ds, blocked, holder, (r + 1) % self.n))

    # ---------------------------------------------------------------- inside a turn
    def evaluate(self, r: int, ds: Ds, blocked: int, holder: int, k: int, risk: bool) -> Vec:
        """The roller's dice discard ``k`` cards in a row; an opponent holding the chip
        may lay it at the first discard (nothing discarded: a risk roll's penalty)."""
        d = ds[r]
        if blocked == r or k == 0:
            return self.end(r, _set(ds, r, self.pen[d]) if risk else ds, blocked, holder)
        go = self.run(r, ds, blocked, holder, k)
        if holder >= 0 and holder != r:
            stop = self.end(r, _set(ds, r, self.pen[d]) if risk else ds, r, -1)
            if stop[holder] > go[holder]:
                return stop
        return go

    def run(self, r: int, ds: Ds, blocked: int, holder: int, k: int) -> Vec:
        """``k`` more cards go from the roller's deck, then it decides (or has won)."""
        d = ds[r] + k
        if d >= CARDS:
            return self._win[r]
        return self.decide(r, _set(ds, r, d), blocked, holder)

    def decide(self, r: int, ds: Ds, blocked: int, holder: int) -> Vec:
        """Phase decide: the better of passing and risking, for the roller."""
        key = (r, ds, blocked, holder)
        out = self._decide.get(key)
        if out is None:
            stop = self.end(r, ds, blocked, holder)
            if blocked == r:
                out = stop  # a risk on a blocked deck needs a block face: never better
            else:
                go = self.roll_turn(r, ds, blocked, holder, True)
                out = go if go[r] > stop[r] else stop
            if len(self._decide) > _MEMO_LIMIT:
                self._decide.clear()
            self._decide[key] = out
        return out

    def green_swap(self, r: int, ds: Ds, blocked: int, holder: int) -> Vec | None:
        """The roller's best exchange on a green face (a chip holder refuses a worse deck)."""
        best: Vec | None = None
        for t in range(self.n):
            if t == r or (holder == t and ds[r] < ds[t]):
                continue
            sds, sb = _swap(ds, blocked, r, t)
            v = self.end(r, sds, sb, holder)
            if best is None or v[r] > best[r]:
                best = v
        return best

    def red(self, r: int, ds: Ds, blocked: int, holder: int) -> Vec:
        d = ds[r]
        lower = [s for s in range(self.n) if s != r and ds[s] < d]
        if not lower:
            return self.end(r, ds, blocked, holder)
        low = min(ds[s] for s in lower)
        best: Vec | None = None
        for s in lower:
            if ds[s] == low:
                sds, sb = _swap(ds, blocked, r, s)
                v = self.end(r, sds, sb, holder)
                if best is None or v[r] > best[r]:
                    best = v
        assert best is not None
        return best

    def roll(self, r: int, ds: Ds, blocked: int, holder: int, risk: bool) -> Vec:
        """Expected values of the roller's next roll (its dice count, the switch die)."""
        key = (r, ds, blocked, holder)
        if risk:
            out = self._risk.get(key)
            if out is not None:
                return out
        dist = self.dists[ds[r]]
        n = self.n
        acc = [0.0] * n
        swap = self.green_swap(r, ds, blocked, holder)
        take_choice = self.choose_take and blocked >= 0 and blocked != r
        for k, p in enumerate(dist):
            if not p:
                continue
            here = self.evaluate(r, ds, blocked, holder, k, risk)
            blocked_v = self.evaluate(r, ds, -1, r, k, risk)
            if take_choice and here[r] > blocked_v[r]:
                blocked_v = here
            green_v = swap if swap is not None and swap[r] > here[r] else here
            w3, w6 = p * _THIRD, p * _SIXTH
            for s in range(n):
                acc[s] += w3 * (here[s] + blocked_v[s]) + w6 * green_v[s]
        red = self.red(r, ds, blocked, holder)
        out = tuple(a + _SIXTH * x for a, x in zip(acc, red, strict=True))
        if risk:
            if len(self._risk) > _MEMO_LIMIT:
                self._risk.clear()
            self._risk[key] = out
        return out

    def risk(self, r: int, ds: Ds, blocked: int, holder: int) -> Vec:
        return self.roll_turn(r, ds, blocked, holder, True)

    def roll_turn(self, r: int, ds: Ds, blocked: int, holder: int, risk: bool) -> Vec:
        """Before roller ``r`` rolls, a seat holding the chip may lay it on a deck."""
        best = self.roll(r, ds, blocked, holder, risk)
        if holder < 0:
            return best
        for x in range(self.n):
            if x != holder:
                v = self.roll(r, ds, x, -1, risk)
                if v[holder] > best[holder]:
                    best = v
        return best

    def placements(self, state: State, seat: int) -> dict[int | None, Vec]:
        """``seat`` holds the chip: the value of keeping it (None) or laying it on each
        other seat's deck now, for a roll about to be made or a run being discarded."""
        n = self.n
        ds = tuple(state.discarded[c] for c in state.control)
        r = state.turn
        out: dict[int | None, Vec] = {}
        if state.phase is Phase.ROLL:
            out[None] = self.roll(r, ds, -1, seat, state.risk)
            for x in range(n):
                if x != seat:
                    out[x] = self.roll(r, ds, x, -1, state.risk)
        elif state.phase is Phase.DISCARD and r != seat:
            d = ds[r]
            out[None] = self.run(r, ds, -1, seat, run_length(state.makeable_mask, d + 1))
            if state.rolled_discards:
                out[r] = self.end(r, ds, r, -1)
            else:
                out[r] = self.end(r, _set(ds, r, self.pen[d]) if state.risk else ds, r, -1)
        return out

    # ------------------------------------------------------------------ states
    def value(self, state: State) -> Vec:
        """P(each seat wins) from ``state`` (the current round, in a points game)."""
        phase = state.phase
        n = self.n
        ds = tuple(state.discarded[c] for c in state.control)
        blocked = -1 if state.chip_deck is None else state.control.index(state.chip_deck)
        holder = -1 if state.chip_holder is None else state.chip_holder
        r = state.turn
        if phase is Phase.OVER:
            w = state.winner
            return self._win[w] if w is not None else (1.0 / n,) * n
        if phase is Phase.ROLL:
            if state.risk:
                return self.risk(r, ds, blocked, holder)
            return self.start(ds, blocked, holder, r)
        if phase is Phase.DECIDE:
            return self.decide(r, ds, blocked, holder)
        if phase is Phase.DISCARD:
            k = run_length(state.makeable_mask, ds[r] + 1)
            if state.rolled_discards == 0:
                return self.evaluate(r, ds, blocked, holder, k, state.risk)
            go = self.run(r, ds, blocked, holder, k)
            if holder >= 0 and holder != r:
                stop = self.end(r, ds, r, -1)
                if stop[holder] > go[holder]:
                    return stop
            return go
        if phase is Phase.GREEN_REFUSAL:
            # Another seat named on green: it refuses a worse deck (as people and the
            # other bots do), whatever a refusal would let the roller do next.
            return self.value(state.apply(REFUSE if refuses(state) else ACCEPT))
        best: Vec | None = None
        mover = state.current_player()
        for action in state.legal_actions():
            if type(action) is Place:
                continue
            v = self.value(state.apply(action))
            if best is None or v[mover] > best[mover]:
                best = v
        assert best is not None
        return best


def deck_score(state: State, seat: int) -> int:
    """A deck as a person rates it: cards gone, and a blocked deck is worth nothing."""
    return -1 if state.blocked(seat) else state.discarded[state.control[seat]]


def refuses(state: State) -> bool:
    """Phase green refusal: the named seat refuses a deck worse than its own."""
    return deck_score(state, state.turn) < deck_score(state, state.current_player())


@cache
def search_for(rules: Rules, players: int) -> Search:
    """The shared search (and its memo) for ``rules`` and ``players``."""
    return Search(rules, players)


def state_value(state: State) -> Vec:
    """P(each seat wins the current game or round) from ``state``."""
    return search_for(state.rules, state.players).value(state)
