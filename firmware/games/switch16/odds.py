"""Exact odds of Switch 16 rolls and the solitaire-optimal risk policy.

Everything here is pure (no I/O, no randomness, no clock) and cached: the first
call for a dice count or a rule set enumerates, later calls are lookups.

- Roll odds are exact :class:`~fractions.Fraction` values summed over the engine's
  chance outcomes (:func:`firmware.games.switch16.engine.dice.roll_ways`, the switch die's
  :data:`~firmware.games.switch16.engine.SWITCH_ODDS`); ``*_float`` variants serve the bots.
- The **solitaire model** is one player alone. Every roll also rolls the switch
  die: red (1/6) ends the turn at once, no penalty, numbered dice ignored; every
  other face (5/6) is ignored and the numbered dice are evaluated. A first roll
  that discards nothing ends the turn; after a roll that discards at least one
  card the player passes or risks; a risk roll that discards nothing costs the
  penalty (``rules.after_penalty``) and ends the turn. Discarding card 16 finishes.
  :func:`solitaire_policy` solves it exactly by policy iteration over Fractions.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from .engine import SWITCH_ODDS, Face
from .engine.dice import MAKEABLE, MAX_DICE, MIN_DICE, roll_ways, run_length
from .engine.rules import CARDS, Rules

#: Probability that the switch die shows red: the turn ends, no penalty.
P_RED = SWITCH_ODDS[Face.RED]
#: Probability that the numbered dice are evaluated in the solitaire model.
P_EVALUATED = 1 - P_RED
#: Positions a turn can start from: ``discarded`` = 0..15.
POSITIONS = range(CARDS)


def _check_top(top: int) -> None:
    if not 1 <= top <= CARDS:
        raise ValueError(f"top card must be 1..{CARDS}, got {top!r}")


def _check_dice(n_dice: int) -> None:
    if not MIN_DICE <= n_dice <= MAX_DICE:
        raise ValueError(f"dice count must be {MIN_DICE}..{MAX_DICE}, got {n_dice!r}")


def _check_discarded(discarded: int) -> None:
    if not 0 <= discarded < CARDS:
        raise ValueError(f"discarded must be 0..{CARDS - 1}, got {discarded!r}")


@cache
def mask_counts(n_dice: int) -> dict[int, int]:
    """How many of the ``6**n_dice`` ordered rolls give each makeable-card mask."""
    _check_dice(n_dice)
    counts: Counter[int] = Counter()
    for dice, ways in roll_ways(n_dice):
        counts[MAKEABLE[dice]] += ways
    return dict(counts)


@cache
def run_counts(top: int, n_dice: int) -> tuple[int, ...]:
    """Ordered rolls of ``n_dice`` discarding exactly k cards from ``top``, for k=0..17-top."""
    _check_top(top)
    counts = [0] * (CARDS + 2 - top)
    for mask, count in mask_counts(n_dice).items():
        counts[run_length(mask, top)] += count
    return tuple(counts)


@cache
def run_distribution(top: int, n_dice: int) -> tuple[Fraction, ...]:
    """P(one roll of ``n_dice`` discards exactly k cards starting at ``top``), k=0..17-top.

    Cards go in order while the next one is makeable with the same dice; the last
    entry is discarding card 16 (the deck is finished).
    """
    total = 6**n_dice
    return tuple(Fraction(c, total) for c in run_counts(top, n_dice))


@cache
def run_distribution_float(top: int, n_dice: int) -> tuple[float, ...]:
    """:func:`run_distribution` as floats."""
    return tuple(float(p) for p in run_distribution(top, n_dice))


@cache
def p_make(top: int, n_dice: int) -> Fraction:
    """P(card ``top`` can be made with ``n_dice`` numbered dice), exact."""
    return 1 - run_distribution(top, n_dice)[0]


@cache
def p_make_float(top: int, n_dice: int) -> float:
    """:func:`p_make` as a float."""
    return float(p_make(top, n_dice))


@cache
def expected_cards(top: int, n_dice: int) -> Fraction:
    """Expected number of cards one roll of ``n_dice`` discards starting at ``top``."""
    return sum((k * p for k, p in enumerate(run_distribution(top, n_dice))), start=Fraction(0))


def p_risk_fails(discarded: int, rules: Rules) -> Fraction:
    """P(the numbered dice of a risk roll at this position discard nothing).

    The dice count is ``rules.dice_count(discarded)``; the switch die is not
    counted here (see :func:`p_penalty` for the solitaire penalty probability).
    """
    _check_discarded(discarded)
    return run_distribution(discarded + 1, rules.dice_count(discarded))[0]


def p_penalty(discarded: int, rules: Rules) -> Fraction:
    """P(a risk roll at this position ends in a penalty) in the solitaire model.

    The switch die shows red with probability 1/6, which ends the turn without a
    penalty, so this is ``5/6 * p_risk_fails``.
    """
    return P_EVALUATED * p_risk_fails(discarded, rules)


@dataclass(frozen=True, slots=True)
class SolitairePolicy:
    """The solved solitaire model for one rule set (index ``d`` = cards discarded, 0..15).

    - ``expected_turns[d]``: expected turns to finish from the start of a turn at
      ``d``, counting that turn.
    - ``value_pass[d]`` / ``value_risk[d]``: expected turns still to come *after
      the current one* when, mid-turn at ``d``, the player passes / takes a risk
      and then plays on optimally. ``value_pass[d] == expected_turns[d]``.
    - ``risk[d]``: True when risking is strictly better (a tie passes). A mid-turn
      decision needs one discard, so ``d = 0`` never occurs in play; its entry
      answers the hypothetical question with the same formula.
    """

    rules: Rules
    expected_turns: tuple[float, ...]
    value_pass: tuple[float, ...]
    value_risk: tuple[float, ...]
    risk: tuple[bool, ...]
    expected_turns_exact: tuple[Fraction, ...]
    value_risk_exact: tuple[Fraction, ...]

    @property
    def risk_positions(self) -> tuple[int, ...]:
        """The positions ``d`` (1..15) at which taking a risk is optimal."""
        return tuple(d for d in range(1, CARDS) if self.risk[d])


def _solve(matrix: list[list[Fraction]], rhs: list[Fraction]) -> list[Fraction]:
    """Solve ``matrix @ x = rhs`` exactly (Gauss-Jordan elimination, non-singular)."""
    size = len(rhs)
    rows = [[*row, b] for row, b in zip(matrix, rhs, strict=True)]
    for col in range(size):
        pivot = next(r for r in range(col, size) if rows[r][col] != 0)
        rows[col], rows[pivot] = rows[pivot], rows[col]
        lead = rows[col]
        inv = 1 / lead[col]
        for c in range(col, size + 1):
            lead[c] *= inv
        for r in range(size):
            factor = rows[r][col]
            if r != col and factor != 0:
                row = rows[r]
                for c in range(col, size + 1):
                    if lead[c]:
                        row[c] -= factor * lead[c]
    return [row[size] for row in rows]


def _risk_values(
    turns: list[Fraction],
    after: list[Fraction],
    dists: list[tuple[Fraction, ...]],
    penalty: list[int],
) -> list[Fraction]:
    """Value of taking a risk at each ``d`` given start-of-turn values and mid-turn values."""
    values = []
    for d in POSITIONS:
        dist = dists[d]
        cont = dist[0] * turns[penalty[d]]
        cont += sum((dist[k] * after[d + k] for k in range(1, len(dist))), start=Fraction(0))
        values.append(P_RED * turns[d] + P_EVALUATED * cont)
    return values


def _evaluate(
    risk: list[bool], dists: list[tuple[Fraction, ...]], penalty: list[int]
) -> list[Fraction]:
    """Exact values ``T[0..15] + R[0..15]`` under a fixed risk policy.

    Unknowns are ``T[d]`` (index d) and ``R[d]`` (index 16 + d), the value of a
    risk at ``d``; the mid-turn value at ``d`` is ``R[d]`` if ``risk[d]`` else ``T[d]``.
    """
    size = 2 * CARDS
    zero = Fraction(0)

    def after(d: int) -> int | None:
        if d >= CARDS:
            return None  # finished: no more turns
        return CARDS + d if risk[d] else d

    matrix = [[zero] * size for _ in range(size)]
    rhs = [zero] * size
    for d in POSITIONS:
        dist = dists[d]
        # T[d] = 1 + P_RED*T[d] + P_EVALUATED*(q0*T[d] + sum_k q_k*W[d+k])
        # R[d] =     P_RED*T[d] + P_EVALUATED*(q0*T[pen] + sum_k q_k*W[d+k])
        for row, base, miss in ((d, Fraction(1), d), (CARDS + d, zero, penalty[d])):
            matrix[row][row] += 1
            matrix[row][d] -= P_RED
            matrix[row][miss] -= P_EVALUATED * dist[0]
            for k in range(1, len(dist)):
                col = after(d + k)
                if col is not None and dist[k]:
                    matrix[row][col] -= P_EVALUATED * dist[k]
            rhs[row] = base
    return _solve(matrix, rhs)


@cache
def solitaire_policy(rules: Rules) -> SolitairePolicy:
    """Solve the solitaire model for ``rules`` exactly by policy iteration.

    Starts from "always pass" (which always finishes), evaluates the policy
    exactly, then switches to risk wherever that is strictly better, until stable.
    """
    dists = [run_distribution(d + 1, rules.dice_count(d)) for d in POSITIONS]
    penalty = [rules.after_penalty(d) for d in POSITIONS]
    risk = [False] * CARDS
    while True:
        solution = _evaluate(risk, dists, penalty)
        turns = solution[:CARDS]
        after = [solution[CARDS + d] if risk[d] else turns[d] for d in POSITIONS]
        values = _risk_values(turns, [*after, Fraction(0)], dists, penalty)
        better = [d > 0 and values[d] < turns[d] for d in POSITIONS]
        if better == risk:
            break
        risk = better
    return SolitairePolicy(
        rules=rules,
        expected_turns=tuple(float(t) for t in turns),
        value_pass=tuple(float(t) for t in turns),
        value_risk=tuple(float(v) for v in values),
        risk=tuple(values[d] < turns[d] for d in POSITIONS),
        expected_turns_exact=tuple(turns),
        value_risk_exact=tuple(values),
    )


@dataclass(frozen=True, slots=True)
class Advice:
    """What the bots and the screen show before a risk roll at ``discarded``.

    ``p_success``, ``p_fail`` and ``expected_cards`` count the numbered dice only;
    ``p_penalty`` includes the switch die's red face (solitaire model).
    """

    discarded: int
    dice: int
    p_success: float
    p_fail: float
    p_penalty: float
    expected_cards: float
    risk: bool
    turns_if_pass: float
    turns_if_risk: float


@cache
def advice(discarded: int, rules: Rules) -> Advice:
    """Odds of a risk roll at ``discarded`` and the solitaire-optimal decision."""
    _check_discarded(discarded)
    n = rules.dice_count(discarded)
    policy = solitaire_policy(rules)
    fail = p_risk_fails(discarded, rules)
    return Advice(
        discarded=discarded,
        dice=n,
        p_success=float(1 - fail),
        p_fail=float(fail),
        p_penalty=float(P_EVALUATED * fail),
        expected_cards=float(expected_cards(discarded + 1, n)),
        risk=policy.risk[discarded],
        turns_if_pass=policy.value_pass[discarded],
        turns_if_risk=policy.value_risk[discarded],
    )
