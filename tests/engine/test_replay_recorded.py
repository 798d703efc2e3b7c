"""Replays against outcomes recorded once (``tests/fixtures/replays.jsonl``): the rules
have one implementation (``State``'s handlers), so they are checked against what
they produced before, not against a second copy of themselves.

Each recorded case is a transcript made from a seed (random bots under a preset,
half of them with every rule option drawn at random), played as written, damaged
(a line dropped, swapped, repeated or an odd action put in) or cut short, with what
``replay_text`` gave for it: the actions replayed, the error (line and message),
whether the last line was torn, the length of good text and a digest of the final
position (``to_json(full=True)``).

After a deliberate change of the rules, record again (and say why in the commit)::

    python -m tests.engine.test_replay_recorded
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

import pytest

from firmware.games.switch16.bots.randomly import random_bots
from firmware.games.switch16.driver import play
from firmware.games.switch16.engine import (
    DISCARD,
    PASS,
    RISK,
    Action,
    Face,
    Green,
    NewRound,
    Place,
    Red,
    Refuse,
    Roll,
    State,
    Take,
)
from firmware.games.switch16.engine.inplace import apply_in_place, thaw
from firmware.games.switch16.engine.notation import Header
from firmware.games.switch16.engine.rules import _CHOICES as OPTION_CHOICES
from firmware.games.switch16.engine.rules import PRESETS, Rules, make_rules
from firmware.games.switch16.transcript_lines import action_line
from firmware.kernel.errors import EngineError
from firmware.transcript import Replayed, header_line, replay_text

FIXTURES = Path(__file__).parent.parent / "fixtures"
RECORDED = FIXTURES / "replays.jsonl"
SEEDS = range(240)
VARIANTS = ("as written", "damaged", "odd action", "no final newline")

ODD_ACTIONS: tuple[Action, ...] = (
    Green(None), Green(0), Green(3), Green(7), Red(0), Red(2), Take(True), Take(False),
    Refuse(True), Refuse(False), Place(0, 1), Place(1, 0), Place(0, 0), Place(2, 5),
    NewRound(0), NewRound(9), Roll((1, 2, 3), Face.RED), Roll((6, 6, 6, 6), Face.BLANK),
    Roll((0, 2, 3), Face.BLANK), RISK, PASS, DISCARD,
)  # fmt: skip


def random_rules(rng: random.Random) -> Rules:
    """A preset, every other time with each rule option drawn at random."""
    preset = rng.choice(list(PRESETS))
    if rng.random() < 0.5:
        return make_rules(preset, {"points": True} if rng.random() < 0.3 else None)
    return make_rules(preset, {name: rng.choice(v) for name, v in OPTION_CHOICES.items()})


def variants(seed: int) -> list[str]:
    """The transcript of ``seed`` in every variant of :data:`VARIANTS`."""
    rng = random.Random(seed)
    players = rng.randint(2, 4)
    header = Header(players, rng.randrange(players), random_rules(rng))
    _, actions = play(header.initial_state(), random_bots(players, rng), rng)
    lines = [header_line(header), *map(action_line, actions)]
    damaged = list(lines)
    i = rng.randrange(1, len(damaged))
    how = rng.randrange(3)
    if how == 0:
        del damaged[i]
    elif how == 1 and i + 1 < len(damaged):
        damaged[i], damaged[i + 1] = damaged[i + 1], damaged[i]
    else:
        damaged.insert(i, damaged[i])
    odd = list(lines)
    odd.insert(rng.randrange(1, len(odd) + 1), action_line(rng.choice(ODD_ACTIONS)))
    text = "\n".join(lines) + "\n"
    return [text, "\n".join(damaged) + "\n", "\n".join(odd) + "\n", text[:-1]]


def digest(state: State | None) -> str | None:
    if state is None:
        return None
    text = json.dumps(state.to_json(full=True), sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def outcome(result: Replayed) -> dict[str, Any]:
    error = result.error
    return {
        "actions": len(result.actions),
        "error": None if error is None else [error.line, error.message],
        "torn": result.torn,
        "good_length": result.good_length,
        "state": digest(result.state),
    }


def cases() -> list[tuple[str, str]]:
    """(name, transcript text) of every recorded case."""
    out = [(f"fixture {p.name}", p.read_text(encoding="utf-8"))
           for p in sorted((FIXTURES / "transcripts").glob("*.jsonl"))]  # fmt: skip
    for seed in SEEDS:
        texts = zip(VARIANTS, variants(seed), strict=True)
        out += [(f"seed {seed} {name}", text) for name, text in texts]
    return out


def recorded() -> dict[str, dict[str, Any]]:
    rows = [json.loads(line) for line in RECORDED.read_text(encoding="utf-8").splitlines()]
    return {row.pop("case"): row for row in rows}


RECORDS = recorded() if RECORDED.exists() else {}


@pytest.mark.parametrize("chunk", range(8))
def test_replays_give_what_was_recorded(chunk: int) -> None:
    mine = cases()[chunk::8]
    assert mine
    for name, text in mine:
        assert outcome(replay_text(text)) == RECORDS[name], name


def test_every_recorded_case_is_still_made() -> None:
    assert [name for name, _ in cases()] == list(RECORDS)


@pytest.mark.parametrize("seed", range(0, 60, 10))
def test_an_illegal_action_changes_nothing(seed: int) -> None:
    """A handler checks everything before it changes anything, so a step that raises
    leaves even a state changed in place as it was (replay keeps it: the position
    before a bad line)."""
    rng = random.Random(seed)
    for _ in range(10):
        players = rng.randint(2, 4)
        header = Header(players, rng.randrange(players), random_rules(rng))
        _, actions = play(header.initial_state(), random_bots(players, rng), rng)
        live = thaw(header.initial_state())
        for action in actions:
            for odd in rng.sample(ODD_ACTIONS, 6):
                before = live.to_json(full=True)
                try:
                    apply_in_place(live, odd)
                except EngineError:
                    assert live.to_json(full=True) == before, odd
                    continue
                live = thaw(State.from_json(before))  # it was legal: undo it
            apply_in_place(live, action)


def test_replay_never_changes_a_state_anyone_holds() -> None:
    text = variants(7)[0]
    first = replay_text(text)
    assert first.state is not None
    before = first.state.to_json(full=True)
    again = replay_text(text)
    assert again.state == first.state and again.state is not first.state
    assert first.state.to_json(full=True) == before


def record() -> None:
    """Write :data:`RECORDED` from the replays of today's code."""
    rows = [{"case": name, **outcome(replay_text(text))} for name, text in cases()]
    RECORDED.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    print(f"{RECORDED}: {len(rows)} cases")


if __name__ == "__main__":
    record()
