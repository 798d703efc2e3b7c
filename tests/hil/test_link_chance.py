"""The link's ``chance`` op (test mode): any game's chance outcome forced as its action
JSON, drawn before the unit's rng (docs/LINK.md)."""

from __future__ import annotations

import json

import pytest

from firmware.games.registry import get_game
from firmware.games.switch16.engine import Face, Roll
from firmware.link.client import LinkClient, LinkError
from firmware.link.harness import Harness
from firmware.link.pytest_plugin import InProcessUnit


def test_a_forced_chance_outcome_is_the_next_roll_of_the_transcript() -> None:
    roll = {"action": "roll", "dice": [2, 3, 5], "switch": "green"}
    with InProcessUnit(virtual_clock=True) as unit, LinkClient(unit.url) as client:
        d = Harness(client, seed=1)
        d.new_game("switch16", ["expert", "expert"], first=0, rules="tablier")
        assert client.request("chance", outcomes=[roll])["queued"] == 1
        d.wait_for("the roll", lambda s: s["actions"] >= 1, timeout=30)
        lines = client.request("transcript")["lines"]
        assert json.loads(lines[1]) == roll


def test_a_bad_chance_outcome_is_refused_naming_it() -> None:
    with InProcessUnit(virtual_clock=True) as unit, LinkClient(unit.url) as client:
        Harness(client, seed=1).new_game("swytch", ["easy", "easy"], first=0)
        with pytest.raises(LinkError, match=r"outcomes\[1\]"):
            client.request("chance", outcomes=[{"action": "c2 2 c3-c4"}, {"roll": 6}])
        assert client.request("chance", outcomes=[])["queued"] == 0


def test_a_game_without_dice_refuses_dice_naming_itself() -> None:
    """The ``dice`` op's rolls are made chance outcomes by the game
    (:meth:`Game.chance_from_dice`): Switch 16's a roll, a game without dice refuses."""
    assert get_game("switch16").chance_from_dice({"dice": [6], "switch": "green"}) == Roll(
        (6,), Face.GREEN
    )
    with pytest.raises(ValueError, match=r"^dice: Swytch rolls no dice"):
        get_game("swytch").chance_from_dice({"dice": [6], "switch": "green"})
