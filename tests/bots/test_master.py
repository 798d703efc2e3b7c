"""The master: legal everywhere, its model and search sane, stronger than the expert
(a small-sample version of the README's table, with a wide margin), and the review."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from firmware import cli
from firmware.games.selfplay import play_game, run
from firmware.games.switch16.bots import make_bot
from firmware.games.switch16.bots.master import action_values, best_action
from firmware.games.switch16.bots.review import review, short_text
from firmware.games.switch16.bots.search import refuses, state_value
from firmware.games.switch16.bots.stats.train_master import collect, rotate
from firmware.games.switch16.bots.value import key_of, model_for, table_keys
from firmware.games.switch16.engine import PASS, PRESETS, RISK, Green, Phase, State, make_rules
from firmware.games.switch16.game import GAME
from firmware.transcript import write_transcript

from .helpers import checked_game, finishing_position, position


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_master_plays_legal_games(preset: str, players: int) -> None:
    levels = ["master", "expert", "rulebook", "easy"][:players]
    for seed in range(3):
        assert checked_game(levels, preset, points=False, seed=seed).winner is not None


def test_master_plays_a_points_match() -> None:
    state = checked_game(["master", "expert", "master"], "tablier", points=True, seed=4)
    assert state.match_winners


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_values_are_probabilities(preset: str, players: int) -> None:
    state = position(players, [3, 9, 14, 0][:players])
    v = state_value(state)
    assert len(v) == players and abs(sum(v) - 1) < 1e-9 and all(0 <= p <= 1 for p in v)
    start = model_for(PRESETS[preset], players).probs(key_of(state))
    assert abs(sum(start) - 1) < 1e-9


def test_two_player_table_covers_every_position() -> None:
    model = model_for(make_rules(), 2)
    for key in table_keys(2)[::97]:
        p = model.probs(key)
        assert 0 <= p[0] <= 1 and abs(sum(p) - 1) < 1e-12


def test_master_lays_the_chip_on_a_finishing_run() -> None:
    state = finishing_position()
    bot = make_bot("master", 1)
    assert bot.interject(state) is not None


def test_master_risks_when_an_opponent_is_about_to_win() -> None:
    """At 4 cards gone a lone player might pass; with a deck at 15 opposite, risk."""
    state = position(2, [4, 15])
    values = action_values(state, 0)
    assert values[RISK][0] > values[PASS][0]
    assert best_action(state, 0)[0] == RISK


def test_training_collects_deterministically() -> None:
    rules = make_rules()
    a = collect(rules, 3, 5, seed=3, levels_mix=("expert", "rulebook"))
    assert a == collect(rules, 3, 5, seed=3, levels_mix=("expert", "rulebook"))
    assert all(key[3] == 0 for key in a)
    assert rotate(((1, 2, 3), 2, -1, 1)) == ((2, 3, 1), 1, -1, 0)


def test_master_beats_rulebook_bots_small_sample() -> None:
    """README: >= 42 % over 20,000 games (parity 25 %); here 600 games, margin ~4 SE."""
    summary = run(GAME, ["master", "rulebook", "rulebook", "rulebook"], 600, seed=3)
    assert summary.win_rates()[0][0] >= 0.30


def test_master_beats_expert_heads_up_small_sample() -> None:
    summary = run(GAME, ["master", "expert"], 800, seed=3)
    assert summary.win_rates()[0][0] >= 0.47


def _save(tmp_path: Path, levels: list[str], points: bool) -> Path:
    game = play_game(GAME, levels, {"rules": "pressman-2003", "points": points}, 11, record=True)
    path = tmp_path / "game.jsonl"
    write_transcript(path, game.header, game.actions)
    return path


def test_review_of_a_points_match(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _save(tmp_path, ["master", "rulebook", "easy"], points=True)
    assert cli.main(["review", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["points"] and out["decisions"]
    assert len(out["p_win"]) == sum(1 for _ in path.open())
    seats = {d["seat"] for d in out["decisions"]}
    assert seats == {0, 1, 2}
    for d in out["decisions"]:
        assert d["loss"] >= 0 and d["p_win_best"] >= d["p_win"] - 1e-9
    summary = {s["seat"]: s for s in out["summary"]}
    assert summary[0]["total_loss"] <= summary[2]["total_loss"]  # master vs easy
    assert cli.main(["review", str(path)]) == 0
    text = capsys.readouterr().out
    assert "total loss" in text and "seat 3 (easy)" in text  # seats read 1-3
    assert "won by seat " in text and "unfinished" not in text


def test_review_of_an_unfinished_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """It says so and reviews the decisions up to where the transcript stops."""
    whole = _save(tmp_path, ["master", "easy"], points=False)
    lines = whole.read_text().splitlines(keepends=True)
    path = tmp_path / "unfinished.jsonl"
    path.write_text("".join(lines[:40]))
    assert cli.main(["review", str(path)]) == 0
    text = capsys.readouterr().out
    assert "unfinished (it stops at line 40): the decisions so far" in text.splitlines()[0]
    assert "won by" not in text and "line  seat  decision" in text
    assert cli.main(["review", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["finished"] is False and out["winners"] == [] and out["decisions"]
    assert all(d["line"] <= 40 for d in out["decisions"])


def test_review_of_the_sim_demo(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("pygame")
    from sim import app

    out = tmp_path / "demo"
    assert app.main(["--headless", "--seed", "5", "--out", str(out), "--shots-every", "50"]) == 0
    capsys.readouterr()
    assert cli.main(["review", str(out / "transcript.jsonl"), "--json"]) == 0
    rev = json.loads(capsys.readouterr().out)
    assert rev["decisions"] and rev["winners"]


def test_short_review_names_the_costliest_choice() -> None:
    game = play_game(GAME, ["easy", "easy"], {}, 2, record=True)
    rev = review(game.header, game.actions, seats=frozenset({0}), curve=False)
    assert all(d.seat == 0 for d in rev.decisions) and not rev.curve
    text = short_text(rev, 0)
    assert text is None or text.startswith("costliest: ")


def test_master_advice_on_the_decide_screen() -> None:
    from firmware.games.switch16.bots.advice import master_advice

    state = position(2, [4, 15])
    assert state.phase is Phase.DECIDE
    assert master_advice(state, 0).risk


def test_master_does_not_name_a_chip_holder_for_nothing() -> None:
    """Naming the chip holder whose deck is no better is not a free probe: it accepts
    (as people and bots do), the decks are alike and the turn ends. Take the 14."""
    obj = position(4, [0, 0, 3, 14], phase=Phase.GREEN).to_json(full=True)
    obj["chip"] = {"held_by": 1}
    obj["switch"], obj["rolled_discards"] = "green", 0
    state = State.from_json(obj)
    assert state.phase is Phase.GREEN and state.chip_holder == 1
    assert refuses(state.apply(Green(1))) is False
    assert make_bot("master", 0).decide(state) == Green(3)
