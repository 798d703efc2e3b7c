"""The unit's end screen (:mod:`firmware.unit.end_screen`) for a game that gives nothing
for it (Nim): YES a rematch of the set-up played after a roll-off, NO a new game, the
shell's part first; a resumed game whose set-up its game cannot say still resumes, and
its YES goes to the set-up."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from firmware.settings import Timing
from firmware.unit.commands import NewGame, RollOff
from firmware.unit.end_screen import answer, respond
from hal.events import Button, ButtonDown

from .conftest import CHIP, NO, YES, header, open_table, write_journal
from .nim import NIM, NimController, NimSetup, NimState, Take


def finished_nim(kinds: tuple[str, ...] = ("human", "perfect")) -> tuple[NimController, NimSetup]:
    ctl = NIM.controller(4, Timing(), NimSetup())
    ctl.shell.played = played = NimSetup(2, kinds, pile=3)  # (as the unit keeps it)
    ctl.begin(NimState(2, 3, 0), kinds, 0.0)
    ctl.committed(Take(3), NimState(2, 3, 0).apply(Take(3)), 0.5)
    assert ctl.finished
    return ctl, played


def test_nim_gets_the_units_end_screen_rematch_after_a_roll_off_and_new_game() -> None:
    ctl, played = finished_nim()

    def press(seat: int, button: Button, t: float = 1.0) -> list:
        return respond(ctl, NIM, ButtonDown(t, seat, button), t)

    assert press(1, YES) == [] and press(1, NO) == []  # the bot's seat does not answer
    assert press(0, CHIP) == []  # no key
    assert press(0, YES) == [RollOff(played)]  # Nim says nobody starts: a roll-off
    assert press(0, NO) == [NewGame()]
    ctl.shell.show_message(("HELLO",), 2.0)
    assert press(0, YES, 2.1) == [] and ctl.shell.message is None  # the message's first


def test_a_rematch_with_no_set_up_known_goes_to_the_set_up() -> None:
    ctl, _ = finished_nim()
    ctl.shell.played = None
    assert answer(ctl, NIM, 0, YES) == [NewGame()]


def test_a_game_resumed_whose_set_up_its_game_cannot_say_still_resumes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from firmware.games.switch16.game import GAME

    def refuses(header: object, seats: object) -> object:
        raise ValueError("not a set-up of this unit")

    monkeypatch.setattr(GAME, "setup_of", refuses)
    write_journal(tmp_path, header())
    with caplog.at_level(logging.WARNING), open_table(tmp_path) as table:
        assert table.state is not None and table.unit.controller.shell.played is None
    assert "no rematch of the resumed game (its set-up: not a set-up of this unit)" in caplog.text


def test_a_power_cut_on_the_end_screen_or_in_a_rematchs_roll_off(tmp_path: Path) -> None:
    """The finished game is kept as it ends: a power cut on its end screen comes back to
    the set-up. A rematch is journaled as a new game, its header before its roll-off
    shows: a power cut during that roll-off resumes the rematch, who starts the same."""
    from firmware.games.switch16.game import GAME
    from firmware.games.switch16.setup import GameSetup
    from firmware.unit.ui_state import Mode

    bots = GameSetup.of(["easy", "easy"], "tablier")
    with open_table(tmp_path, setup=bots) as table:
        table.run_until(lambda: table.unit.finished, 3600)
    with open_table(tmp_path) as table:  # the plug pulled on the end screen
        assert table.unit.controller.mode is Mode.SETUP and table.state is None
    assert len(list((tmp_path / "games").glob("*.jsonl"))) == 1

    again = tmp_path / "again"
    with open_table(again, setup=bots) as table:
        table.run_until(lambda: table.unit.finished, 3600)
        table.press(0, YES)  # a bots' table: any seat answers
        ctl = table.unit.controller
        assert ctl.mode is Mode.ROLLOFF and ctl.rolloff is not None
        first = ctl.rolloff.first
        assert table.journal() == [GAME.header(bots, first).to_json()]
    with open_table(again) as table:  # the plug pulled during the rematch's roll-off
        assert table.state is not None and table.state.turn == first and not table.unit.actions
        assert table.unit.controller.shell.played == bots
