"""SimHal: the hal interfaces fed by simulated input, on a virtual clock."""

from __future__ import annotations

import pytest
from PIL import Image

from hal import load_backend
from hal.clock import VirtualClock
from hal.config import load_config
from hal.events import Button, ButtonDown, ButtonUp, LongPress, ShakeStarted, ShakeStopped
from hal.interfaces import Hal
from sim.hal import SimHal


def run_until(hal: SimHal, clock: VirtualClock, t: float) -> list:
    """Advance to ``t`` deadline by deadline, polling like the unit loop; return events."""
    while (deadline := hal.next_deadline()) is not None and deadline <= t:
        clock.set(max(deadline, clock.now()))
        hal.poll()
    clock.set(t)
    hal.poll()
    return hal.events.drain()


def test_load_backend_builds_the_sim(clock: VirtualClock) -> None:
    hal = load_backend("sim", load_config(None), clock=clock)
    assert isinstance(hal, SimHal) and isinstance(hal, Hal)
    assert len(hal.seats) == 4 and hal.clock is clock


def test_seat_count_and_limits(clock: VirtualClock) -> None:
    assert len(SimHal(clock=clock, seats=2).seats) == 2
    with pytest.raises(ValueError):
        SimHal(clock=clock, seats=5)


def test_press_release_and_long_press(hal: SimHal, clock: VirtualClock) -> None:
    hal.press(1, Button.YES)
    assert hal.seats[1].is_pressed(Button.YES)
    events = run_until(hal, clock, 101.0)
    assert [type(e) for e in events] == [ButtonDown, LongPress]
    assert events[0] == ButtonDown(100.0, 1, Button.YES)
    assert events[1].held == pytest.approx(hal.config.timing.long_press_s)
    hal.release(1, Button.YES)
    (up,) = hal.events.drain()
    assert up == ButtonUp(101.0, 1, Button.YES, 1.0)


def test_a_click_shorter_than_the_debounce_still_comes_up(hal: SimHal, clock) -> None:
    hal.press(0, Button.CHIP)
    hal.release(0, Button.CHIP)
    events = run_until(hal, clock, 100.5)
    assert [type(e) for e in events] == [ButtonDown, ButtonUp]
    assert not hal.seats[0].is_pressed(Button.CHIP)


def test_holding_the_shake_key_shakes_and_release_rolls(hal: SimHal, clock) -> None:
    hal.shake_hold(True)
    events = run_until(hal, clock, 100.5)
    assert [type(e) for e in events] == [ShakeStarted]
    assert hal.shaker.shaking and events[0].t < 100.3
    hal.shake_hold(False)
    events = run_until(hal, clock, 102.0)
    assert [type(e) for e in events] == [ShakeStopped]
    stop = events[0]
    assert not stop.capped and stop.duration == pytest.approx(0.5, abs=0.06)
    assert stop.t == pytest.approx(100.5 + hal.config.shaker.stop_quiet_s, abs=0.06)
    assert hal.next_deadline() is None


def test_holding_too_long_caps_the_roll(hal: SimHal, clock) -> None:
    hal.shake_hold(True)
    events = run_until(hal, clock, 110.0)
    assert [type(e) for e in events] == [ShakeStarted, ShakeStopped]
    assert events[1].capped
    hal.shake_hold(False)
    assert run_until(hal, clock, 112.0) == []


def test_mouse_wiggle_shakes(hal: SimHal, clock) -> None:
    for _ in range(8):
        hal.shake_motion(20)
        clock.advance(0.02)
        hal.poll()
    assert [type(e) for e in hal.events.drain()] == [ShakeStarted]
    events = run_until(hal, clock, 101.0)
    assert [type(e) for e in events] == [ShakeStopped]


def test_slow_mouse_moves_do_not_shake(hal: SimHal, clock) -> None:
    for _ in range(20):
        hal.shake_motion(10)
        clock.advance(0.2)
        hal.poll()
    assert hal.events.drain() == []


def test_display_keeps_frames_contrast_and_sleep(hal: SimHal) -> None:
    display = hal.seats[2].display
    frame = Image.new("1", (128, 64))
    frame.putpixel((5, 7), 1)
    display.show(frame)
    display.show(frame.copy())
    assert display.frames == 1 and display.frame.getpixel((5, 7))
    display.show(frame.convert("L"))
    assert display.frames == 1
    with pytest.raises(ValueError):
        display.show(Image.new("1", (64, 32)))
    display.dim(True)
    assert display.dimmed and display.contrast == hal.config.displays.dim_contrast
    display.dim(False)
    assert display.contrast == hal.config.displays.contrast
    display.sleep()
    assert display.asleep
    display.wake()
    assert not display.asleep
    display.clear()
    assert display.frame.getbbox() is None and display.frames == 2


def test_buzzer_plays_tunes_through_poll(hal: SimHal, clock) -> None:
    assert hal.buzzer is not None
    hal.buzzer.play([("A4", 0.1), (None, 0.1), ("C5", 0.2)])
    assert hal.buzzer.playing and hal.buzzer.note == "A4"
    run_until(hal, clock, 100.15)
    assert hal.buzzer.note is None
    run_until(hal, clock, 100.25)
    assert hal.buzzer.note == "C5"
    run_until(hal, clock, 101.0)
    assert not hal.buzzer.playing


def test_close_blanks_and_is_idempotent(hal: SimHal) -> None:
    hal.seats[0].display.show(Image.new("1", (128, 64), 1))
    with hal:
        pass
    hal.close()
    assert all(d.frame.getbbox() is None for d in hal.displays)
