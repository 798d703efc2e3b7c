"""Displays that do not answer: named by config key, or kept as FailedDisplay for the
self-test; bus errors readable as ``last_error``; close() survives a vanished panel."""

from __future__ import annotations

import atexit

import pytest
from luma.core.error import DeviceNotFoundError

from hal.config import UnitConfig
from hal.pi import DisplayError, FailedDisplay
from hal.testing import FakeSMBus, mock_pi_hal
from tests.hal.conftest import frame


def test_a_missing_display_names_its_key(reference: UnitConfig) -> None:
    with (
        pytest.raises(DisplayError) as info,
        mock_pi_hal(reference, unplugged=(2,), keep_failed_displays=False),
    ):
        pass
    error = info.value
    assert isinstance(error, OSError)  # `switch16 run` reports it as a start-up error
    assert error.key == "seat 3.display" and isinstance(error.cause, DeviceNotFoundError)
    assert str(error) == (
        "seat 3.display (ssd1306 on I²C mux 0x70 channel 2 (SD2/SC2) at 0x3C): "
        "DeviceNotFoundError: I2C device not found: /dev/i2c-24"
    )


def test_failed_displays_can_be_kept(reference: UnitConfig) -> None:
    with mock_pi_hal(reference, unplugged=(1,), keep_failed_displays=True) as m:
        broken = m.hal.seats[1].display
        assert isinstance(broken, FailedDisplay)
        assert isinstance(broken.last_error, DeviceNotFoundError)
        broken.show(frame((0, 0, "x")))  # draws nothing, raises nothing
        assert m.hal.seats[0].display.last_error is None
        m.hal.seats[0].display.show(frame((0, 0, "seat 0")))
        assert m.displays[0].lit() > 0 and m.displays[1].lit() == 0


def test_last_error_and_close_after_a_panel_comes_loose(
    reference: UnitConfig, caplog: pytest.LogCaptureFixture
) -> None:
    with mock_pi_hal(reference) as m:
        display = m.hal.seats[3].display
        display.show(frame((0, 0, "one")))
        assert display.last_error is None
        emulator = m.bus.i2c.pop((25, 0x3C))
        display.show(frame((0, 0, "two")))
        assert isinstance(display.last_error, DeviceNotFoundError)
        m.bus.i2c[(25, 0x3C)] = emulator
        display.show(frame((0, 0, "two")))
        assert display.last_error is None
        del m.bus.i2c[(25, 0x3C)]
    # close() blanked the others and released the pins despite seat 3
    assert "seat 4.display: cannot blank it" in caplog.text
    assert all(e.lit() == 0 for e in m.displays[:3])


def test_shaker_counts_its_samples(reference: UnitConfig) -> None:
    with mock_pi_hal(reference) as m:
        for _ in range(5):
            m.shaker_edge()
            m.clock.advance(0.2)
        assert m.hal.shaker.samples == 5


def test_retrying_a_panel_that_does_not_answer_keeps_nothing(reference: UnitConfig) -> None:
    """A mux channel's bus is there, its panel is not: each try closes the bus it opened
    and builds no luma device (each registers an atexit hook, ~300 KB, for good)."""
    with mock_pi_hal(reference) as m:
        del m.bus.i2c[(23, 0x3C)]
        m.bus.attach_i2c(23, 0x3D, "ssd1306")  # another device on the channel's bus
        opened: list[FakeSMBus] = []
        real = m.bus.i2c_bus

        def i2c_bus(port: int) -> FakeSMBus:
            opened.append(real(port))
            return opened[-1]

        m.bus.i2c_bus = i2c_bus  # type: ignore[method-assign]
        display = m.hal._open_display(m.config.seats[1])
        assert isinstance(display, FailedDisplay)
        hooks = atexit._ncallbacks()
        for _ in range(20):
            assert not display.retry()
        assert atexit._ncallbacks() == hooks
        assert len(opened) == 21 and all(bus.closed for bus in opened)
