"""``switch16 odds``: exact roll odds and the solitaire-optimal risk policy per preset."""

from __future__ import annotations

import argparse
import json
from typing import Any

from firmware.games.switch16.engine.dice import MAX_DICE, MIN_DICE
from firmware.games.switch16.engine.rules import CARDS, PRESETS, Rules

HELP = "Exact roll odds and the solitaire-optimal risk policy for each rules preset."


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--rules",
        choices=list(PRESETS),
        metavar="PRESET",
        help=f"one preset ({', '.join(PRESETS)}); default: all of them",
    )
    parser.add_argument(
        "--dice",
        type=int,
        choices=range(MIN_DICE, MAX_DICE + 1),
        metavar="N",
        help=f"instead, the odds of one roll of N dice ({MIN_DICE}..{MAX_DICE}) for every top card",
    )
    parser.add_argument("--json", action="store_true", help="print machine-readable JSON")


def _preset_report(rules: Rules) -> dict[str, Any]:
    # lazy: switch16 --help imports every command module: keep that light
    from firmware.games.switch16 import odds

    policy = odds.solitaire_policy(rules)
    rows = []
    for d in odds.POSITIONS:
        n = rules.dice_count(d)
        rows.append(
            {
                "top": d + 1,
                "discarded": d,
                "dice": n,
                "p_make": float(odds.p_make(d + 1, n)),
                "distribution": list(odds.run_distribution_float(d + 1, n)),
                "expected_cards": float(odds.expected_cards(d + 1, n)),
                "p_risk_fails": float(odds.p_risk_fails(d, rules)),
                "p_penalty": float(odds.p_penalty(d, rules)),
                "expected_turns": policy.expected_turns[d],
                "turns_if_pass": policy.value_pass[d],
                "turns_if_risk": policy.value_risk[d],
                "decision": None if d == 0 else "risk" if policy.risk[d] else "pass",
            }
        )
    return {
        "rules": rules.name,
        "expected_turns": policy.expected_turns[0],
        "risk_at_top": [d + 1 for d in policy.risk_positions],
        "rows": rows,
    }


def _dice_report(n_dice: int) -> dict[str, Any]:
    # lazy: switch16 --help imports every command module: keep that light
    from firmware.games.switch16 import odds

    return {
        "dice": n_dice,
        "rows": [
            {
                "top": top,
                "p_make": float(odds.p_make(top, n_dice)),
                "distribution": list(odds.run_distribution_float(top, n_dice)),
                "expected_cards": float(odds.expected_cards(top, n_dice)),
            }
            for top in range(1, CARDS + 1)
        ],
    }


def _preset_text(report: dict[str, Any]) -> list[str]:
    lines = [
        f"{report['rules']}: {report['expected_turns']:.3f} expected turns from a fresh deck "
        "(solitaire, optimal risks)",
        " top  dice  P(make)  P(risk fails)  P(penalty)  E[cards]  E[turns]  after a discard",
    ]
    for row in report["rows"]:
        lines.append(
            f"{row['top']:>4}  {row['dice']:>4}  {row['p_make']:>7.4f}  "
            f"{row['p_risk_fails']:>13.4f}  {row['p_penalty']:>10.4f}  "
            f"{row['expected_cards']:>8.3f}  {row['expected_turns']:>8.3f}  "
            f"{row['decision'] or '-'}"
        )
    risky = ", ".join(str(t) for t in report["risk_at_top"]) or "none"
    lines.append(f"risk at top cards: {risky}")
    return lines


def _dice_text(report: dict[str, Any]) -> list[str]:
    lines = [
        f"one roll of {report['dice']} dice",
        " top  P(make)  E[cards]  P(k cards discarded), k = 0, 1, 2, ...",
    ]
    for row in report["rows"]:
        dist = list(row["distribution"])
        while len(dist) > 1 and dist[-1] == 0:
            dist.pop()
        shown = " ".join(f"{p:.4f}" for p in dist)
        lines.append(
            f"{row['top']:>4}  {row['p_make']:>7.4f}  {row['expected_cards']:>8.3f}  {shown}"
        )
    return lines


def run(args: argparse.Namespace) -> int:
    names = [args.rules] if args.rules else list(PRESETS)
    if args.dice is not None:
        report = _dice_report(args.dice)
        print(json.dumps(report) if args.json else "\n".join(_dice_text(report)))
        return 0
    reports = [_preset_report(PRESETS[name]) for name in names]
    if args.json:
        print(json.dumps({"presets": reports}))
        return 0
    blocks = ["\n".join(_preset_text(report)) for report in reports]
    print("\n\n".join(blocks))
    return 0
