"""Per-rules lookup tables the bots read while playing (built once
from :mod:`firmware.games.switch16.odds`).

Index ``d`` is a deck's discarded count (0..16). Expected turns count the solitaire
model (see :mod:`firmware.games.switch16.odds`); ``turns[16]`` is 0 (finished).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from firmware.games.switch16 import odds

from ..engine.rules import CARDS, Rules


@dataclass(frozen=True, slots=True)
class Tables:
    """Solitaire-optimal values and risk-roll odds for one rule set."""

    rules: Rules
    #: Expected turns to finish from the start of a turn at ``d`` (0 at 16).
    turns: tuple[float, ...]
    #: Expected turns after the current one when taking a risk at ``d`` (mid-turn).
    turns_if_risk: tuple[float, ...]
    #: Best mid-turn value at ``d``: ``min(turns, turns_if_risk)`` (0 at 16).
    mid: tuple[float, ...]
    #: The solitaire-optimal decision at ``d`` (True = risk).
    risk: tuple[bool, ...]
    #: P(a risk roll's numbered dice discard nothing) at ``d``.
    p_fail: tuple[float, ...]
    #: Discarded count after a penalty at ``d``.
    after_penalty: tuple[int, ...]
    #: Numbered dice rolled at ``d``.
    dice: tuple[int, ...]


@cache
def tables(rules: Rules) -> Tables:
    """The tables for ``rules`` (cached: the first call solves the solitaire model)."""
    policy = odds.solitaire_policy(rules)
    turns = (*policy.expected_turns, 0.0)
    risk_values = (*policy.value_risk, 0.0)
    advice = [odds.advice(d, rules) for d in range(CARDS)]
    return Tables(
        rules=rules,
        turns=turns,
        turns_if_risk=risk_values,
        mid=tuple(min(t, r) for t, r in zip(turns, risk_values, strict=True)),
        risk=(*policy.risk, False),
        p_fail=(*(a.p_fail for a in advice), 0.0),
        after_penalty=(*(rules.after_penalty(d) for d in range(CARDS)), CARDS),
        dice=(*(rules.dice_count(d) for d in range(CARDS)), 0),
    )
