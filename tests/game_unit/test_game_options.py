"""Each game declares its set-up options once (:mod:`firmware.games.options`, like
OpenSpiel's ``parameter_specification``); the link's ``newgame``, ``.hil`` scripts'
``newgame`` lines, ``sim --option`` and ``switch16 selfplay --option`` read them, with
no per-game parsing: Nim's pile goes through the same paths as Swytch's ranks."""

from __future__ import annotations

import argparse
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from firmware.cli import main
from firmware.games.command_line import (
    add_option_arguments,
    flag_words,
    given_options,
    option_flags,
)
from firmware.games.game import Game
from firmware.games.options import Option, option_values, read_options
from firmware.games.registry import GAMES, get_game
from firmware.games.switch16.engine import PRESETS
from firmware.link.client import LinkClient
from firmware.link.pytest_plugin import InProcessUnit
from firmware.link.report import StepFailed
from firmware.link.script import new_game
from firmware.link.unit_driver import UnitDriver
from sim.options import parse_args, preset_setup

from .nim import NIM, NimSetup


@pytest.fixture
def nim(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(GAMES, "nim", NIM)


RANKS = Option("ranks", int, 9, "board ranks", range(8, 12))


def test_an_option_checks_its_type_and_values_and_names_itself() -> None:
    assert RANKS.check(10) == 10 and RANKS.parse("11") == 11
    for bad in (12, True, "9", 9.0):
        with pytest.raises(ValueError, match=r"option 'ranks' must be 8\.\.11"):
            RANKS.check(bad)
    with pytest.raises(ValueError, match="got 'ten'"):
        RANKS.parse("ten")
    flag = Option("points", bool, False, "points game")
    assert flag.parse("true") is True and flag.parse("no") is False
    with pytest.raises(ValueError, match="'points' must be true or false, got 1"):
        flag.check(1)
    with pytest.raises(ValueError, match=r"unknown option 'size' \(this game's: ranks\)"):
        read_options((RANKS,), {"size": 3})


def test_a_game_without_options_takes_the_seam_s_defaults() -> None:
    class Bare(Game):  # only what the defaults need
        title, levels, seats = "Bare", ("weak", "strong"), range(2, 4)

    bare = Bare.__new__(Bare)  # its abstract rules are not called here
    assert bare.options == () and bare.setup_options(object()) == {}
    assert bare.with_options("setup", {}) == "setup" and bare.presses_for(None, 0, 1) is None
    assert bare.bot_level == "strong" and bare.demo_levels == ("strong", "weak")
    assert bare.selfplay_seats == ("strong", "strong") and not bare.dice_table


@pytest.mark.parametrize(("name", "option", "value"), [
    ("switch16", "rules", "tablier"), ("swytch", "ranks", 10), ("nim", "pile", 5)])  # fmt: skip
def test_every_game_s_options_round_trip_through_its_set_up(nim, name, option, value) -> None:
    game = get_game(name)
    setup = game.setup_with(game.selfplay_seats, {option: value})
    assert game.setup_with(game.selfplay_seats) == game.setup_for(game.selfplay_seats)
    assert game.setup_options(setup)[option] == value
    assert {o.name for o in game.options} == set(game.setup_options(setup))
    assert game.header(setup, 0).to_json()  # the set-up makes a game


def test_sim_option_sets_any_game_s_option(nim) -> None:
    assert preset_setup(parse_args(["--game", "swytch", "--option", "ranks=10"])).ranks == 10
    setup = preset_setup(parse_args(["--game", "nim", "--option", "pile=5", "--bots", "2"]))
    assert setup == NimSetup(2, ("human", "perfect"), pile=5)
    rules = preset_setup(parse_args(["--option", "rules=tablier", "--option", "points"]))
    assert (rules.preset, rules.points) == ("tablier", True)


@pytest.mark.parametrize(("argv", "says"), [
    (["--game", "swytch", "--option", "ranks=12"], "--option: option 'ranks' must be 8..11"),
    (["--game", "swytch", "--option", "rules=9"], "unknown option 'rules' (this game's: ranks)"),
    (["--option", "ranks=9"], "unknown option 'ranks' (this game's: rules, points)"),
])  # fmt: skip
def test_sim_refuses_a_bad_option_naming_it(argv: list[str], says: str, capsys) -> None:
    with pytest.raises(SystemExit):
        parse_args(argv)
    assert says in capsys.readouterr().err


def test_selfplay_option_plays_that_set_up(nim, tmp_path: Path) -> None:
    assert main(["selfplay", "--game", "nim", "--games", "2", "--option", "pile=5",
                 "--save", str(tmp_path)]) == 0  # fmt: skip
    header = json.loads((tmp_path / "game-0001.jsonl").read_text().splitlines()[0])
    assert header["pile"] == 5
    assert main(["selfplay", "--game", "nim", "--games", "2", "--option", "pile=0"]) == 2


def test_link_newgame_takes_a_declared_option_of_any_game(nim) -> None:
    with InProcessUnit(virtual_clock=True) as unit, LinkClient(unit.url) as client:
        got = client.request("newgame", game="nim", seats=["human", "perfect"], pile=5, first=0)
        assert got == {"game": "nim", "seats": ["human", "perfect"], "pile": 5, "first": 0}
        for _ in range(50):  # Nim's UI state has no JSON: the unit's controller says
            if unit.unit.controller.mode == "play":
                break
            client.request("advance", seconds=5, next=True)
        header = json.loads(client.request("transcript")["lines"][0])
        assert (header["game"], header["pile"]) == ("nim", 5)


class Recorder:
    """A driver that records the games a script line starts."""

    def __init__(self) -> None:
        self.games: list[tuple[Any, ...]] = []

    def new_game(self, game: str, seats: list[str], first: int | None = None,
                 **options: Any) -> None:  # fmt: skip
        self.games.append((game, seats, first, options))


@pytest.mark.parametrize(("line", "want"), [
    ("human,human rules=tablier first=0",
     ("switch16", ["human", "human"], 0, {"rules": "tablier"})),
    ("human,easy points", ("switch16", ["human", "easy"], None, {"points": True})),
    ("human,human game=swytch ranks=10 first=1", ("swytch", ["human", "human"], 1, {"ranks": 10})),
    ("human,perfect game=nim pile=4", ("nim", ["human", "perfect"], None, {"pile": 4})),
])  # fmt: skip
def test_a_script_s_newgame_line_reads_the_game_s_options(nim, line: str, want: tuple) -> None:
    driver = Recorder()
    new_game(driver, line.split())  # type: ignore[arg-type]
    assert driver.games == [want]


@pytest.mark.parametrize(("line", "says"), [
    ("human,human game=swytch ranks=x", "option 'ranks' must be 8..11, got 'x'"),
    ("human,human game=swytch rules=tablier", "unknown option 'rules' (this game's: ranks)"),
    ("human,human game=chess", "unknown game 'chess'"),
    ("human,human first=one", "first='one' is not a seat number"),
])  # fmt: skip
def test_a_bad_newgame_line_fails_its_step_naming_what(line: str, says: str) -> None:
    with pytest.raises(StepFailed) as failed:
        new_game(Recorder(), line.split())  # type: ignore[arg-type]
    assert says in str(failed.value)


class Cable:
    """A link client that answers like a unit in play and keeps what it was asked."""

    timeout = 5.0

    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any]]] = []

    def request(self, op: str, timeout: float | None = None, **fields: Any) -> dict[str, Any]:
        self.sent.append((op, fields))
        return {"clock": "real", "mode": "play", "state": {}, "actions": 0}


