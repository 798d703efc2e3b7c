"""Every game's UI state is a :class:`~firmware.games.game_ui.GameUi`: it says its mode
and seat kinds (in the set-up too, where the simulator asks them) and its JSON reads back
through the game, as the link's ``ui`` op and the harness use it."""

from __future__ import annotations

import json

from firmware.games.game import Game
from firmware.games.game_ui import GameUi
from firmware.settings import Timing

from .conftest import bot_setup


def round_trip(game: Game, ui: GameUi) -> None:
    data = json.loads(json.dumps(ui.to_json()))  # as the wire carries it
    assert game.ui_from_json(data, ui.state).to_json() == data


def test_the_ui_state_says_its_mode_and_kinds_and_reads_back(game: Game) -> None:
    seats = game.seats.stop - 1  # the most it takes
    ctl = game.controller(seats, Timing(), game.default_setup(seats))
    ctl.start_setup(0.0)
    ui = ctl.ui()
    assert isinstance(ui, GameUi) and str(ui.mode) == "setup" and ui.seat_kinds() == ()
    round_trip(game, ui)
    setup = bot_setup(game)
    header = game.header(setup, 0)
    ctl.begin(header.initial_state(), header.seats or (), 1.0)
    ui = ctl.ui()
    assert str(ui.mode) == "play" and ui.seat_kinds() == header.seats
    assert ui.to_json()["kinds"] == list(header.seats or ())
    round_trip(game, ui)
