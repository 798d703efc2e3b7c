"""A whole Swytch game played with the three buttons only: every turn's action is
picked by presses through the controls table, and every seat's screen (both players,
an onlooker, the end) is drawn at every press with its text inside the frame."""

from __future__ import annotations

import random

import pytest

from firmware.games.swytch.controls import hold, press, presses_for
from firmware.games.swytch.picker import Picker
from firmware.games.swytch.screens import SwytchView, draw
from firmware.games.swytch.screens.build import (
    end_view,
    last_turn,
    onlooker_view,
    player_view,
)
from firmware.games.swytch.state import State
from hal.events import Button

MAX_TURNS = 100


def _frames_ok(*views: SwytchView) -> None:
    for view in views:
        canvas = draw(view)
        assert canvas.image.size == (128, 64) and canvas.image.getbbox() is not None
        for text, (x0, y0, x1, y1) in canvas.texts:
            assert min(x0, y0) >= 0 and x1 <= 128 and y1 <= 64, text


@pytest.mark.parametrize("seed", [1])
def test_a_whole_game_through_the_buttons(seed: int) -> None:
    rng = random.Random(seed)
    s, last = State.new(9, seed % 2), None
    for _ in range(MAX_TURNS):
        if s.is_terminal():
            break
        seat = s.to_move
        picker = Picker.new(s, seat)
        wanted = rng.choice(s.legal_actions())
        for button in presses_for(picker, wanted):
            picker = press(picker, button)
            _frames_ok(
                player_view(s, seat, picker, last),
                player_view(s, 1 - seat, None, last),
                onlooker_view(s, last),
            )
        assert picker.chosen == wanted
        last = last_turn(s, wanted)
        s = s.apply(wanted)
    if s.is_terminal():
        _frames_ok(end_view(s, 0), end_view(s, 1))


def test_no_presses_pick_an_action_that_is_not_legal() -> None:
    s = State.new()
    picker = hold(Picker.new(s, 0), Button.CHIP)
    other = State.new(first=1).legal_actions()[0]  # North's action, South to move
    with pytest.raises(LookupError):
        presses_for(picker, other)
