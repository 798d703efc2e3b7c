"""Every game's UI state is a :class:`~firmware.games.game_ui.GameUi`: it says its mode
and seat kinds (in the set-up too, where the simulator asks them) and its JSON reads back
through the game, as the link's ``ui`` op and the harness use it."""

from __future__ import annotations

import json
from dataclasses import fields

from firmware.games.game import Game, GameController
from firmware.games.game_ui import GameUi
from firmware.settings import Timing
from firmware.unit.controls import THINKING, legend
from firmware.unit.shell import ShellView

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


def begun(game: Game, now: float = 0.0) -> GameController:
    """A game of the weakest bots begun at ``now``, seat 0 to play."""
    seats = game.seats.stop - 1
    ctl = game.controller(seats, Timing(), game.default_setup(seats), now=now)
    header = game.header(bot_setup(game), 0)
    ctl.begin(header.initial_state(), header.seats or (), now)
    return ctl


def test_the_shell_s_part_is_one_value_in_every_game_s_ui_and_its_json(game: Game) -> None:
    """A message, the screensaver, the shift and a review: the UI state carries the
    shell's view as it is, its JSON the shell's keys at the top (docs/LINK.md), and the
    game reads it back."""
    ctl = begun(game)
    ctl.shell.show_message(("SAVED GAME", "kept"), 0.0, until_press=True)
    ctl.shell.reviewed({0: "no costly choice"})
    ctl.shell.saver, ctl.shell.saver_counter, ctl.shell.shift_counter = True, 3, 2
    ui = ctl.ui()
    assert (
        ui.shell
        == ctl.shell.view()
        == ShellView(("SAVED GAME", "kept"), False, True, 3, 2, ((0, "no costly choice"),))
    )
    data = json.loads(json.dumps(ui.to_json()))
    assert data.items() >= ui.shell.to_json().items()
    assert game.ui_from_json(data, ui.state).shell == ui.shell
    assert ShellView.from_json({}) == ShellView()  # an older reply without them: nothing up


def test_every_game_s_bot_on_turn_shows_the_unit_s_thinking_label(game: Game) -> None:
    view = game.seat_view(begun(game).ui(), 0)
    assert legend(THINKING) in (getattr(view, f.name) for f in fields(view))


def test_a_finished_game_s_screen_is_answered_by_a_person_or_anyone_at_a_bots_table() -> None:
    """Every game's end screen: a seat a person played answers it; at a table of bots
    only, any seat does (one rule for every game, in the kernel)."""
    from firmware.kernel.players import answers_the_end

    assert answers_the_end(("human", "easy"), 0) and not answers_the_end(("human", "easy"), 1)
    assert not answers_the_end(("human", "easy"), 3)  # an onlooker's seat
    assert answers_the_end(("easy", "hard"), 3) and answers_the_end(("easy", "hard"), 0)
    assert answers_the_end((), 2)  # no seat known to be a person's: anyone answers
