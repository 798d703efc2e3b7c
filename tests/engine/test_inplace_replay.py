"""The in-place replay fast path gives exactly what applying line by line gives."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from firmware.bots.randomly import random_bots
from firmware.driver import play
from firmware.engine import (
    DISCARD,
    PASS,
    RISK,
    EngineError,
    Face,
    Green,
    NewRound,
    Place,
    Red,
    Refuse,
    Roll,
    State,
    Take,
    inplace,
)
from firmware.engine.notation import Header, header_from_json
from firmware.engine.rules import _CHOICES as OPTION_CHOICES
from firmware.engine.rules import PRESETS, Rules, make_rules
from firmware.transcript import (
    Replayed,
    TranscriptError,
    _loads,
    action_line,
    header_line,
    parse_action,
    replay_text,
)

FIXTURES = Path(__file__).parent.parent / "fixtures" / "transcripts"


def reference(text: str) -> Replayed:
    """The replay before the fast path: the immutable engine, one apply per line."""
    lines = text.split("\n")
    ends_with_newline = lines[-1] == ""
    if ends_with_newline:
        lines.pop()
    header = header_from_json(_loads(lines[0]))
    state = header.initial_state()
    result = Replayed(header, state, good_length=len(lines[0]) + 1)
    consumed = result.good_length
    for number, line in enumerate(lines[1:], start=2):
        try:
            action = parse_action(line)
            state = state.apply(action)
        except (EngineError, ValueError) as exc:
            result.state = state
            result.error = TranscriptError(number, str(exc))
            result.torn = number == len(lines) and not ends_with_newline
            result.good_length = consumed
            return result
        result.actions.append(action)
        consumed += len(line) + 1
    result.state = state
    result.good_length = min(consumed, len(text))
    return result


def same(a: Replayed, b: Replayed) -> None:
    assert (a.header, a.state, a.actions, a.error, a.torn, a.good_length) == (
        b.header, b.state, b.actions, b.error, b.torn, b.good_length
    )  # fmt: skip
    assert a.state is not None and a.state.to_json(full=True) == b.state.to_json(full=True)


def generated(seed: int) -> str:
    rng = random.Random(seed)
    players = rng.randint(2, 4)
    options = {"points": True} if rng.random() < 0.3 else None
    header = Header(players, rng.randrange(players), make_rules(rng.choice(list(PRESETS)), options))
    _, actions = play(header.initial_state(), random_bots(players, rng), rng)
    return "\n".join([header_line(header), *map(action_line, actions)]) + "\n"


def damaged(text: str, rng: random.Random) -> str:
    """Lines dropped, swapped, duplicated or cut: illegal actions at random places."""
    lines = text.split("\n")[:-1]
    i = rng.randrange(1, len(lines))
    how = rng.randrange(4)
    if how == 0:
        del lines[i]
    elif how == 1 and i + 1 < len(lines):
        lines[i], lines[i + 1] = lines[i + 1], lines[i]
    elif how == 2:
        lines.insert(i, lines[i])
    else:
        return "\n".join(lines[: i + 1])[:-3]  # torn last line
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("seed", range(0, 400, 50))
def test_generated_transcripts_replay_identically(seed: int) -> None:
    rng = random.Random(seed)
    for n in range(seed, seed + 50):
        text = generated(n)
        same(replay_text(text), reference(text))
        bad = damaged(text, rng)
        same(replay_text(bad), reference(bad))
        same(replay_text(text.rstrip("\n")), reference(text.rstrip("\n")))


@pytest.mark.parametrize("path", sorted(FIXTURES.glob("*.jsonl")), ids=lambda p: p.name)
def test_fixture_transcripts_replay_identically(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    same(replay_text(text), reference(text))


def test_replay_never_changes_a_state_anyone_holds() -> None:
    text = generated(7)
    first = replay_text(text)
    assert first.state is not None
    before = first.state.to_json(full=True)
    again = replay_text(text)
    assert again.state == first.state and again.state is not first.state
    assert first.state.to_json(full=True) == before
    assert isinstance(State.new(2), State)


def random_rules(rng: random.Random) -> Rules:
    """A preset with every option drawn at random (the walk reads each of them)."""
    options = {name: rng.choice(values) for name, values in OPTION_CHOICES.items()}
    return make_rules(rng.choice(list(PRESETS)), options)


@pytest.mark.parametrize("seed", range(0, 600, 100))
def test_walk_matches_apply_under_every_option(seed: int) -> None:
    """inplace.walk (the replay's whole-transcript fast path) reaches the state apply()
    reaches, and gives up (None) exactly when some action is illegal: generated games
    under random options, damaged copies (lines dropped, swapped, repeated) and
    random legal-looking actions."""
    rng = random.Random(seed)
    for _ in range(100):
        players = rng.randint(2, 4)
        header = Header(players, rng.randrange(players), random_rules(rng))
        _, actions = play(header.initial_state(), random_bots(players, rng), rng)
        candidates = [actions]
        for _ in range(3):
            bad = list(actions)
            i = rng.randrange(len(bad))
            how = rng.randrange(4)
            if how == 0:
                del bad[i]
            elif how == 1 and i + 1 < len(bad):
                bad[i], bad[i + 1] = bad[i + 1], bad[i]
            elif how == 2:
                bad.insert(i, bad[i])
            else:
                bad.insert(i, rng.choice(ODD_ACTIONS))
            candidates.append(bad)
        for acts in candidates:
            expected: State | None = header.initial_state()
            for action in acts:
                try:
                    expected = expected.apply(action)  # type: ignore[union-attr]
                except EngineError:
                    expected = None
                    break
            walked = inplace.walk(header.initial_state(), [inplace.entry(a) for a in acts])
            assert walked == expected
            if walked is not None and expected is not None:
                assert walked.to_json(full=True) == expected.to_json(full=True)


ODD_ACTIONS = (
    Green(None), Green(0), Green(3), Green(7), Red(0), Red(2), Take(True), Take(False),
    Refuse(True), Refuse(False), Place(0, 1), Place(1, 0), Place(0, 0), Place(2, 5),
    NewRound(0), NewRound(9), Roll((1, 2, 3), Face.RED), Roll((6, 6, 6, 6), Face.BLANK),
    Roll((0, 2, 3), Face.BLANK), RISK, PASS, DISCARD,
)  # fmt: skip
