"""The simulator plays Swytch: the headless demo (``--game swytch``), ``--replay`` of its
transcript, the window's table from the game's own words, and its options' errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image

from firmware.api import game_names, get_game, load_replay
from firmware.transcript import replay_file
from sim import app
from sim.options import parse_args, preset_setup
from sim.replay import ReplayScreen


@pytest.fixture(scope="module")
def swytch_demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("swytch-demo")
    argv = ["--headless", "--game", "swytch", "--seed", "2", "--shots-every", "30",
            "--out", str(out)]  # fmt: skip
    assert app.main(argv) == 0  # every screenshot checked its panels against the frames
    return out


def test_the_headless_demo_plays_a_whole_swytch_game(swytch_demo: Path) -> None:
    transcript = swytch_demo / "transcript.jsonl"
    header = json.loads(transcript.read_text().splitlines()[0])
    assert header["game"] == "swytch" and header["seats"] == ["hard", "medium"]
    assert replay_file(transcript).state.game_over
    shots = sorted(p.name for p in swytch_demo.glob("shot-*.png"))
    assert shots[0] == "shot-00-start.png" and shots[-1].endswith("-end.png")
    turns = (swytch_demo / "turns.txt").read_text().splitlines()
    assert len(turns) == len(transcript.read_text().splitlines()) - 1


def test_replay_shows_each_step_as_the_unit_showed_it(swytch_demo: Path, tmp_path: Path,
                                                      display: None) -> None:  # fmt: skip
    path = swytch_demo / "transcript.jsonl"
    replay = load_replay(str(path))
    assert replay.game == "swytch" and replay.error is None
    assert replay.steps[-1].state == replay_file(path).state
    screen = ReplayScreen(replay, parse_args(["--replay", str(path)]))
    screen.go(replay.last_line)
    screen.draw()
    for seat, view in enumerate(replay.steps[-1].views):
        assert screen.window.read_panel(seat).tobytes() == get_game("swytch").render(view).tobytes()
    out = tmp_path / "frames"
    assert app.main(["--replay", str(path), "--headless", "--lines", "1,end",
                     "--out", str(out)]) == 0  # fmt: skip
    frames = sorted(out.glob("*.png"))
    assert len(frames) == 2 and Image.open(frames[-1]).size[0] > 256


def test_the_game_option_presets_a_swytch_setup() -> None:
    setup = preset_setup(parse_args(["--game", "swytch", "--bots", "2"]))
    assert setup.seats == ("human", "hard")
    assert preset_setup(parse_args(["--game", "swytch"])) is None  # its set-up menu asks


@pytest.mark.parametrize(("argv", "names"), [
    (["--game", "swytch", "--rules", "tablier"], "--rules and --points are Switch 16's"),
    (["--game", "swytch", "--players", "3"], "--players: swytch is played by 2"),
    (["--game", "swytch", "--bots", "2:expert"], "unknown bot level 'expert'"),
    (["--game", "chess"], "invalid choice: 'chess'"),
])  # fmt: skip
def test_an_option_the_game_does_not_take_is_a_usage_error(
        argv: list[str], names: str, capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    with pytest.raises(SystemExit) as exited:
        parse_args(argv)
    assert exited.value.code == 2 and names in capsys.readouterr().err


@pytest.mark.parametrize(("argv", "names"), [
    (["--game", "swytch", "--bots", "0"], "'0' is not one of the seats 1–2"),
    (["--game", "swytch", "--bots", "3"], "'3' is not one of the seats 1–2"),
    (["--game", "swytch", "--bots", "2=hard"], "(a seat is SEAT or SEAT:LEVEL, e.g. 2:easy)"),
    (["--game", "swytch", "--players", "3"], "--players: swytch is played by 2\n"),
    (["--bots", ""], "argument --bots: empty"),
    (["--replay", ""], "argument --replay: empty"),
])  # fmt: skip
def test_the_messages_name_the_game_s_own_seats_and_the_empty_argument(
        argv: list[str], names: str, capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    with pytest.raises(SystemExit) as exited:
        parse_args(argv)
    err = capsys.readouterr().err
    assert exited.value.code == 2 and names in err, err


def test_the_bots_help_names_every_game_s_levels(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        parse_args(["--help"])
    text = " ".join(capsys.readouterr().out.split())
    for name in game_names():
        game = get_game(name)
        assert f"{name} {', '.join(game.levels)} (default {game.bot_level})" in text, name


@pytest.mark.usefixtures("display")
def test_the_window_shows_the_whole_board_large_in_its_centre() -> None:
    from firmware.games.swytch.screens.render import board_image
    from firmware.games.swytch.state import State
    from hal.clock import VirtualClock
    from sim.hal import SimHal
    from sim.layout import Side
    from sim.tableview import game_table_view
    from sim.window import TEXT, SimWindow

    state = State.new()
    view = game_table_view("swytch", state, ("human", "hard"))
    assert view.picture is not None
    assert view.picture.tobytes() == board_image(state.board, 0).tobytes()
    window = SimWindow(SimHal(clock=VirtualClock(), seats=2), scale=2)
    window.draw(view)
    layout = window.layout
    assert [p.side for p in layout.panels] == [Side.LEFT, Side.RIGHT]  # beside the board
    assert layout.centre.height == layout.size[1]  # the window's middle column
    centre = window.screen.subsurface(layout.centre)
    below = 14 * layout.scale  # under the status line
    lit = [y for y in range(below, centre.get_height()) for x in range(0, centre.get_width(), 2)
           if centre.get_at((x, y))[:3] == TEXT]  # fmt: skip
    assert max(lit) - min(lit) >= 1.2 * view.picture.height  # the board, larger than 1:1
    window.draw(game_table_view("switch16", None))  # Switch 16: the seats face each other again
    assert [p.side for p in window.layout.panels] == [Side.BOTTOM, Side.TOP]
