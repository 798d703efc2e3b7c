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
