"""Tests for Switch 16's odds and ``switch16 odds``: closed forms, cross-checks, output."""

from __future__ import annotations

import json
import math
import random
from fractions import Fraction
from functools import cache
from itertools import combinations, product

import pytest

from firmware.cli import main
from firmware.games.switch16 import odds
from firmware.games.switch16.engine.dice import MAKEABLE
from firmware.games.switch16.engine.rules import PRESETS, Rules, make_rules

CARDS = 16


@cache
def brute_cards(dice: tuple[int, ...]) -> frozenset[int]:
    """Cards makeable from sorted ``dice``, by listing subsets (independent of MAKEABLE)."""
    return frozenset(
        sum(c) for r in range(1, len(dice) + 1) for c in combinations(dice, r) if sum(c) <= CARDS
    )


def brute_run(dice: tuple[int, ...], top: int) -> int:
    cards = brute_cards(tuple(sorted(dice)))
    k = 0
    while top + k <= CARDS and top + k in cards:
        k += 1
    return k


# --- roll odds ---------------------------------------------------------------------------


def test_p_make_closed_forms() -> None:
    assert odds.p_make(1, 3) == 1 - Fraction(5, 6) ** 3
    assert odds.p_make(1, 1) == Fraction(1, 6)
    assert odds.p_make(6, 1) == Fraction(1, 6)
    # 2 with two dice: a die shows 2, or (1, 1): 11 + 1 = 12 of 36 rolls.
    assert odds.p_make(2, 2) == Fraction(12, 36)
    assert odds.p_make(16, 5) > 0
    assert isinstance(odds.p_make_float(1, 3), float)
    assert odds.p_make_float(1, 3) == pytest.approx(91 / 216)


@pytest.mark.parametrize("n", range(1, 6))
def test_p_make_zero_beyond_six_per_die(n: int) -> None:
    for top in range(1, CARDS + 1):
        if top > 6 * n:
            assert odds.p_make(top, n) == 0
        else:
            assert odds.p_make(top, n) > 0


def test_rules_examples() -> None:
    """RULES examples: (1, 3, 4) discards card 1 only, (1, 2, 4) cards 1..7."""
    assert brute_run((1, 3, 4), 1) == 1
    assert brute_run((1, 2, 4), 1) == 7
    # Both are among the ordered rolls counted by run_distribution: 6 orders each.
    counts = odds.run_counts(1, 3)
    assert counts[7] == 6  # only (1, 2, 4) reaches card 7 and stops at 8
    assert counts[1] >= 6


@pytest.mark.parametrize("n", range(1, 6))
def test_distributions_match_brute_force(n: int) -> None:
    for top in range(1, CARDS + 1):
        dist = odds.run_distribution(top, n)
        assert len(dist) == CARDS + 2 - top
        assert sum(dist) == 1  # exact
        expected = [0] * len(dist)
        for roll in product(range(1, 7), repeat=n):
            expected[brute_run(roll, top)] += 1
        assert dist == tuple(Fraction(c, 6**n) for c in expected)
        assert odds.p_make(top, n) == 1 - dist[0]
        assert odds.expected_cards(top, n) == sum(k * p for k, p in enumerate(dist))
        assert odds.run_distribution_float(top, n) == pytest.approx([float(p) for p in dist])


def test_monotonic_sanity() -> None:
    # More dice never hurt: every subset sum of n dice is one of n + 1 dice.
    for top in range(1, CARDS + 1):
        for n in range(1, 5):
            assert odds.p_make(top, n + 1) >= odds.p_make(top, n)
            assert odds.expected_cards(top, n + 1) >= odds.expected_cards(top, n)
    # With three dice, cards above the 1..6 faces get harder as the sum grows.
    for top in range(7, CARDS):
        assert odds.p_make(top + 1, 3) <= odds.p_make(top, 3)
    # Cards 1..6 get easier with three dice (a die value or a smaller sum).
    for top in range(1, 6):
        assert odds.p_make(top + 1, 3) > odds.p_make(top, 3)


def test_mask_counts_cover_every_roll() -> None:
    for n in range(1, 6):
        assert sum(odds.mask_counts(n).values()) == 6**n
        assert all(len(k) == n for k in MAKEABLE if len(k) == n)


def test_risk_failure_and_penalty() -> None:
    rules = PRESETS["pressman-2003"]
    assert odds.p_risk_fails(0, rules) == Fraction(5, 6) ** 3
    assert odds.p_penalty(0, rules) == Fraction(5, 6) ** 4
    tablier = PRESETS["tablier"]
    # Top card 7: pressman rolls 4 dice, tablier (6 discarded) still 3.
    assert odds.p_risk_fails(6, rules) == 1 - odds.p_make(7, 4)
    assert odds.p_risk_fails(6, tablier) == 1 - odds.p_make(7, 3)
    for d in range(CARDS):
        assert odds.p_penalty(d, rules) == Fraction(5, 6) * odds.p_risk_fails(d, rules)


