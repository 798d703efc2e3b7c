"""The ``sim`` command: options, the headless demo and the no-display fallback."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from PIL import Image

from firmware import cli
from sim import app
from sim.options import parse_args, parse_bots, preset_setup


def test_bots_syntax() -> None:
    assert parse_bots("2,3", 4) == {1: "expert", 2: "expert"}
    assert parse_bots("2:easy, 4:rulebook", 4) == {1: "easy", 3: "rulebook"}
    assert parse_bots("others:easy", 3) == {1: "easy", 2: "easy"}
    assert parse_bots("all", 2) == {0: "expert", 1: "expert"}
    assert parse_bots("none", 2) == {}
    with pytest.raises(ValueError, match="seat"):
        parse_bots("5", 4)
    with pytest.raises(ValueError, match="level"):
        parse_bots("2:genius", 4)


def test_options_preset_the_game_or_leave_it_to_the_menu() -> None:
    assert preset_setup(parse_args([])) is None
    setup = preset_setup(parse_args(["--bots", "3:easy"]))
    assert setup is not None and setup.seats == ("human", "human", "easy")
    setup = preset_setup(parse_args(["--players", "2", "--rules", "tablier", "--points"]))
    assert setup is not None and setup.seats == ("human", "human")
    assert setup.preset == "tablier" and setup.points
    demo = preset_setup(parse_args(["--players", "3", "--bots", "1:easy"]), all_bots=True)
    assert demo is not None and demo.seats == ("easy", "rulebook", "easy")
    with pytest.raises(SystemExit):
        parse_args(["--bots", "9"])


def test_headless_demo_finishes_and_its_transcript_replays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "demo"
    status = app.main(["--headless", "--seed", "5", "--out", str(out), "--shots-every", "4"])
    printed = capsys.readouterr().out
    assert status == 0
    assert "wins" in printed and "transcript" in printed
    assert sum(line[:6].strip().isdigit() for line in printed.splitlines()) >= 4  # turn lines
    transcript = out / "transcript.jsonl"
    assert cli.main(["replay", str(transcript), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["state"]["phase"] == "over" and result["state"]["winner"] is not None
    shots = sorted(out.glob("shot-*.png"))
    assert len(shots) >= 3 and shots[-1].name.endswith("end.png")
    with Image.open(shots[0]) as image:
        assert image.size[0] > 500
    assert (out / "turns.txt").read_text().count("\n") >= 4


def test_without_a_display_sim_says_so_and_runs_the_demo(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    out = tmp_path / "demo"
    status = app.main(["--players", "2", "--seed", "2", "--out", str(out), "--scale", "1"])
    lines = capsys.readouterr().out.splitlines()
    assert status == 0
    assert lines[0] == app.NO_DISPLAY
    assert (out / "transcript.jsonl").exists()


def test_a_display_that_fails_to_open_falls_back_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(app, "display_available", lambda: True)
    monkeypatch.setenv("SDL_VIDEODRIVER", "no-such-driver")
    out = tmp_path / "demo"
    status = app.main(["--players", "2", "--seed", "4", "--out", str(out), "--scale", "1",
                       "--state-dir", str(tmp_path / "state")])  # fmt: skip
    assert status == 0
    assert capsys.readouterr().out.splitlines()[0] == app.NO_DISPLAY
    assert (out / "transcript.jsonl").exists()


def test_a_bad_config_is_reported(tmp_path: Path, monkeypatch, capsys) -> None:
    bad = tmp_path / "unit.toml"
    bad.write_text("[unit]\nseats = 9\n")
    monkeypatch.setattr(app, "display_available", lambda: True)
    assert app.main(["--config", str(bad), "--state-dir", str(tmp_path / "s")]) == 2
    assert "unit.seats" in capsys.readouterr().err
