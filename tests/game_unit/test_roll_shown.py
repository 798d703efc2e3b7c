"""A roll that ends its turn stays on every display until it is read (issue 22, item 1):
``[timing] roll_show_s`` or a button press, bot turns too; the next turn waits for it."""

from __future__ import annotations

import pytest

from firmware.games.switch16.banners import turn_end
from firmware.games.switch16.config import Switch16Timing
from firmware.games.switch16.engine import DISCARD, PASS, RISK, Face, Place, Roll, State, make_rules
from firmware.games.switch16.screens import PlayView
from firmware.games.switch16.seat_views import seat_view
from firmware.settings import Timing, loads_unit_config
from firmware.unit.commands import RollDice
from hal.config import REFERENCE_CONFIG

from .test_controller import CHIP, YES, rig


def shown_views(r) -> list[PlayView]:
    views = [seat_view(r.ctl.ui(), s) for s in range(r.state.players)]
    assert all(isinstance(v, PlayView) for v in views)
    return views  # type: ignore[return-value]


def test_a_roll_that_makes_nothing_stays_on_every_display_then_the_bot_rolls() -> None:
    r = rig(kinds=("human", "expert"))
    r.apply(Roll((6, 6, 6), Face.BLANK))  # nothing to discard: seat 0's turn is over
    assert r.state.turn == 1
    for seat, view in enumerate(shown_views(r)):
        assert view.dice == (6, 6, 6) and view.switch == "blank"
        assert view.prompt == (("", "RED: no match"),)
        assert view.my_turn == (seat == 0)  # still the roller's moment
    assert r.advance(1.49) == []  # the bot does not start while the roll is up
    assert r.ctl.roll_shown is not None
    assert r.advance(0.02) == [] and r.ctl.roll_shown is None
    view = seat_view(r.ctl.ui(), 1)
    assert isinstance(view, PlayView) and view.my_turn and view.dice == ()
    assert r.advance(0.5) == []  # the bot thinks (0.5 s), then tumbles
    assert r.advance(0.41) == [RollDice(1)]


def test_a_button_press_skips_it_and_does_nothing_else() -> None:
    r = rig()
    r.apply(Roll((6, 6, 6), Face.BLANK))
    assert r.press(1, YES) == [] and r.ctl.roll_shown is None
    assert r.ctl.tumble is None  # the press only said "read"
    r.press(1, YES)
    assert r.ctl.tumble is not None  # the next press rolls
    r2 = rig()
    r2.apply(Roll((6, 6, 6), Face.BLANK))
    r2.press(0, CHIP)  # any seat, any button
    assert r2.ctl.roll_shown is None and not r2.ctl.menus


def test_a_bot_roll_that_ends_its_turn_is_shown_too() -> None:
    r = rig(kinds=("expert", "expert"))
    r.apply(Roll((5, 5, 5), Face.BLANK))
    assert r.ctl.roll_shown is not None and r.ctl.roll_shown.seat == 0
    assert r.advance(1.4) == []
    out = r.advance(0.11 + 0.5 + 0.41)  # read, the next bot thinks, tumbles, rolls
    assert out == [RollDice(1)]


def test_zero_seconds_turns_it_off_and_the_config_key_sets_it() -> None:
    r = rig(roll_show=0)
    r.apply(Roll((6, 6, 6), Face.BLANK))
    assert r.ctl.roll_shown is None
    text = REFERENCE_CONFIG.read_text(encoding="utf-8").replace(
        "[timing]", "[timing]\nroll_show_s = 2.5"
    )
    assert loads_unit_config(text).game.timing.of(Switch16Timing).roll_show == 2.5
    assert loads_unit_config(REFERENCE_CONFIG.read_text()).game.timing == Timing()


def test_the_banners_follow_the_roll() -> None:
    """A penalty: the roll with its outcome first, the PENALTY banner after it."""
    r = rig()
    r.apply(ONE_CARD)
    r.apply(DISCARD)
    r.apply(RISK)
    r.apply(Roll((6, 6, 6), Face.BLANK))  # a risk roll that makes nothing: penalty
    views = shown_views(r)
    assert all(v.prompt == (("", "RED: penalty to 1"),) and not v.banner for v in views)
    r.advance(1.51)
    view = seat_view(r.ctl.ui(), 0)
    assert isinstance(view, PlayView) and view.banner == ("PENALTY", "back to 1")


ONE_CARD = Roll((1, 5, 5), Face.BLANK)  #: makes card 1 only


@pytest.mark.parametrize(
    ("actions", "outcome"),
    [
        ([Roll((6, 6, 6), Face.BLANK)], "RED: no match"),
        ([Roll((6, 6, 6), Face.RED)], "RED: no switch"),  # nobody lower
        ([ONE_CARD, DISCARD, RISK, Roll((6, 6, 6), Face.BLANK)], "RED: penalty to 1"),
        ([ONE_CARD, DISCARD, RISK, Roll((1, 1, 1), Face.RED)], "RED: takes BLUE"),
        ([Roll((6, 6, 6), Face.BLOCK), ONE_CARD, Place(0, 1)], "BLUE: blocked"),
        ([ONE_CARD, DISCARD, RISK], None),  # the turn goes on
        ([ONE_CARD, DISCARD, PASS], None),  # a pass: the roller chose it
    ],
)
def test_what_came_of_the_roll(actions: list, outcome: str | None) -> None:
    s = State.new(2, 0, make_rules())
    for action in actions[:-1]:
        s = s.apply(action)
    shown = turn_end(s, actions[-1], s.apply(actions[-1]))
    assert (shown and shown.outcome) == outcome
