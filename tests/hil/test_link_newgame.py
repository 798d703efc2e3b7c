"""The link's ``newgame`` asks the unit (:meth:`Unit.new_game`), which alone decides the
set-up it plays: a preset game starts, a bad one is refused naming the field and
changes nothing."""

from __future__ import annotations

import json

import pytest

from firmware.link.client import LinkClient, LinkError
from firmware.link.pytest_plugin import InProcessUnit


def test_newgame_starts_the_preset_game() -> None:
    with InProcessUnit(virtual_clock=True) as unit, LinkClient(unit.url) as client:
        got = client.request("newgame", seats=["human", "easy"], rules="tablier",
                             points=True, first=1)  # fmt: skip
        assert got == {"game": "switch16", "seats": ["human", "easy"], "rules": "tablier",
                       "points": True, "first": 1}  # fmt: skip
        for _ in range(50):
            if client.request("state")["mode"] == "play":
                break
            client.request("advance", seconds=5, next=True)
        state = client.request("state")
        assert state["mode"] == "play" and state["kinds"] == ["human", "easy"]
        header = json.loads(client.request("transcript")["lines"][0])
        assert header["seats"] == ["human", "easy"] and "tablier" in json.dumps(header["rules"])
        assert state["state"]["turn"] == 1  # first=1 won the roll-off


@pytest.mark.parametrize(("fields", "names"), [
    ({"seats": ["human", "human"], "rules": "no-such-rules"}, ["field 'rules'", "tablier"]),
    ({"seats": ["human", "wizard"]}, ["field 'seats'", "'wizard'"]),
    ({"seats": ["human"]}, ["field 'seats'", "players must be"]),
    ({"game": "chess", "seats": ["human", "human"]}, ["field 'game'", "'chess'", "swytch"]),
    ({"game": "swytch", "seats": ["human", "expert"]}, ["field 'seats'", "'expert'"]),
    ({"game": "swytch", "seats": ["human", "hard"], "ranks": 12}, ["field 'ranks'", "12"]),
    ({"game": "swytch", "seats": ["human", "hard"], "rules": "tablier"}, ["'rules'"]),
])  # fmt: skip
def test_a_bad_newgame_is_refused_naming_the_field_and_changes_nothing(
        fields: dict[str, object], names: list[str]) -> None:  # fmt: skip
    with InProcessUnit(virtual_clock=True) as unit, LinkClient(unit.url) as client:
        before = client.request("state")
        with pytest.raises(LinkError) as refused:
            client.request("newgame", **fields)
        assert refused.value.code == "bad_field"
        for name in names:
            assert name in str(refused.value)
        after = client.request("state")
        assert (after["mode"], after["state"]) == (before["mode"], before["state"])
        assert unit.unit.controller.preset is None


def test_newgame_starts_a_swytch_game_whose_state_ui_and_transcript_are_swytchs() -> None:
    with InProcessUnit(virtual_clock=True) as unit, LinkClient(unit.url) as client:
        got = client.request("newgame", game="swytch", seats=["human", "easy"], ranks=9,
                             first=1)  # fmt: skip
        assert got == {"game": "swytch", "seats": ["human", "easy"], "ranks": 9, "first": 1}
        for _ in range(50):
            if client.request("state")["mode"] == "play":
                break
            client.request("advance", seconds=5, next=True)
        state, ui = client.request("state"), client.request("ui")
        assert state["game"] == ui["game"] == "swytch"
        assert state["mode"] == "play" and state["kinds"] == ["human", "easy"]
        assert state["state"]["game"] == "swytch" and state["state"]["to_move"] == 1
        assert "picker" in ui and "menus" not in ui
        header = json.loads(client.request("transcript")["lines"][0])
        assert (header["game"], header["ranks"], header["first"]) == ("swytch", 9, 1)
