"""Swytch through the tools: ``switch16 replay [--json]`` of its transcripts (random legal
ones replay exactly; an illegal line is refused naming the line and the rule) and
``switch16 selfplay --game swytch``."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware.cli import main
from firmware.games.registry import get_game
from firmware.games.swytch.errors import IllegalMoveError
from firmware.transcript import dumps, line_writer, replay_text

SWYTCH = get_game("swytch")


def random_game(seed: int, first: int, ranks: int, turns: int) -> tuple[list[str], list]:
    """A transcript of ``turns`` random legal actions (fewer if the game ends) and its
    positions."""
    rng = random.Random(seed)
    header = SWYTCH.header(SWYTCH.setup_for(("human", "easy")), first)
    header = SWYTCH.header_from_json({**header.to_json(), "ranks": ranks})
    write = line_writer(header)
    state = header.initial_state()
    lines, states = [dumps(header.to_json())], [state]
    for _ in range(turns):
        if state.game_over:
            break
        action = rng.choice(list(state.legal_actions()))
        state = state.apply(action)
        lines.append(write(action))
        states.append(state)
    return lines, states


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), first=st.integers(0, 1), ranks=st.integers(8, 11),
       turns=st.integers(0, 60))  # fmt: skip
def test_a_random_legal_transcript_replays_exactly(seed: int, first: int, ranks: int,
                                                   turns: int) -> None:  # fmt: skip
    lines, states = random_game(seed, first, ranks, turns)
    result = replay_text("\n".join(lines) + "\n")
    assert result.ok and result.state == states[-1]
    assert result.to_json("f")["state"] == states[-1].to_json()
    # the JSON is the position (its repetition history stays with the transcript)
    assert SWYTCH.state_from_json(result.to_json("f")["state"]).to_json() == states[-1].to_json()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), turns=st.integers(0, 40), data=st.data())
def test_an_illegal_line_is_refused_naming_the_line_and_the_rule(
        seed: int, turns: int, data: st.DataObject) -> None:  # fmt: skip
    lines, states = random_game(seed, 0, 9, turns)
    before = states[-1]
    if before.game_over:
        return
    # an action legal for some position of this game, not for this one
    others = [a for s in states for a in s.legal_actions() if a not in before.legal_actions()]
    if not others:
        return
    bad = data.draw(st.sampled_from(others))
    with pytest.raises(IllegalMoveError) as refused:
        before.apply(bad)
    text = "\n".join([*lines, line_writer(SWYTCH.header(SWYTCH.setup_for(("human", "human")),
                                                        0))(bad)]) + "\n"  # fmt: skip
    result = replay_text(text)
    assert not result.ok and result.state == before
    assert result.error is not None and result.error.line == len(lines) + 1
    assert f"(rule: {refused.value.rule})" in result.error.message


def test_replay_json_of_a_swytch_transcript_prints_its_position(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    lines, states = random_game(7, 1, 9, 30)
    path = saved(tmp_path, lines)
    assert main(["replay", "--json", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == {"file": str(path), "state": states[-1].to_json()}
    assert out["state"]["game"] == "swytch"
    assert main(["replay", str(path)]) == 0
    text = capsys.readouterr().out
    assert "30 actions replayed" in text and SWYTCH.describe(states[-1])[0] in text


def test_selfplay_swytch_saves_into_a_directory_it_makes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    where = tmp_path / "new" / "games"
    assert main(["selfplay", "--game", "swytch", "--games", "2", "--seed", "1",
                 "--save", str(where), "--json"]) == 0  # fmt: skip
    out = json.loads(capsys.readouterr().out)
    saved = sorted(where.glob("game-*.jsonl"))
    assert len(saved) == 2 and main(["replay", *map(str, saved)]) == 0
    assert out["game"] == "swytch" and sum(out["wins"]) + out["draws"] == out["games"] == 2


def test_selfplay_swytch_shows_its_progress_when_asked(
        capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    assert main(["selfplay", "--game", "swytch", "--games", "2", "--seats", "easy,easy",
                 "--progress", "--json"]) == 0  # fmt: skip
    captured = capsys.readouterr()
    assert json.loads(captured.out)["games"] == 2
    assert "2/2" in captured.err and "game" in captured.err  # the bar, as Switch 16's


def test_selfplay_plays_the_game_s_own_small_default(monkeypatch: pytest.MonkeyPatch) -> None:
    import firmware.games.selfplay as selfplay

    played: list[int] = []

    def count(game: Any, seats: Any, games: int, *_: Any, **__: Any) -> Any:
        played.append(games)
        return selfplay.SelfPlay(game.name, game.title, tuple(seats), {}, 0)

    monkeypatch.setattr(selfplay, "run", count)
    assert main(["selfplay", "--game", "swytch", "--json"]) == 0
    assert played == [SWYTCH.selfplay_games] and SWYTCH.selfplay_games <= 20


def saved(tmp_path: Path, lines: list[str]) -> Path:
    """``lines`` as the transcript file ``tmp_path``/game.jsonl."""
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_review_of_a_swytch_game_values_each_decision_against_the_searching_bot(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    path = saved(tmp_path, random_game(3, 0, 9, 12)[0])
    assert main(["review", "--json", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["game"] == "swytch" and out["file"] == str(path) and not out["finished"]
    assert len(out["decisions"]) == 12 and len(out["values"]) == 13
    for d in out["decisions"]:
        assert d["loss"] == max(0.0, round(d["value_best"] - d["value"], 2)) or d["loss"] >= 0
        assert {"line", "seat", "action", "best"} <= set(d)
    worst = {s["seat"]: s["mistakes"] for s in out["summary"]}
    assert all(m == sorted(m, key=lambda d: -d["loss"]) for m in worst.values())
    assert main(["review", str(path)]) == 0
    text = capsys.readouterr().out
    assert "Swytch, 9 ranks" in text and "line  side   decision" in text


def test_the_swytch_end_screen_review_names_the_costliest_decision() -> None:
    lines, _ = random_game(5, 0, 9, 20)
    header = SWYTCH.header_from_json(json.loads(lines[0]))
    short = SWYTCH.review(header, lines[1:], [0, 1])
    assert set(short) == {0, 1}
    assert all(t == "no costly choice" or t.startswith("costliest: ") for t in short.values())
    assert any(t.startswith("costliest: ") for t in short.values())  # random play errs


def test_review_plots_a_swytch_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    path = saved(tmp_path, random_game(4, 1, 8, 6)[0])
    assert main(["review", "--plots", str(tmp_path / "plots"), str(path)]) == 0
    assert sorted(p.name for p in (tmp_path / "plots").iterdir()) == [
        "review-seat1.png", "review-seat2.png"]  # fmt: skip


def test_run_refuses_empty_seats(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["run", "--seats", ""])
    assert exited.value.code == 2 and "argument --seats: empty" in capsys.readouterr().err


def test_selfplay_says_how_many_seats_swytch_takes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selfplay", "--game", "swytch", "--seats", "easy,easy,easy"]) == 2
    assert "--seats needs 2 seats, got 3" in capsys.readouterr().err


def test_replay_starts_no_more_processes_than_files() -> None:
    import argparse

    from firmware.commands.replay import _jobs

    assert _jobs(argparse.Namespace(jobs=1000, files=["a.jsonl"])) == 1
    assert _jobs(argparse.Namespace(jobs=3, files=["a", "b", "c", "d"])) == 3
