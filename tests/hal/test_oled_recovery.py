"""Displays after bus errors (issue 21): a transfer cut short can leave a command
half-received in the controller; recovery restores every setting before the full
redraw, and shutdown blanking is tried again while a panel fails."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from hal.buses import I2cInterface
from hal.config import UnitConfig
from hal.controllers import CONTROLLERS
from hal.frame import pack_frame
from hal.oled import OledDisplay, luma_init, open_device
from hal.testing import FakeBus, OledEmulator, TransferFault, mock_pi_hal
from tests.hal.conftest import frame

LUMA = {name: c.luma_device() for name, c in CONTROLLERS.items()}
KEY = (1, 0x3C)

OPS = st.one_of(
    st.tuples(st.just("show"), st.integers(0, 5)),
    st.tuples(st.just("dim"), st.booleans()),
    st.tuples(st.just("set_contrast"), st.integers(0, 255)),
    st.tuples(st.just("sleep"), st.none()),
    st.tuples(st.just("wake"), st.none()),
)


def make(driver: str) -> tuple[FakeBus, OledEmulator, OledDisplay]:
    bus = FakeBus()
    emulator = bus.attach_i2c(*KEY, driver)
    serial = I2cInterface.open(bus, *KEY)
    device, init = open_device(LUMA[driver], serial)
    return bus, emulator, OledDisplay(device, driver, serial=serial, init=init)


def picture(n: int) -> Image.Image:
    return frame((n * 9, n * 5, f"frame {n}"), (0, 40, "x" * (n + 1)))


@settings(max_examples=60, deadline=None)
@given(
    driver=st.sampled_from(list(CONTROLLERS)),
    every=st.integers(2, 4),
    delivered=st.sampled_from([0.0, 0.3, 0.5, 0.7]),
    commands_only=st.booleans(),
    phase=st.integers(0, 3),
    ops=st.lists(OPS, min_size=1, max_size=12),
)
def test_after_any_error_the_panel_ends_as_wanted(
    driver: str, every: int, delivered: float, commands_only: bool, phase: int, ops: list
) -> None:
    """Frames, dim, contrast, sleep and wake on a bus that cuts transfers short; once it
    behaves, the loop's retry leaves RAM, contrast and on/off exactly as wanted."""
    bus, emulator, display = make(driver)
    display.show(picture(0))
    fault = TransferFault(every, delivered, commands_only, seen=phase)
    bus.faults[KEY] = fault
    last, dimmed, contrast, asleep = 0, False, display._contrast, False
    for op, arg in ops:
        if op == "show":
            display.show(picture(arg))
            last = arg
        elif op == "dim":
            display.dim(arg)
            dimmed = arg
        elif op == "set_contrast":
            display.set_contrast(arg)
            contrast = arg
        else:
            getattr(display, op)()
            asleep = op == "sleep"
    del bus.faults[KEY]
    if display.last_error is not None:
        assert display.retry()
    assert emulator.ram_frame() == pack_frame(picture(last))
    assert emulator.contrast == (display._dim_contrast if dimmed else contrast)
    assert emulator.display_on == (not asleep)
    if not asleep:
        assert emulator.glass().tobytes() == picture(last).tobytes()


@pytest.mark.parametrize("driver", list(CONTROLLERS))
def test_a_restore_is_one_transfer_with_luma_s_init(driver: str) -> None:
    bus, emulator, display = make(driver)
    init = display.restore_commands()
    assert luma_init(display.device) in init and init.startswith(b"\xe3" * 6)
    display.dim(True)
    bus.faults[KEY] = TransferFault(every=1, delivered=0.5)
    display.dim(False)  # half of "81 CF": the controller waits for the contrast level
    del bus.faults[KEY]
    bus.reset_counters()
    assert display.retry()
    assert emulator.contrast == display._contrast and emulator.display_on
    # the restore's message, then the frame's (SSD1306: one window, SH1106: one a page)
    assert emulator.transactions == 1 + 2 * (1 if CONTROLLERS[driver].addressing == "window" else 8)


@pytest.mark.parametrize("phase", [0, 1])
def test_close_blanks_a_panel_that_answers_every_second_transfer(
    reference: UnitConfig, phase: int
) -> None:
    with mock_pi_hal(reference) as m:
        for seat in m.hal.seats:
            seat.display.show(frame((0, 0, "game on")))
        for key in m.bus.i2c:
            m.bus.faults[key] = TransferFault(2, delivered=0, commands_only=False, seen=phase)
    assert not any(e.display_on for e in m.displays)
