"""The expert equals the solitaire optimum in the solitaire model, and its table play."""

from __future__ import annotations

import math
import random

import pytest

from firmware.games.switch16 import odds
from firmware.games.switch16.bots import advice_for, expert_risks
from firmware.games.switch16.engine import PRESETS, Phase
from firmware.games.switch16.engine.dice import CARDS, MAKEABLE, run_length

from .helpers import position


def solitaire_table(d: int, rules_name: str):  # type: ignore[no-untyped-def]
    """A table where nothing but the dice matters: the opponent's deck equals this one."""
    state = position(2, [d, d])
    state.rules = PRESETS[rules_name]
    return state


@pytest.mark.parametrize("preset", list(PRESETS))
def test_expert_risk_equals_odds_optimum_in_solitaire_model(preset: str) -> None:
    policy = odds.solitaire_policy(PRESETS[preset])
    for d in range(1, CARDS):
        assert expert_risks(solitaire_table(d, preset), 0) == policy.risk[d], d


def test_expert_turns_match_odds_expected_turns() -> None:
    """Simulated solitaire turns with the expert's decisions match odds' optimum (99 % CI)."""
    rules = PRESETS["pressman-2003"]
    decisions = [expert_risks(solitaire_table(d, "pressman-2003"), 0) for d in range(CARDS)]
    rolls = [k for k in MAKEABLE if len(k) == 3], [k for k in MAKEABLE if len(k) == 4]
    by_count = {3: rolls[0], 4: rolls[1], 5: [k for k in MAKEABLE if len(k) == 5]}
    rng = random.Random(16)
    samples = []
    for _ in range(4000):
        d, turns = 0, 0
        while d < CARDS:
            turns += 1
            risk = False
            while True:
                if rng.random() < 1 / 6:  # red: the turn ends
                    break
                k = run_length(MAKEABLE[rng.choice(by_count[rules.dice_count(d)])], d + 1)
                if k == 0:
                    if risk:
                        d = rules.after_penalty(d)
                    break
                d += k
                if d >= CARDS or not decisions[d]:
                    break
                risk = True
        samples.append(turns)
    mean = sum(samples) / len(samples)
    sd = math.sqrt(sum((x - mean) ** 2 for x in samples) / (len(samples) - 1))
    expected = odds.solitaire_policy(rules).expected_turns[0]
    assert abs(mean - expected) < 2.58 * sd / math.sqrt(len(samples))


def test_expert_sprints_when_its_deck_may_be_taken() -> None:
    """Passing at d=5 is solitaire-optimal; with worse decks around, the expert risks."""
    assert not odds.solitaire_policy(PRESETS["pressman-2003"]).risk[5]
    assert expert_risks(position(4, [5, 0, 0, 0]), 0)


def test_advice_for_uses_the_odds_module() -> None:
    state = position(3, [4, 4, 4])
    advice = advice_for(state, 0)
    base = odds.advice(4, state.rules)
    assert advice is not None
    assert advice.p_success == base.p_success
    assert advice.expected_cards == base.expected_cards
    assert advice.solitaire_risk == base.risk
    assert advice.risk == expert_risks(state, 0)
    assert advice_for(position(2, [16, 3], phase=Phase.OVER), 0) is None
