"""The unit shell (:mod:`firmware.unit.shell`) in every game's controller alike: a press
on a dimmed screen brightens it and acts, the screensaver's waking press (and its hold)
does nothing else, the burn-in shift waits for quiet during play, a press on a message
only dismisses it."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from firmware.games import registry
from firmware.games.game import Game, GameController
from firmware.kernel.players import HUMAN
from firmware.screens import MenuView, SaverView
from firmware.settings import Timing
from firmware.unit.commands import AskHint
from firmware.unit.shell import RANK, Shell
from hal.events import Button, ButtonDown, ButtonUp, LongPress

from .nim import NIM

YES, NO, CHIP = Button.YES, Button.NO, Button.CHIP
NAMES = ("switch16", "swytch", "nim")


@pytest.fixture(params=NAMES)
def game(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[Game]:
    monkeypatch.setitem(registry.GAMES, "nim", NIM)
    yield registry.get_game(request.param)


def controller(game: Game, timing: Timing) -> GameController:
    return game.controller(4, timing, game.default_setup(4), now=0.0)


def playing(game: Game, timing: Timing) -> GameController:
    """A game of two humans begun at 0 s, the first seat to play."""
    ctl = controller(game, timing)
    state = game.header(game.setup_for((HUMAN, HUMAN)), 0).initial_state()
    ctl.begin(state, (HUMAN, HUMAN), 0.0)
    return ctl


def press(ctl: GameController, seat: int, button: Button, now: float,
          hold: bool = False) -> list[Any]:  # fmt: skip
    """Press (and hold past a long press, with ``hold``) and release: the commands."""
    out = ctl.handle(ButtonDown(now, seat, button), now)
    if hold:
        out += ctl.handle(LongPress(now + 1.0, seat, button, 1.0), now + 1.0)
    ctl.handle(ButtonUp(now + 1.1, seat, button, 1.1), now + 1.1)
    return out


def run_to(ctl: GameController, end: float) -> None:
    """Fire every timer due up to ``end``, in time order."""
    while (at := ctl.next_deadline()) is not None and at <= end:
        while ctl.due(at):
            ctl.tick(at)


def shown(ui: Any) -> Any:
    """A UI state but for the shell's idle fields."""
    idle = replace(ui.shell, dimmed=False, saver=False, saver_counter=0, shift_counter=0)
    return replace(ui, shell=idle)


def test_a_press_on_a_dimmed_screen_brightens_it_and_acts(game: Game) -> None:
    timing = Timing(dim_after=10, screensaver_after=100)
    bright, dim = controller(game, timing), controller(game, timing)
    before = bright.ui()
    acted = press(bright, 0, CHIP, 1.0)
    assert (acted, bright.ui()) != ([], before), "the press does something"
    run_to(dim, 11.0)
    assert dim.shell.dimmed and dim.ui().shell.dimmed and not dim.ui().shell.saver
    assert press(dim, 0, CHIP, 11.0) == acted
    assert not dim.shell.dimmed and shown(dim.ui()) == shown(bright.ui())


def test_the_screensaver_s_waking_press_does_nothing_else(game: Game) -> None:
    timing = Timing(dim_after=10, screensaver_after=20, saver_step=2)
    ctl = controller(game, timing)
    before = shown(ctl.ui())
    run_to(ctl, 30.0)
    ui = ctl.ui()
    assert ui.shell.saver and ui.shell.saver_counter == 5
    assert all(isinstance(game.seat_view(ui, seat), SaverView) for seat in range(4))
    assert press(ctl, 0, CHIP, 30.0, hold=True) == []
    assert not ctl.ui().shell.saver and not ctl.shell.dimmed and shown(ctl.ui()) == before
    assert (press(ctl, 0, CHIP, 32.0), shown(ctl.ui())) != ([], before), "the next one acts"


def test_the_burn_in_shift_waits_for_quiet_in_play(game: Game) -> None:
    ctl = playing(game, Timing(shift_every=60.0, dim_after=0, screensaver_after=0))
    assert press(ctl, 1, NO, 55.0) == []  # not its turn: a press that only wakes
    run_to(ctl, 64.9)
    assert ctl.shell.shift_counter == 0
    run_to(ctl, 65.0)  # 10 s after the press
    assert ctl.shell.shift_counter == 1 and ctl.ui().shell.shift_counter == 1
    run_to(ctl, 125.0)  # no press since: on time again
    assert ctl.shell.shift_counter == 2


def test_the_burn_in_shift_keeps_its_minute_outside_play(game: Game) -> None:
    ctl = controller(game, Timing(shift_every=60.0, dim_after=0, screensaver_after=0))
    press(ctl, 1, NO, 55.0)
    run_to(ctl, 60.0)
    assert ctl.shell.shift_counter == 1


def test_a_press_on_a_message_only_dismisses_it(game: Game) -> None:
    ctl = controller(game, Timing())
    before = ctl.ui()
    ctl.shell.show_message(("SAVED GAME", "kept"), 0.0, until_press=True)
    view = game.seat_view(ctl.ui(), 2)
    assert isinstance(view, MenuView) and view.title == "SAVED GAME"
    run_to(ctl, 100.0)
    assert ctl.shell.message is not None
    assert press(ctl, 0, CHIP, 100.0) == []
    assert ctl.shell.message is None and shown(ctl.ui()) == shown(before)
    ctl.shell.show_message(("SAVED GAME", "kept"), 101.0)
    run_to(ctl, 101.0 + Timing().message_show)
    assert ctl.shell.message is None


def test_swytch_a_hold_after_the_saver_s_waking_press_asks_no_hint() -> None:
    game = registry.get_game("swytch")
    ctl = playing(game, Timing(dim_after=10, screensaver_after=20))
    picker = ctl.picker  # type: ignore[attr-defined]
    run_to(ctl, 25.0)
    assert ctl.shell.saver
    assert press(ctl, 0, CHIP, 25.0, hold=True) == []
    assert ctl.picker == picker  # type: ignore[attr-defined]
    assert press(ctl, 0, CHIP, 30.0, hold=True) == [AskHint(0)]  # awake: held CHIP asks


def test_take_due_fires_the_game_s_and_the_shell_s_timers_in_one_order() -> None:
    """At one instant a game timer of a lower rank fires before the shell's, one of the
    shell's rank by name; the shell's fires in the shell (None) and leaves the game's."""
    shell = Shell(Timing(dim_after=10, screensaver_after=0, shift_every=1000), 0.0)
    timers = {"urgent": 10.0, "later": 10.0}

    def order(name: str) -> tuple[int, str]:
        return (RANK - 1 if name == "urgent" else RANK, name)

    assert shell.take_due(9.0, timers, True, order) is None and not shell.dimmed
    assert shell.take_due(10.0, timers, True, order) == "urgent"
    assert shell.take_due(10.0, timers, True, order) is None and shell.dimmed  # "dim" < "later"
    assert shell.take_due(10.0, timers, True, order) == "later" and timers == {}
    assert shell.take_due(10.0, timers, True, order) is None
