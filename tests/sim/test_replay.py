"""``sim --replay``: a transcript watched in the simulator, tested headless."""

from __future__ import annotations

import random
from pathlib import Path

import pygame
import pytest

from firmware.api import load_replay
from firmware.games.switch16.screens import render_seat
from firmware.games.switch16.setup import GameSetup
from firmware.transcript import replay_file
from firmware.unit import Unit
from hal.clock import VirtualClock
from sim import app
from sim.hal import SimHal
from sim.options import parse_args, parse_lines
from sim.replay import ReplayScreen


@pytest.fixture(scope="module")
def demo_transcript(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("demo")
    assert app.main(["--headless", "--seed", "12", "--players", "3", "--out", str(out)]) == 0
    return out / "transcript.jsonl"


def finished_unit_game(directory: Path) -> Path:
    """A game the unit played and archived in games/ (bots, virtual time)."""
    hal = SimHal(clock=VirtualClock(), seats=4)
    unit = Unit(hal, directory, setup=GameSetup.of(["expert", "easy", "rulebook", "easy"]),
                rng=random.Random(4))  # fmt: skip
    unit.start()
    assert unit.run_until(lambda: unit.finished, 36_000)
    unit.close()
    (game,) = (directory / "games").glob("*.jsonl")
    return game


def test_the_demo_transcript_writes_the_frames_asked_for(
    demo_transcript: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "frames"
    argv = ["--replay", str(demo_transcript), "--headless", "--lines", "1,5,end", "--out", str(out)]
    assert app.main(argv) == 0
    last = len(demo_transcript.read_text().splitlines())
    assert sorted(p.name for p in out.glob("*.png")) == [
        "line-0001.png", "line-0005.png", f"line-{last:04d}.png"]  # fmt: skip
    assert "stops at" not in capsys.readouterr().out


@pytest.mark.parametrize("source", ["demo", "games"])
def test_every_panel_shows_what_the_unit_showed(
    source: str, demo_transcript: Path, tmp_path: Path, display: None
) -> None:
    path = demo_transcript if source == "demo" else finished_unit_game(tmp_path / "state")
    replay = load_replay(str(path))
    assert replay.error is None and replay.steps[-1].state == replay_file(path).state
    assert replay.steps[-1].state.game_over
    screen = ReplayScreen(replay, parse_args(["--replay", str(path)]))
    for line in (1, 2, replay.last_line // 2, replay.last_line):
        screen.go(line)
        screen.draw()
        for seat, view in enumerate(screen.step.views):
            expected = render_seat(view).convert("1").tobytes()
            assert screen.window.read_panel(seat).tobytes() == expected


def test_keys_step_jump_and_stop_at_the_ends(demo_transcript: Path, display: None) -> None:
    replay = load_replay(str(demo_transcript))
    screen = ReplayScreen(replay, parse_args(["--replay", str(demo_transcript)]))
    for key, line in [(pygame.K_RIGHT, 2), (pygame.K_PAGEDOWN, 12), (pygame.K_LEFT, 11),
                      (pygame.K_PAGEUP, 1), (pygame.K_LEFT, 1), (pygame.K_END, replay.last_line),
                      (pygame.K_RIGHT, replay.last_line), (pygame.K_HOME, 1)]:  # fmt: skip
        assert screen.key(key)
        assert screen.step.line == line
    for key in (pygame.K_g, pygame.K_1, pygame.K_7, pygame.K_RETURN):
        screen.key(key)
    assert screen.step.line == 17
    assert not screen.key(pygame.K_ESCAPE)


def test_an_illegal_line_stops_the_replay_there(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], display: None
) -> None:
    path = tmp_path / "report.jsonl"
    path.write_text(
        '{"switch16": 1, "players": 2, "first": 0, "rules": "pressman-2003"}\n'
        '{"action": "roll", "dice": [6, 6, 6], "switch": "blank"}\n'
        '{"action": "pass"}\n'
        '{"action": "discard"}\n'
    )
    replay = load_replay(str(path))
    assert replay.last_line == 2 and replay.error is not None and replay.error.line == 3
    screen = ReplayScreen(replay, parse_args(["--replay", str(path)]))
    screen.go(99)
    assert screen.status() == "stopped: line 3: pass is not possible in phase 'roll'"
    assert app.main(["--replay", str(path), "--headless", "--lines", "all",
                     "--out", str(tmp_path / "o")]) == 1  # fmt: skip
    printed = capsys.readouterr()
    assert "stops at line 3" in printed.err and "line-0002.png" in printed.out
    assert app.main(["--replay", str(path), "--headless", "--lines", "end",
                     "--out", str(tmp_path / "e")]) == 1  # as switch16 replay  # fmt: skip
    assert sorted(p.name for p in (tmp_path / "e").iterdir()) == ["line-0002.png"]


def test_bad_input_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert app.main(["--replay", str(tmp_path / "missing.jsonl"), "--headless"]) == 2
    assert "cannot read" in capsys.readouterr().err
    with pytest.raises(ValueError, match="'x'"):
        parse_lines("1,x", 10)
    assert parse_lines("3-5,end,99", 10) == [3, 4, 5, 10]


def test_a_roll_that_ended_its_turn_is_on_every_panel_and_the_centre(
    tmp_path: Path, display: None
) -> None:
    from firmware.games.switch16.screens import PlayView
    from sim.tableview import game_table_view

    path = tmp_path / "turn.jsonl"
    path.write_text(
        '{"switch16": 1, "players": 2, "first": 0, "rules": "pressman-2003"}\n'
        '{"action": "roll", "dice": [6, 6, 6], "switch": "blank"}\n'
        '{"action": "roll", "dice": [6, 6, 5], "switch": "blank"}\n'
    )
    replay = load_replay(str(path))
    step = replay.steps[1]  # seat 1's roll made nothing: seat 2 to roll
    assert step.state.turn == 1 and step.shown is not None
    for view in step.views:
        assert isinstance(view, PlayView) and view.dice == (6, 6, 6)
        assert view.prompt == (("", "RED: no match"),)
    table = game_table_view(replay.game, step.state, replay.kinds, shown=step.shown)
    assert table.status == "seat 1 rolled: RED: no match" and table.dice == (6, 6, 6)
    assert table.turn == 0
    assert replay.steps[2].shown is not None and replay.steps[2].shown.seat == 1


def test_the_last_frame_has_the_review_the_unit_showed(tmp_path: Path) -> None:
    """A game with a human seat, played on the pins: the replay's end screens are the
    unit's, the costliest-choice line included."""
    from firmware.games.switch16.screens import WinView
    from firmware.games.switch16.seat_views import seat_view
    from tests.game_unit.conftest import ScriptedRng, open_table
    from tests.game_unit.play import play_until

    setup = GameSetup.of(["human", "easy"])
    with open_table(tmp_path, setup=setup, rng=ScriptedRng(3)) as table:
        play_until(table, random.Random(3), lambda: table.unit.finished)
        shown = [seat_view(table.unit.controller.ui(), s) for s in range(2)]
    end = shown[0]
    assert isinstance(end, WinView) and end.review  # "costliest: …" or "no costly choice"
    (game,) = (tmp_path / "games").glob("*.jsonl")
    assert load_replay(str(game)).steps[-1].views[:2] == tuple(shown)
