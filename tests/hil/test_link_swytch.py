"""Swytch through the link (docs/LINK.md): a whole game, its human seat entered by
presses on the mocked Pi, every seat's glass checked against the game's own render of
its UI state at every human decision, and the transcript the unit keeps."""

from __future__ import annotations

import json
from typing import Any

import pytest

from firmware.games.registry import get_game
from firmware.link.client import LinkClient
from firmware.link.harness import Harness
from firmware.link.press_play import play_by_presses, take_turn
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


class LateFinger(Harness):
    """A harness whose first press of a turn lands ``late`` seconds after the unit's next
    timer took the bot's last turn off the board: what a player or a real-clock rig meets
    when the screen it read changes under its finger."""

    def __init__(self, client: LinkClient, late: float) -> None:
        super().__init__(client, seed=5)
        self.late = late
        self.read: dict[str, Any] | None = None

    def request(self, op: str, **fields: Any) -> dict[str, Any]:
        reply = super().request(op, **fields)
        if op == "ui" and self.read is None and reply["last_for"] is not None:
            self.read = reply
        return reply

    def press(self, seat: int, button: str, ms: float = 60) -> None:
        if self.read is not None:
            read, self.read = self.read, None
            assert read["last_for"] == seat  # it read the bot's last turn
            for _ in range(100):  # up to the moment the last turn's time is up
                self.advance(10, to_next=True)
                if self.c.request("ui")["last_for"] is None:
                    break
            else:
                raise AssertionError("the last turn is shown for ever")
            if self.late:
                self.advance(self.late)
        super().press(seat, button, ms)


@pytest.mark.parametrize("late", [0.0, 2.0])
def test_a_press_planned_on_the_last_turn_landing_after_its_time_enters_the_turn(late) -> None:
    """The presses planned on a screen showing the bot's last turn, the first landing
    just after that turn's time took it off the board (the player pressed at what it
    read: that press only reads it) or well after (a rig's stalled press: the rig plans
    the rest again from what the press left), enter the turn wanted."""
    with InProcessUnit(virtual_clock=True) as unit, LinkClient(unit.url) as client:
        d = LateFinger(client, late)
        d.new_game("swytch", ["human", "easy"], first=1, ranks=8)
        game = get_game("swytch")
        for _ in range(3):
            state = d.settle_until(lambda s: s.to_move == 0, timeout=30)
            take_turn(d, game, 0, state)