def test_the_driver_s_new_game_says_the_whole_set_up_from_the_game_s_spec() -> None:
    """``UnitDriver.new_game(game, seats, first, **options)``: every option of the game
    at its spec's default but those given, so the unit's own defaults (a saved set-up,
    unit.toml) play no part; a bad one fails the step naming it."""
    cable = Cable()
    d = UnitDriver(cable, check_frames=False)  # type: ignore[arg-type]
    d.new_game("switch16", ["human", "easy"], points=True)
    d.new_game("swytch", ["human", "easy"], first=1)
    assert [fields for op, fields in cable.sent if op == "newgame"] == [
        {"game": "switch16", "seats": ["human", "easy"], "rules": "pressman-2003",
         "points": True},
        {"game": "swytch", "seats": ["human", "easy"], "ranks": 9, "first": 1},
    ]  # fmt: skip
    with pytest.raises(StepFailed, match="newgame: unknown option 'ranks'"):
        d.new_game("switch16", ["human", "easy"], ranks=9)
    with pytest.raises(StepFailed, match="newgame: option 'points' must be true or false"):
        d.new_game("switch16", ["human", "easy"], points="yes")


def test_a_tool_s_option_values_come_from_the_games_specs(nim) -> None:
    """``switch16 selfplay --rules`` and the link suite's presets are the values of an
    option in the games' specs (they imported Switch 16's ``PRESETS``)."""
    assert option_values(get_game("switch16").options, "rules") == tuple(PRESETS)
    assert option_values(get_game("swytch").options, "rules") == ()
    parser = argparse.ArgumentParser()
    add_option_arguments(parser)
    assert parser.parse_args(["--rules", "tablier"]).rules == "tablier"
    assert list(option_flags()) == ["rules", "points"]  # Nim's pile is no flag
    with pytest.raises(SystemExit):
        parser.parse_args(["--rules", "pressman-2004"])


@pytest.fixture
def nim_pile_flag(nim, monkeypatch: pytest.MonkeyPatch) -> None:
    """Nim's pile declared a flag (``--pile N``) in its options spec, nothing else."""
    monkeypatch.setattr(type(NIM), "options", (replace(NIM.options[0], flag=True),))


def test_a_game_s_declared_flag_is_every_tool_s(nim_pile_flag, tmp_path: Path) -> None:
    """The tools take a game's flags from its options spec (they each built Switch 16's
    ``--rules``/``--points`` by hand): Nim's declared ``--pile`` works in ``sim`` and
    ``switch16 selfplay``; a game without it refuses it naming whose it is."""
    setup = preset_setup(parse_args(["--game", "nim", "--pile", "5", "--bots", "2"]))
    assert setup == NimSetup(2, ("human", "perfect"), pile=5)
    assert main(["selfplay", "--game", "nim", "--games", "2", "--pile", "7",
                 "--save", str(tmp_path)]) == 0  # fmt: skip
    assert json.loads((tmp_path / "game-0001.jsonl").read_text().splitlines()[0])["pile"] == 7
    assert flag_words(argparse.Namespace(pile=5, rules=None, points=True)) == {
        "pile": "5", "points": "true"}  # fmt: skip
    with pytest.raises(ValueError, match="--pile is Nim's, not Swytch's"):
        given_options(get_game("swytch"), [], {"pile": "5"})
    with pytest.raises(ValueError, match="--rules and --points are Switch 16's, not Nim's"):
        given_options(NIM, [], {"points": "true"})
