"""Swytch through the link (docs/LINK.md): a whole game, its human seat entered by
presses on the mocked Pi, every seat's glass checked against the game's own render of
its UI state at every human decision, and the transcript the unit keeps."""

from __future__ import annotations

import json

from firmware.games.registry import get_game
from firmware.link.client import LinkClient
from firmware.link.harness import Harness
from firmware.link.press_play import play_by_presses
from firmware.link.pytest_plugin import InProcessUnit
from firmware.transcript import replay_lines


def test_a_whole_swytch_game_by_presses_with_frame_checks() -> None:
    with InProcessUnit(virtual_clock=True) as unit, LinkClient(unit.url) as client:
        d = Harness(client, seed=3)
        d.new_game("swytch", ["human", "easy"], first=0, ranks=8)
        checked = d.report.frames_checked
        state = play_by_presses(d, "swytch", 3600.0)
        d.check_all_frames("game over")
        assert d.report.frames_checked > checked + 20
        lines = client.request("transcript")["lines"]
        assert json.loads(lines[0])["game"] == "swytch"
        assert replay_lines(lines).state == state
        assert state.game_over and get_game("swytch").result(state) is not None
        assert client.request("state")["finished"]


def test_the_action_event_is_the_games_notation() -> None:
    with InProcessUnit(virtual_clock=True) as unit, LinkClient(unit.url) as client:
        d = Harness(client, seed=4)
        d.new_game("swytch", ["easy", "easy"], first=1)
        client.drain_events()
        client.request("subscribe", events=["action", "phase"])
        d.advance(30)
        got = client.wait_event(lambda m: m.get("event") == "action", 1.0)
        assert got is not None
        action = got.message["action"]
        assert set(action) == {"action"} and isinstance(action["action"], str)
        assert got.message["phase"] in ("play", "over") and got.message["turn"] in (0, 1)
