"""The cheap controller copy drawing ahead plays on (:mod:`firmware.unit.snapshot`):
what may change is copied, values are shared, a press on the copy leaves the original."""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass
from typing import Any

from firmware.games.registry import game_names, get_game
from firmware.settings import Timing
from firmware.unit.snapshot import snapshot
from hal.events import Button, ButtonDown


@dataclass(frozen=True)
class Value:
    items: tuple[int, ...]


class Holder:
    def __init__(self) -> None:
        self.value = Value((1, 2))
        self.table: dict[str, list[int]] = {"a": [1]}
        self.same = self.table  # shared references stay shared
        self.marks = {1, 2}
        self.rng = random.Random(3)  # no plain object: deep-copied
        self.callback = self.poke  # bound to the copy

    def poke(self) -> Holder:
        return self


def test_values_are_shared_and_the_rest_copied() -> None:
    h = Holder()
    c = snapshot(h)
    assert c is not h and c.value is h.value
    assert c.table == h.table and c.table is not h.table and c.table["a"] is not h.table["a"]
    assert c.same is c.table
    assert c.marks == h.marks and c.marks is not h.marks
    assert c.rng is not h.rng and c.rng.random() == h.rng.random()
    assert c.callback() is c


def ready(name: str) -> Any:
    game = get_game(name)
    seats = ("human",) * game.seats.start
    ctl = game.controller(4, Timing(), game.default_setup(4))
    ctl.begin(game.header(game.setup_for(seats), 0).initial_state(), seats, 0.0)
    return ctl


def test_a_press_on_the_copy_leaves_the_controller_as_it_was() -> None:
    for name in game_names():
        ctl = ready(name)
        before = copy.deepcopy(ctl.ui())
        ahead = snapshot(ctl, {id(ctl.state): ctl.state})
        for button in Button:
            ahead.handle(ButtonDown(0.0, 0, button), 0.0)
        assert ahead.ui() != before, name
        assert ctl.ui() == before, name
