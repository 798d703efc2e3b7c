"""The in-place driver (``firmware.games.switch16.driver.steps``, self-play's) plays the very game
``moves`` plays, with every bot level, player count, preset and points."""

from __future__ import annotations

import random

import pytest

from firmware.games.switch16.bots import Bot, RandomBot, make_bot
from firmware.games.switch16.driver import moves, steps
from firmware.games.switch16.engine import DEFAULT_PRESET, PRESETS, State, make_rules
from firmware.games.switch16.engine.inplace import freeze

TABLES = [
    ("master", "expert"),
    ("expert", "rulebook", "easy"),
    ("master", "rulebook", "rulebook", "rulebook"),
    ("expert", "master", "expert", "easy"),
    ("random", "random", "random"),
]


def bots_for(levels: tuple[str, ...], seed: int) -> list[Bot]:
    return [
        RandomBot(s, random.Random(seed + s)) if lv == "random"
        else make_bot(lv, s, random.Random(seed + s))
        for s, lv in enumerate(levels)
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("preset", "points"), [*((p, False) for p in sorted(PRESETS)), (DEFAULT_PRESET, True)]
)
@pytest.mark.parametrize("levels", TABLES, ids="-".join)
def test_steps_play_the_game_moves_plays(
    levels: tuple[str, ...], preset: str, points: bool
) -> None:
    rules = make_rules(preset, {"points": True} if points else None)
    for seed in range(2):
        start = State.new(len(levels), seed % len(levels), rules)
        expected = [
            (a, after) for _, a, after in moves(start, bots_for(levels, seed), random.Random(seed))
        ]
        got = [(a, freeze(s)) for a, s in steps(start, bots_for(levels, seed), random.Random(seed))]
        assert [a for a, _ in got] == [a for a, _ in expected]
        assert [s for _, s in got] == [s for _, s in expected]
        assert got[-1][1].game_over
        assert start == State.new(len(levels), seed % len(levels), rules)  # untouched
