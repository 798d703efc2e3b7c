"""Controls, once (issue 24, item 3): the controller acts on, the screens draw the
legend from, and the test rig presses by the one table :data:`CONTROLS`."""

from __future__ import annotations

import pytest

from firmware.games.registry import get_game
from firmware.games.switch16.controller import Controller
from firmware.games.switch16.controls import CONTROLS
from firmware.games.switch16.engine import DISCARD, PASS, RISK, Face, Phase, Roll, State
from firmware.games.switch16.game_views import view_for
from firmware.games.switch16.screens import PlayView
from firmware.games.switch16.seat_views import seat_view
from firmware.games.switch16.setup import GameSetup
from firmware.games.switch16.ui_state import UiState
from firmware.settings import Timing
from firmware.unit.commands import Commit
from firmware.unit.controls import CONTROLS as UNIT_CONTROLS
from firmware.unit.controls import Do, Key, Part, Screen
from hal.events import Button, ButtonDown

YES, NO, CHIP = Button.YES, Button.NO, Button.CHIP


def _decide() -> State:
    s = State.new(2, 0).apply(Roll((1, 2, 4), Face.BLANK))
    while s.phase is Phase.DISCARD:
        s = s.apply(DISCARD)
    assert s.phase is Phase.DECIDE and s.turn == 0
    return s


def _press(ctl: Controller, seat: int, button: Button) -> list[object]:
    return list(ctl.handle(ButtonDown(0.0, seat, button), 0.0))


def _harness_presses(state: State) -> list[tuple[int, str]]:
    """What the rig's by-press player presses for the human on turn in ``state`` to pass
    (:meth:`Game.presses_for`)."""
    presses = get_game("switch16").presses_for(UiState.playing(state, ("human",) * 2), 0, PASS)
    assert presses is not None
    return [(0, button.value) for button in presses]


def test_the_table_as_it_ships() -> None:
    st = _decide()
    ctl = Controller(2, Timing(), GameSetup())
    ctl.begin(st, ("human", "human"), 0.0)
    view = view_for(st, 0)
    assert isinstance(view, PlayView) and view.prompt == (("YES", "risk"), ("NO", "pass"))
    assert _press(ctl, 0, NO) == [Commit(PASS)]
    assert _harness_presses(st) == [(0, "no")]


def test_changing_the_table_changes_the_legend_the_controller_and_the_rig(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Swap YES and NO when deciding: the legend says so, NO risks, the rig's "pass"
    presses YES; the set-up's legend and its CHIP change together too."""
    swapped = (Key(NO, "risk", RISK), Key(YES, "pass", PASS), Key(CHIP, "", Do.LAY))
    monkeypatch.setitem(CONTROLS, (Phase.DECIDE, Part.TURN), swapped)
    st = _decide()
    ctl = Controller(2, Timing(), GameSetup())
    ctl.begin(st, ("human", "human"), 0.0)
    view = seat_view(ctl.ui(), 0)
    assert isinstance(view, PlayView) and view.prompt == (("NO", "risk"), ("YES", "pass"))
    assert _press(ctl, 0, NO) == [Commit(RISK)]
    assert _harness_presses(st) == [(0, "yes")]

    setup = (Key(YES, "more", Do.NEXT), Key(CHIP, "ok", Do.OK), Key(NO, "", Do.BACK))
    monkeypatch.setitem(UNIT_CONTROLS, (Screen.SETUP, Part.ANY), setup)
    ctl = Controller(4, Timing(), GameSetup())
    _press(ctl, 0, CHIP)  # now "keep it": past the game question
    before = ctl.ui().setup
    assert seat_view(ctl.ui(), 0).legend == (("YES", "more"), ("CHIP", "ok"))  # type: ignore[union-attr]
    _press(ctl, 0, YES)  # now "the next answer"
    after = ctl.ui().setup
    assert before is not None and after is not None
    assert after.index == before.index and after.question.value != before.question.value


def test_every_button_in_the_table_does_something() -> None:
    for situation, keys in {**UNIT_CONTROLS, **CONTROLS}.items():
        buttons = [k.button for k in keys if k.button is not None]
        assert len(buttons) == len(set(buttons)), situation
        assert all(k.does is not None for k in keys if k.button is not None), situation
        assert all(k.button is not None for k in keys if k.does is not None), situation


def test_a_message_is_dismissed_and_labelled_by_the_table(monkeypatch: pytest.MonkeyPatch) -> None:
    ctl = Controller(2, Timing(), GameSetup())
    ctl.shell.show_message(("SAVED", "game 3"), 0.0)
    assert seat_view(ctl.ui(), 0).legend == (("", "any key"),)  # type: ignore[union-attr]
    _press(ctl, 1, NO)
    assert ctl.shell.message is None
    only_yes = (Key(None, "YES to go on"), Key(YES, "", Do.DISMISS))
    monkeypatch.setitem(UNIT_CONTROLS, (Screen.MESSAGE, Part.ANY), only_yes)
    ctl.shell.show_message(("SAVED", "game 3"), 0.0)
    assert seat_view(ctl.ui(), 0).legend == (("", "YES to go on"),)  # type: ignore[union-attr]
    _press(ctl, 1, NO)
    assert ctl.shell.message is not None
    _press(ctl, 1, YES)
    assert ctl.shell.message is None


def test_the_end_screens_keys_are_the_platforms_row_in_every_game(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Swap YES and NO in the platform's end-screen row: Switch 16's and Swytch's end
    screens say so, and the unit's answer follows (NO a rematch, YES a new game)."""
    from firmware.games.swytch.game import GAME as SWYTCH
    from firmware.games.swytch.setup import SwytchSetup
    from firmware.games.swytch.state import State as SwytchState
    from firmware.unit.commands import NewGame, RollOff
    from firmware.unit.controls import END
    from firmware.unit.end_screen import respond

    swapped = (Key(NO, "again", Do.REMATCH), Key(YES, "menu", Do.NEW_GAME))
    monkeypatch.setitem(UNIT_CONTROLS, END, swapped)
    st = State.new(2, 0)
    good = {3: (1, 2, 3), 4: (1, 2, 4, 6), 5: (1, 2, 3, 4, 6)}  # every roll discards
    while not st.game_over:
        if st.phase is Phase.ROLL:
            st = st.apply(Roll(good[st.dice_count()], Face.BLANK))
        else:
            st = st.apply(RISK if st.phase is Phase.DECIDE else DISCARD)
    ctl = Controller(2, Timing(), GameSetup())
    ctl.shell.played = GameSetup()
    ctl.begin(st, ("human", "human"), 0.0)
    assert view_for(st, 0).prompt == (("NO", "again"), ("YES", "menu"))  # type: ignore[union-attr]
    game = get_game("switch16")
    assert respond(ctl, game, ButtonDown(0.0, 0, NO), 0.0) == [RollOff(GameSetup())]
    assert respond(ctl, game, ButtonDown(0.0, 0, YES), 0.0) == [NewGame()]

    won = SwytchState.from_json({"position": "8/8/8/8/8/8/8/8/3,Suu,4 N"})
    swytch = SWYTCH.controller(2, Timing(), SwytchSetup())
    swytch.begin(won, ("human", "human"), 0.0)
    assert SWYTCH.seat_view(swytch.ui(), 0).legend == (("NO", "again"), ("YES", "menu"))  # type: ignore[union-attr]
