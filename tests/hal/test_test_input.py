"""A test rig's finger is a typed capability of each backend (``Hal.test_input``): on
gpiozero's MockFactory it drives the pins, on the simulator its keys' path."""

from __future__ import annotations

from hal.events import Button, ButtonDown, ButtonUp
from hal.testing import mock_pi_hal
from sim.hal import SimHal


def test_the_mock_pins_carry_a_test_press_through_gpiozero() -> None:
    with mock_pi_hal() as pi:
        finger = pi.hal.test_input()
        assert finger.path == "gpiozero mock pins"
        finger.button(1, Button.CHIP, True)
        assert pi.button_pin(1, Button.CHIP).state == 0  # the pin itself went low
        finger.button(1, Button.CHIP, False)
        events = pi.advance(1.0)
        assert [type(e) for e in events] == [ButtonDown, ButtonUp]
        assert {(e.seat, e.button) for e in events} == {(1, Button.CHIP)}
        samples = pi.hal.shaker.samples
        finger.shake_edge()
        assert pi.hal.shaker.samples == samples + 1
        assert pi.hal.glass(0) is not None  # emulated panels: the glass can be read


def test_the_simulator_takes_a_test_press_as_a_key() -> None:
    hal = SimHal(seats=2)
    try:
        finger = hal.test_input()
        assert finger.path == "simulator input"
        finger.button(0, Button.YES, True)
        finger.button(0, Button.YES, False)
        hal.poll(hal.clock.now() + 1.0)
        events = hal.events.drain()
        assert [type(e) for e in events] == [ButtonDown, ButtonUp]
    finally:
        hal.close()
