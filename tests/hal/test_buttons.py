"""Buttons on MockFactory: software debounce, long press, the roll fallback."""

from __future__ import annotations

import itertools

from hal.debounce import Debouncer
from hal.events import Button, ButtonDown, ButtonUp, LongPress, RollRequested, RollSource
from hal.testing import MockPi


def bounce(
    mock: MockPi, seat: int, button: str, edges: int, final_pressed: bool, step: float = 0.001
) -> None:
    """A contact bounce: alternate levels every ``step`` s, ending on the final level."""
    levels = [(final_pressed if (edges - i) % 2 == 1 else not final_pressed) for i in range(edges)]
    for pressed in levels:
        (mock.press if pressed else mock.release)(seat, button)
        mock.clock.advance(step)


def test_press_reacts_on_first_edge(mock: MockPi) -> None:
    mock.clock.set(10.0)
    mock.press(1, "no")
    assert mock.events() == [ButtonDown(10.0, 1, Button.NO)]
    assert mock.hal.seats[1].is_pressed(Button.NO)


def test_bounce_burst_gives_one_press_and_one_release(mock: MockPi) -> None:
    bounce(mock, 0, "yes", edges=7, final_pressed=True)  # 7 ms of chatter
    events = mock.advance(0.2)
    assert events == [ButtonDown(0.0, 0, Button.YES)]
    bounce(mock, 0, "yes", edges=6, final_pressed=False)
    events = mock.advance(0.2)
    assert [type(e) for e in events] == [ButtonUp]
    assert not mock.hal.seats[0].is_pressed(Button.YES)


def test_storm_never_exceeds_one_press_per_lockout_and_keeps_final_state(mock: MockPi) -> None:
    lockout = mock.config.timing.debounce_s
    seen = []
    for _ in range(200):  # 200 edges, 1 ms apart, ending released
        mock.press(2, "chip") if mock.button_pin(2, "chip").state else mock.release(2, "chip")
        seen += mock.advance(0.001)
    mock.release(2, "chip")
    seen += mock.advance(0.5)
    downs = [e for e in seen if isinstance(e, ButtonDown)]
    assert len(downs) <= 0.2 / lockout + 1
    assert all(b.t - a.t >= lockout for a, b in itertools.pairwise(downs))
    assert isinstance(seen[-1], ButtonUp)  # the final (released) state is delivered
    assert not mock.hal.seats[2].is_pressed(Button.CHIP)


def test_release_during_lockout_is_delivered_when_it_ends(mock: MockPi) -> None:
    mock.press(0, "no")
    mock.clock.advance(0.010)
    mock.release(0, "no")  # a real 10 ms tap, shorter than the lockout
    assert mock.events() == [ButtonDown(0.0, 0, Button.NO)]
    assert mock.hal.next_deadline() == mock.config.timing.debounce_s
    events = mock.advance(0.1)
    assert events == [ButtonUp(0.03, 0, Button.NO, 0.03)]


def test_long_press_via_deadline_and_roll_fallback(mock: MockPi) -> None:
    long_press = mock.config.timing.long_press_s
    mock.press(3, "yes")
    assert mock.hal.next_deadline() == long_press
    assert mock.advance(long_press - 0.01) == [ButtonDown(0.0, 3, Button.YES)]
    events = mock.advance(0.02)
    assert events == [
        LongPress(long_press, 3, Button.YES, long_press),
        RollRequested(long_press, 3, RollSource.BUTTON),
    ]
    assert mock.advance(5.0) == []  # only once per press
    mock.release(3, "yes")
    up = mock.events()
    assert len(up) == 1 and isinstance(up[0], ButtonUp) and abs(up[0].held - 5.81) < 1e-9


def test_long_press_of_other_buttons_requests_no_roll(mock: MockPi) -> None:
    mock.press(0, "chip")
    events = mock.advance(2.0)
    assert [type(e) for e in events] == [ButtonDown, LongPress]


def test_idle_unit_has_no_deadline(mock: MockPi) -> None:
    assert mock.hal.next_deadline() is None
    mock.press(0, "yes")
    mock.advance(0.1)
    mock.release(0, "yes")
    mock.advance(0.1)
    assert mock.hal.next_deadline() is None


def test_debouncer_is_pure() -> None:
    d = Debouncer(0, Button.YES, lockout=0.03, long_press=None)
    assert d.edge(1.0, True) == [ButtonDown(1.0, 0, Button.YES)]
    assert d.edge(1.01, False) == [] and d.edge(1.02, True) == []
    assert d.poll(1.05) == [] and d.next_deadline() is None


def test_buttons_start_no_hold_threads(mock: MockPi) -> None:
    """The project debounces and detects holds itself: no gpiozero Button hold thread
    per button (12 threads waking every 100 ms on a Zero)."""
    import threading

    assert not [t for t in threading.enumerate() if type(t).__name__ == "HoldThread"]