def test_bad_arguments() -> None:
    with pytest.raises(ValueError):
        odds.p_make(0, 3)
    with pytest.raises(ValueError):
        odds.p_make(17, 3)
    with pytest.raises(ValueError):
        odds.p_make(1, 6)
    with pytest.raises(ValueError):
        odds.p_risk_fails(16, PRESETS["pressman-2003"])


# --- the solitaire policy --------------------------------------------------------------


def value_iteration(rules: Rules, tol: float = 1e-13) -> tuple[list[float], list[bool]]:
    """An independent float solution of the solitaire model, from brute-force dice."""
    dists = []
    for d in range(CARDS):
        n = rules.dice_count(d)
        counts = [0] * (CARDS + 1 - d)
        for roll in product(range(1, 7), repeat=n):
            counts[brute_run(roll, d + 1)] += 1
        dists.append([c / 6**n for c in counts])
    turns = [0.0] * CARDS
    while True:
        mid = [0.0] * (CARDS + 1)  # best value mid-turn at d (after this turn); 16: done
        risk_value = [0.0] * CARDS
        for d in range(CARDS - 1, -1, -1):
            q = dists[d]
            cont = q[0] * turns[rules.after_penalty(d)] + sum(
                q[k] * mid[d + k] for k in range(1, len(q))
            )
            risk_value[d] = turns[d] / 6 + 5 / 6 * cont
            mid[d] = min(turns[d], risk_value[d])
        new = []
        for d in range(CARDS):
            q = dists[d]
            cont = q[0] * turns[d] + sum(q[k] * mid[d + k] for k in range(1, len(q)))
            new.append(1 + turns[d] / 6 + 5 / 6 * cont)
        change = max(abs(a - b) for a, b in zip(new, turns, strict=True))
        turns = new
        if change < tol:
            return turns, [risk_value[d] < turns[d] for d in range(CARDS)]


@pytest.mark.parametrize("name", list(PRESETS))
def test_policy_matches_value_iteration(name: str) -> None:
    rules = PRESETS[name]
    policy = odds.solitaire_policy(rules)
    turns, risk = value_iteration(rules)
    assert policy.expected_turns == pytest.approx(turns, rel=1e-9)
    for d in range(1, CARDS):
        if abs(policy.value_risk[d] - policy.value_pass[d]) > 1e-9:
            assert policy.risk[d] == risk[d], d


@pytest.mark.parametrize("name", list(PRESETS))
def test_policy_is_self_consistent(name: str) -> None:
    """The exact values satisfy the Bellman equations with no slack."""
    rules = PRESETS[name]
    policy = odds.solitaire_policy(rules)
    turns = policy.expected_turns_exact
    risks = policy.value_risk_exact
    mid = [min(turns[d], risks[d]) if d else turns[0] for d in range(CARDS)]
    mid.append(Fraction(0))
    for d in range(CARDS):
        q = odds.run_distribution(d + 1, rules.dice_count(d))
        rest = sum((q[k] * mid[d + k] for k in range(1, len(q))), start=Fraction(0))
        assert turns[d] == 1 + turns[d] / 6 + Fraction(5, 6) * (q[0] * turns[d] + rest)
        risk = turns[d] / 6 + Fraction(5, 6) * (q[0] * turns[rules.after_penalty(d)] + rest)
        assert policy.value_risk_exact[d] == risk
        assert policy.risk[d] == (risk < turns[d])
    assert policy.value_pass == policy.expected_turns
    assert policy.risk_positions == tuple(d for d in range(1, CARDS) if policy.risk[d])
    assert len(policy.expected_turns) == len(policy.risk) == len(policy.value_risk) == CARDS
    assert odds.solitaire_policy(rules) is policy  # cached


def simulate(rules: Rules, risk: tuple[bool, ...], games: int, seed: int) -> list[int]:
    """Play solitaire games following ``risk``; the number of turns each took."""
    rng = random.Random(seed)
    results = []
    for _ in range(games):
        d, turns = 0, 0
        while d < CARDS:
            turns += 1
            first = True
            while True:
                red = rng.randrange(6) == 0
                roll = tuple(rng.randint(1, 6) for _ in range(rules.dice_count(d)))
                if red:
                    break
                k = brute_run(roll, d + 1)
                if k == 0:
                    if not first:
                        d = rules.after_penalty(d)
                    break
                d += k
                first = False
                if d >= CARDS or not risk[d]:
                    break
        results.append(turns)
    return results


@pytest.mark.parametrize(
    ("name", "games"), [("pressman-2003", 20_000), ("playmonster-2022", 8000), ("tablier", 8000)]
)
def test_monte_carlo_matches_expected_turns(name: str, games: int) -> None:
    rules = PRESETS[name]
    policy = odds.solitaire_policy(rules)
    turns = simulate(rules, policy.risk, games=games, seed=16)
    mean = sum(turns) / len(turns)
    sd = math.sqrt(sum((t - mean) ** 2 for t in turns) / (len(turns) - 1))
    assert abs(mean - policy.expected_turns[0]) < 4 * sd / math.sqrt(len(turns))


