"""``Unit.new_game``: the one place a preset set-up is decided (the link's ``newgame``
and the soak test ask through it)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from firmware.games.switch16.setup import GameSetup
from hal.config import load_config

from .conftest import REFERENCE_CONFIG, open_table


def test_a_preset_set_up_goes_straight_to_its_roll_off_won_by_first(tmp_path: Path) -> None:
    with open_table(tmp_path) as table:
        table.unit.new_game(GameSetup.of(["human", "easy"], "tablier"), first=1)
        assert table.unit.controller.preset == GameSetup.of(["human", "easy"], "tablier")
        table.unit.run_for(10)
        header, _ = table.unit.journal.open_game
        assert header is not None and header.first == 1 and header.rules.name == "tablier"
        assert table.unit.controller.kinds == ("human", "easy")


def test_a_set_up_with_more_players_than_seats_is_refused_and_changes_nothing(
        tmp_path: Path) -> None:  # fmt: skip
    config = load_config(REFERENCE_CONFIG)
    two_seats = dataclasses.replace(config, seats=config.seats[:2])
    with open_table(tmp_path, config=two_seats) as table:
        mode = table.unit.controller.mode
        with pytest.raises(ValueError, match="3 players, but this unit has 2 seats"):
            table.unit.new_game(GameSetup.of(["human"] * 3))
        assert table.unit.controller.preset is None and table.unit.controller.mode is mode
