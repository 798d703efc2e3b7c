"""The master's look-ahead: every seat's win probability from any position.

:func:`state_value` answers for a :class:`State` in any phase with a vector (one
P(win) per seat). A turn's start is read from the fitted model
(:mod:`firmware.games.switch16.bots.value`); anything in the middle of a turn is searched to the
end of that turn, expectimax over the dice (the exact run-length distribution of the
roller's deck for its dice count, and the switch die's four faces), each seat choosing
what is best for itself (max-n): the roller passes or risks, takes a deck on green
or declines, takes or leaves the chip; a red switch goes to the lowest deck. An
opponent holding the chip lays it on a run that would finish, and refuses a green
switch to a worse deck. Positions inside a turn are abstracted to (cards gone per
seat, blocked seat, chip holder) and memoised, so a decision costs a few hundred
model look-ups at most.

A seat known to be a ``rulebook`` or ``expert`` bot (``kinds``) is predicted to play
that bot's policy instead of maximising: when it risks, whom it names on green or
red, whether it refuses, takes the chip or lays it.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from firmware.games.switch16 import odds

from ..engine import ACCEPT, REFUSE, Phase, Place, State
from ..engine.dice import run_length
from ..engine.rules import CARDS, Rules
from .expert import BLOCKED_EXTRA, GREEN_MISS, MIN_PENALTY_CARDS, sprint_risk
from .rulebook import rulebook_risks
from .tables import tables
from .value import SEARCHES_KEPT, Memo, Model, model_for

Vec = tuple[float, ...]
Ds = tuple[int, ...]

_THIRD = 1 / 3
_SIXTH = 1 / 6
#: Seat kinds the search predicts: a maximiser (the master itself, people, unknown
#: bots) or one of the bots whose policy it knows.
MAX, RULEBOOK, EXPERT = "max", "rulebook", "expert"


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

    def __init__(
        self,
        rules: Rules,
        players: int,
        model: Model | None = None,
        kinds: Sequence[str] | None = None,
    ) -> None:
        self.rules = rules
        self.n = players
        known = {MAX: MAX, RULEBOOK: RULEBOOK, EXPERT: EXPERT}  # interned: compared by ``is``
        given = tuple(kinds) if kinds is not None else (MAX,) * players
        if len(given) != players or not set(given) <= set(known):
            raise ValueError(f"bad seat kinds {given!r} for {players} players")
        self.kinds = tuple(known[k] for k in given)
        if model is None:
            model = model_for(rules, players, self.kinds if kinds is not None else None)
        self.model = model
        t = tables(rules)
        self.turns = t.turns
        self.mid = t.mid
        self.solitaire_risk = t.risk
        self.rule_risk = [rulebook_risks(d, t.p_fail[d]) for d in range(CARDS)]
        self.refuse_margin = 0.0 if rules.refused_chip == "keep" else 0.5
        self.dists = [odds.run_distribution_float(d + 1, rules.dice_count(d)) for d in range(CARDS)]
        self.pen = [rules.after_penalty(d) for d in range(CARDS)]
        self.choose_take = rules.block_take == "choose"
        self._decide = Memo()  # (roller, ds, blocked, holder) -> Vec
        self._risk = Memo()
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
        if holder >= 0 and holder != r:
            if self.kinds[holder] is not MAX:
                if self.bot_lays(holder, r, ds, k, risk):
                    return self.end(r, _set(ds, r, self.pen[d]) if risk else ds, r, -1)
                return self.run(r, ds, blocked, holder, k)
            go = self.run(r, ds, blocked, holder, k)
            stop = self.end(r, _set(ds, r, self.pen[d]) if risk else ds, r, -1)
            if stop[holder] > go[holder]:
                return stop
            return go
        return self.run(r, ds, blocked, holder, k)

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
            if self.kinds[r] is not MAX:
                risks = self.bot_risks(r, ds, blocked)
                out = self.roll_turn(r, ds, blocked, holder, True) if risks else stop
            elif blocked == r:
                out = stop  # a risk on a blocked deck needs a block face: never better
            else:
                go = self.roll_turn(r, ds, blocked, holder, True)
                out = go if go[r] > stop[r] else stop
            self._decide.put(key, out)
        return out

    # ------------------------------------------------------------- policies
    def bot_risks(self, r: int, ds: Ds, blocked: int) -> bool:
        """A rulebook or expert roller risks (:func:`.expert.expert_risks`)."""
        d = ds[r]
        if self.kinds[r] is RULEBOOK:
            return self.rule_risk[d]
        if self.solitaire_risk[d]:
            return True
        lower = sum(1 for s in range(self.n) if s != r and ds[s] < d)
        if lower:
            return sprint_risk(self.rules, GREEN_MISS**lower)[d]
        return any(ds[s] > d and blocked != s for s in range(self.n) if s != r)

    def deck_turns(self, ds: Ds, blocked: int, s: int) -> float:
        """The expert's value of seat ``s``'s deck: expected turns (a block costs more)."""
        return self.turns[ds[s]] + (BLOCKED_EXTRA if blocked == s else 0.0)

    def refuses(self, t: int, r: int, ds: Ds, blocked: int) -> bool:
        """Seat ``t``, holding the chip and named on green by ``r``, refuses."""
        kind = self.kinds[t]
        if kind is MAX:
            return ds[r] < ds[t]
        if kind is RULEBOOK:
            return (-1 if blocked == r else ds[r]) < (-1 if blocked == t else ds[t])
        return self.deck_turns(ds, blocked, t) + self.refuse_margin < self.deck_turns(
            ds, blocked, r
        )

    def _targets(self, r: int, ds: Ds, blocked: int, holder: int) -> list[int]:
        """Seats the roller may exchange with on green (a refusing chip holder left out)."""
        return [
            t
            for t in range(self.n)
            if t != r and not (holder == t and self.refuses(t, r, ds, blocked))
        ]

    def green_swap(self, r: int, ds: Ds, blocked: int, holder: int) -> Vec | None:
        """A maximising roller's best exchange on a green face."""
        best: Vec | None = None
        for t in self._targets(r, ds, blocked, holder):
            sds, sb = _swap(ds, blocked, r, t)
            v = self.end(r, sds, sb, holder)
            if best is None or v[r] > best[r]:
                best = v
        return best

    def _mean_swap(self, r: int, ds: Ds, blocked: int, holder: int, seats: list[int]) -> Vec:
        """The mean outcome of exchanging with one of ``seats`` at random."""
        n = self.n
        acc = [0.0] * n
        for t in seats:
            sds, sb = _swap(ds, blocked, r, t)
            v = self.end(r, sds, sb, holder)
            for i in range(n):
                acc[i] += v[i]
        m = len(seats)
        return tuple(a / m for a in acc)

    def bot_targets(self, r: int, ds: Ds, blocked: int, holder: int) -> list[int]:
        """Whom a rulebook or expert roller would name on green (several: one at random),
        before it looks at its dice: the best deck it may take (the rulebook: if better
        than its own; the expert: see :meth:`bot_green`)."""
        targets = self._targets(r, ds, blocked, holder)
        if self.kinds[r] is RULEBOOK:
            scores = {t: -1 if blocked == t else ds[t] for t in targets}
            top = max(scores.values(), default=-1)
            if top <= (-1 if blocked == r else ds[r]):
                return []
            return [t for t, v in scores.items() if v == top]
        best_t, best = -1, 1e9
        for t in targets:
            v = self.deck_turns(ds, blocked, t)
            if v < best:
                best_t, best = t, v
        return [best_t] if best_t >= 0 else []

    def bot_green(self, r: int, ds: Ds, blocked: int, holder: int, k: int, risk: bool) -> list[int]:
        """Whom a rulebook or expert roller names on green, its dice showing a run of ``k``
        (the expert keeps its deck when that finishes sooner); empty: it declines."""
        targets = self.bot_targets(r, ds, blocked, holder)
        if targets and self.kinds[r] is EXPERT:
            own = self.expert_own(r, ds, blocked, holder, k, risk)
            if self.deck_turns(ds, blocked, targets[0]) >= own:
                return []
        return targets

    def bot_red(self, r: int, ds: Ds, blocked: int, holder: int) -> list[int]:
        """Whom a rulebook or expert roller swaps with on red (several: one at random)."""
        d = ds[r]
        lower = [s for s in range(self.n) if s != r and ds[s] < d]
        if not lower:
            return []
        low = min(ds[s] for s in lower)
        ties = [s for s in lower if ds[s] == low]
        if self.kinds[r] is RULEBOOK:
            return [s for s in ties if blocked != s] or ties
        return [min(ties, key=lambda s: (blocked == s, holder == s))]

    def bot_takes(self, r: int, ds: Ds, blocked: int) -> bool:
        """A rulebook or expert roller rolled block, the chip on seat ``blocked``'s deck:
        it takes the chip (the rulebook never does; the expert off a deck behind its own)."""
        return self.kinds[r] is EXPERT and ds[blocked] < ds[r]

    def bot_lays(self, holder: int, r: int, ds: Ds, k: int, risk: bool) -> bool:
        """A rulebook or expert bot holding the chip lays it on roller ``r``'s deck at the
        first discard of a run of ``k``: on a finishing run; the expert also on a risk
        roll whose penalty costs enough cards."""
        d = ds[r]
        if d + k >= CARDS:
            return True
        return self.kinds[holder] is EXPERT and risk and d - self.pen[d] >= MIN_PENALTY_CARDS

    def expert_own(self, r: int, ds: Ds, blocked: int, holder: int, k: int, risk: bool) -> float:
        """The expert's value of keeping its deck on green, the dice showing a run of ``k``."""
        d = ds[r]
        if blocked == r or k == 0:
            return self.turns[self.pen[d]] if risk else self.turns[d]
        if d + k >= CARDS:
            return -1.0 if holder < 0 or holder == r else self.turns[d] + BLOCKED_EXTRA
        return self.mid[d + k]

    def red(self, r: int, ds: Ds, blocked: int, holder: int) -> Vec:
        d = ds[r]
        lower = [s for s in range(self.n) if s != r and ds[s] < d]
        if not lower:
            return self.end(r, ds, blocked, holder)
        low = min(ds[s] for s in lower)
        ties = [s for s in lower if ds[s] == low]
        if self.kinds[r] is not MAX:
            return self._mean_swap(r, ds, blocked, holder, self.bot_red(r, ds, blocked, holder))
        best: Vec | None = None
        for s in ties:
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
        kind = self.kinds[r]
        # Block face with the chip on another deck: 1 take it, 0 leave it, -1 the better.
        take = 1
        if self.choose_take and blocked >= 0 and blocked != r:
            if kind is MAX:
                take = -1
            elif not self.bot_takes(r, ds, blocked):
                take = 0
        expert_turns = 0.0
        if kind is MAX:
            swap = self.green_swap(r, ds, blocked, holder)
        else:
            targets = self.bot_targets(r, ds, blocked, holder)
            swap = self._mean_swap(r, ds, blocked, holder, targets) if targets else None
            if swap is not None and kind is EXPERT:
                expert_turns = self.deck_turns(ds, blocked, targets[0])
        for k, p in enumerate(dist):
            if not p:
                continue
            here = self.evaluate(r, ds, blocked, holder, k, risk)
            if take == 0:
                blocked_v = here
            else:
                blocked_v = self.evaluate(r, ds, -1, r, k, risk)
                if take < 0 and here[r] > blocked_v[r]:
                    blocked_v = here
            if swap is None:
                green_v = here
            elif kind is MAX:
                green_v = swap if swap[r] > here[r] else here
            elif kind is RULEBOOK:
                green_v = swap
            else:
                own = self.expert_own(r, ds, blocked, holder, k, risk)
                green_v = swap if expert_turns < own else here
            w3, w6 = p * _THIRD, p * _SIXTH
            for s in range(n):
                acc[s] += w3 * (here[s] + blocked_v[s]) + w6 * green_v[s]
        red = self.red(r, ds, blocked, holder)
        out = tuple(a + _SIXTH * x for a, x in zip(acc, red, strict=True))
        if risk:
            self._risk.put(key, out)
        return out

    def risk(self, r: int, ds: Ds, blocked: int, holder: int) -> Vec:
        return self.roll_turn(r, ds, blocked, holder, True)

    def roll_turn(self, r: int, ds: Ds, blocked: int, holder: int, risk: bool) -> Vec:
        """Before roller ``r`` rolls, a seat holding the chip may lay it on a deck (the
        rulebook and expert bots never do then)."""
        best = self.roll(r, ds, blocked, holder, risk)
        if holder < 0 or self.kinds[holder] is not MAX:
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
            if holder >= 0 and holder != r and self.kinds[holder] is not MAX:
                if ds[r] + k >= CARDS:  # a bot lays its chip on a finishing run
                    return self.end(r, ds, r, -1)
                return self.run(r, ds, blocked, holder, k)
            go = self.run(r, ds, blocked, holder, k)
            if holder >= 0 and holder != r:
                stop = self.end(r, ds, r, -1)
                if stop[holder] > go[holder]:
                    return stop
            return go
        if phase is Phase.GREEN_REFUSAL:
            # Another seat named on green: it refuses a worse deck (as people and the
            # other bots do), whatever a refusal would let the roller do next.
            t = state.current_player()
            no = refuses(state) if self.kinds[t] is MAX else self.refuses(t, r, ds, blocked)
            return self.value(state.apply(REFUSE if no else ACCEPT))
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


def search_for(rules: Rules, players: int, kinds: tuple[str, ...] | None = None) -> Search:
    """The shared search (and its memo) for ``rules``, ``players`` and the seats' kinds
    (default: every seat maximises); the last :data:`SEARCHES_KEPT` are kept."""
    return _kept_search(rules, players, kinds)


@lru_cache(maxsize=SEARCHES_KEPT)
def _kept_search(rules: Rules, players: int, kinds: tuple[str, ...] | None) -> Search:
    return Search(rules, players, kinds=kinds)


def state_value(state: State) -> Vec:
    """P(each seat wins the current game or round) from ``state``."""
    return search_for(state.rules, state.players).value(state)
