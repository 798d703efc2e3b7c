"""Every game through the serial link (docs/LINK.md) on the mocked Pi: ``newgame`` with
the game's options, ``state``, ``ui`` with each seat's glass checked against the game's
render of its UI state, a press, the transcript; and ``switch16 hil``'s by-press player
entering a human seat's moves to the end."""

from __future__ import annotations

from firmware.games.game import Game
from firmware.link.client import LinkClient
from firmware.link.harness import Harness
from firmware.link.press_play import play_by_presses
from firmware.link.pytest_plugin import InProcessUnit
from firmware.transcript import replay_lines

from .conftest import given_options, seats_one_human


def test_the_link_s_ops(name: str, game: Game) -> None:
    with InProcessUnit(virtual_clock=True) as unit, LinkClient(unit.url) as client:
        d = Harness(client, seed=1)
        seats = seats_one_human(game)
        d.new_game(name, seats, first=0, **given_options(game))
        info = client.request("state")
        assert (info["game"], info["mode"], info["kinds"]) == (name, "play", seats)
        ui = client.request("ui", glass=True)
        assert (ui["game"], ui["mode"], ui["kinds"]) == (name, "play", seats)
        assert len(ui["glass"]) == len(unit.pi.hal.seats)
        d.check_all_frames("the first move")
        d.press(0, "no")
        d.check_all_frames("after a press")
        lines = client.request("transcript")["lines"]
        replayed = replay_lines(lines)
        assert replayed.ok and replayed.header is not None and replayed.header.game == name


def test_hil_plays_a_human_seat_by_presses(name: str, game: Game) -> None:
    with InProcessUnit(virtual_clock=True) as unit, LinkClient(unit.url) as client:
        d = Harness(client, seed=2)
        d.new_game(name, seats_one_human(game), first=0, **given_options(game))
        state = play_by_presses(d, name, 600.0)
        d.check_all_frames("game over")
        lines = client.request("transcript")["lines"]
        assert replay_lines(lines).state == state and state.game_over
        assert client.request("state")["finished"]


def test_hil_s_suite_plays_the_scenarios_each_game_brings(name: str, game: Game) -> None:
    """``switch16 hil``'s built-in suite plays, of every installed game, what the game
    brings through the seam (``hil_scenarios``); a game that brings none, as the plugin
    Nim, one whole game by presses against its weakest bot. Switch 16's whole games of
    every preset are left to ``switch16 hil`` itself (``presets=[]``), as is the power cut
    (no rig here can cut the power)."""
    scenarios = game.hil_scenarios()
    assert scenarios, f"{name} brings no scenario and gets no default"
    if type(game).hil_scenarios is Game.hil_scenarios:
        level = game.levels[0]
        assert [s.name for s in scenarios] == [
            f"whole game, {game.title} (human vs {level}, by presses)"]  # fmt: skip
    played = [s.name for s in scenarios if s.preset is None and not s.power_cut]
    with InProcessUnit(virtual_clock=True) as unit, LinkClient(unit.url) as client:
        d = Harness(client, seed=3, game_seconds=600.0)
        report = d.suite(presets=[], games=[name])
        assert report.ok, report.text()
        assert [step.name for step in report.steps][-len(played) :] == played
        assert report.frames_checked > 0