def test_policy_beats_simple_policies() -> None:
    """The optimum is no worse than always passing or always risking (exact values)."""
    for rules in PRESETS.values():
        policy = odds.solitaire_policy(rules)
        for fixed in (False, True):
            dists = [odds.run_distribution(d + 1, rules.dice_count(d)) for d in range(CARDS)]
            pen = [rules.after_penalty(d) for d in range(CARDS)]
            values = odds._evaluate([fixed] * CARDS, dists, pen)
            assert policy.expected_turns_exact[0] <= values[0]


def test_presets_differ_and_options_apply() -> None:
    pressman = odds.solitaire_policy(PRESETS["pressman-2003"])
    playmonster = odds.solitaire_policy(PRESETS["playmonster-2022"])
    tablier = odds.solitaire_policy(PRESETS["tablier"])
    # A harsher penalty or fewer dice can only cost turns.
    assert pressman.expected_turns[0] < playmonster.expected_turns[0]
    assert pressman.expected_turns[0] < tablier.expected_turns[0]
    # Top card 9 in pressman: a failed risk keeps card 8, so risking is free.
    assert pressman.risk[8]
    assert not playmonster.risk[8]
    # Same last card everywhere: 5 dice for card 16.
    assert pressman.expected_turns[15] == playmonster.expected_turns[15]
    custom = make_rules("pressman-2003", {"penalty_low_max": 11})
    assert odds.solitaire_policy(custom).expected_turns == playmonster.expected_turns


def test_advice() -> None:
    rules = PRESETS["pressman-2003"]
    policy = odds.solitaire_policy(rules)
    for d in range(CARDS):
        a = odds.advice(d, rules)
        n = rules.dice_count(d)
        assert a.dice == n
        assert a.p_success == pytest.approx(float(odds.p_make(d + 1, n)))
        assert a.p_success + a.p_fail == pytest.approx(1)
        assert a.p_penalty == pytest.approx(5 / 6 * a.p_fail)
        assert a.expected_cards == pytest.approx(float(odds.expected_cards(d + 1, n)))
        assert a.risk == policy.risk[d]
        assert a.risk == (a.turns_if_risk < a.turns_if_pass)
    assert odds.advice(0, rules).p_success == pytest.approx(91 / 216)


# --- the command ------------------------------------------------------------------------


def test_command_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds"]) == 0
    out = capsys.readouterr().out
    for name in PRESETS:
        policy = odds.solitaire_policy(PRESETS[name])
        assert f"{name}: {policy.expected_turns[0]:.3f} expected turns" in out
    assert "P(make)" in out and "P(risk fails)" in out and "E[turns]" in out
    assert out.count("risk at top cards:") == 3


def test_command_one_preset_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "--rules", "tablier", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    (report,) = data["presets"]
    rules = PRESETS["tablier"]
    policy = odds.solitaire_policy(rules)
    assert report["rules"] == "tablier"
    assert report["expected_turns"] == pytest.approx(policy.expected_turns[0])
    assert report["risk_at_top"] == [d + 1 for d in policy.risk_positions]
    rows = report["rows"]
    assert [r["top"] for r in rows] == list(range(1, CARDS + 1))
    for d, row in enumerate(rows):
        assert row["dice"] == rules.dice_count(d)
        assert sum(row["distribution"]) == pytest.approx(1)
        assert row["p_make"] == pytest.approx(1 - row["p_risk_fails"])
        assert row["p_penalty"] == pytest.approx(5 / 6 * row["p_risk_fails"])
        assert row["expected_turns"] == pytest.approx(policy.expected_turns[d])
        expected = None if d == 0 else ("risk" if policy.risk[d] else "pass")
        assert row["decision"] == expected
    assert rows[6]["dice"] == 3  # tablier: 6 discarded still rolls 3 dice


def test_command_dice(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "--dice", "3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["dice"] == 3
    assert data["rows"][0]["p_make"] == pytest.approx(91 / 216)
    assert data["rows"][0]["distribution"][7] == pytest.approx(6 / 216)
    assert main(["odds", "--dice", "5"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("one roll of 5 dice")
    with pytest.raises(SystemExit):
        main(["odds", "--dice", "6"])


def test_odds_is_switch16s_own_command_listed_by_switch16_help(capsys):
    """``switch16 odds`` lives in Switch 16's package (its ``commands``), not the
    platform's, and ``switch16 --help`` still lists it."""
    from firmware.cli import command_modules

    assert command_modules()["odds"] == "firmware.games.switch16.commands.odds"
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "odds" in capsys.readouterr().out
