"""Displays: real luma traffic into emulated controllers; assert on the glass and bytes."""

from __future__ import annotations

import errno
import itertools
import logging

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from luma.core.error import DeviceNotFoundError, DevicePermissionError
from PIL import Image, ImageDraw

from hal.buses import I2C_RDWR_MAX_MESSAGES, I2cInterface
from hal.controllers import CONTROLLERS
from hal.diffplan import Window
from hal.frame import pack_frame
from hal.oled import OledDisplay
from hal.testing import FakeBus, FakeSMBus, MockPi, OledEmulator, mock_pi_hal
from tests.hal.conftest import config_from, frame, same

LUMA = {name: c.luma_device() for name, c in CONTROLLERS.items()}


def make(driver: str, rotate: int = 0) -> tuple[FakeBus, OledEmulator, OledDisplay, object]:
    bus = FakeBus()
    emulator = bus.attach_i2c(1, 0x3C, driver)
    serial = I2cInterface.open(bus, 1, 0x3C)
    device = LUMA[driver](serial, rotate=rotate)
    display = OledDisplay(device, driver, serial=serial)
    return bus, emulator, display, device


def noisy(seed: int, size: tuple[int, int] = (128, 64)) -> Image.Image:
    image = Image.effect_noise(size, 100 + seed).point(lambda v: 255 if v > 128 else 0)
    return image.convert("1")


@pytest.mark.parametrize("driver", list(CONTROLLERS))
@pytest.mark.parametrize("rotate", [0, 1, 2, 3])
def test_packing_matches_luma(driver: str, rotate: int) -> None:
    _, emulator, _, device = make(driver, rotate)
    image = noisy(rotate, device.size)
    device.display(image)  # luma's own (slow) path is the oracle
    assert emulator.ram_frame() == pack_frame(image, rotate)


@pytest.mark.parametrize("driver", list(CONTROLLERS))
def test_glass_shows_frame_and_unchanged_frame_sends_nothing(driver: str) -> None:
    bus, emulator, display, _ = make(driver)
    image = frame((0, 0, "Seat 1"), (0, 20, "Top card 12"), (0, 50, "Roll? yes/no"))
    bus.reset_counters()
    display.show(image)
    assert same(emulator.glass(), image)
    # luma's set-up cleared the panel: the first frame sends only what it lights
    assert 0 < emulator.data_bytes < 1024
    bus.reset_counters()
    display.show(image.copy())
    assert bus.bytes_written == 0 and bus.transactions == 0
    assert display.frames_skipped == 1


@pytest.mark.parametrize("driver", list(CONTROLLERS))
def test_start_up_trusts_luma_s_clear_and_a_failure_resends_in_full(driver: str) -> None:
    bus, emulator, display, _ = make(driver)
    assert emulator.ram_frame() == bytes(1024)  # luma's own clear at set-up
    bus.reset_counters()
    display.clear()
    assert bus.bytes_written == 0  # no second full frame of zeros
    display._failed("test", OSError("glitch"))
    display.show(frame((0, 0, "x")))
    assert emulator.data_bytes == 1024  # RAM unknown after a failure: everything


@pytest.mark.parametrize("driver", list(CONTROLLERS))
def test_changed_number_sends_a_small_window(driver: str) -> None:
    bus, emulator, display, _ = make(driver)
    display.show(frame((0, 0, "Top card"), (90, 24, "12")))
    bus.reset_counters()
    after = frame((0, 0, "Top card"), (90, 24, "13"))
    display.show(after)
    assert same(emulator.glass(), after)
    assert 0 < bus.bytes_written + bus.transactions < 1024 // 8
    assert emulator.data_bytes <= 2 * 12  # one digit: at most two pages of a few columns


def test_sh1106_uses_page_addressing_with_column_offset() -> None:
    _, emulator, display, _ = make("sh1106")
    white = Image.new("1", (128, 64), 1)
    display.show(white)
    assert same(emulator.glass(), white)
    for page in emulator.ram:  # the two hidden columns either side stay untouched
        assert page[0] == page[1] == page[130] == page[131] == 0
        assert all(b == 0xFF for b in page[2:130])


@pytest.mark.parametrize("driver", list(CONTROLLERS))
def test_rotation_180_turns_the_glass(driver: str) -> None:
    _, emulator, display, _ = make(driver, rotate=2)
    image = frame((0, 0, "upside"))
    display.show(image)
    assert same(emulator.glass(), image.transpose(Image.Transpose.ROTATE_180))


@settings(max_examples=25, deadline=None)
@given(
    driver=st.sampled_from(list(CONTROLLERS)),
    boxes=st.lists(
        st.lists(
            st.tuples(
                st.integers(0, 127), st.integers(0, 63), st.integers(1, 40), st.integers(1, 20)
            ),
            max_size=4,
        ),
        min_size=1,
        max_size=5,
    ),
)
def test_glass_always_equals_last_frame(driver: str, boxes: list) -> None:
    _, emulator, display, _ = make(driver)
    for rects in boxes:
        image = Image.new("1", (128, 64), 0)
        draw = ImageDraw.Draw(image)
        for x, y, w, h in rects:
            draw.rectangle((x, y, x + w, y + h), fill=1)
        display.show(image)
        assert same(emulator.glass(), image)


def test_contrast_dim_sleep_wake() -> None:
    bus, emulator, display, _ = make("ssd1306")
    image = frame((0, 0, "hello"))
    display.show(image)
    display.set_contrast(100)
    assert emulator.contrast == 100
    display.dim(True)
    assert emulator.contrast == 0x10
    display.set_contrast(120)  # remembered, applied when undimmed
    assert emulator.contrast == 0x10
    display.dim(False)
    assert emulator.contrast == 120
    display.sleep()
    assert display.asleep and not emulator.display_on and emulator.lit() == 0
    bus.reset_counters()
    display.wake()
    assert emulator.display_on and same(emulator.glass(), image)
    assert emulator.data_bytes == 1024  # first frame after wake: everything
    with pytest.raises(ValueError):
        display.set_contrast(256)


def test_bus_error_forces_full_resend(caplog: pytest.LogCaptureFixture) -> None:
    bus, emulator, display, _ = make("ssd1306")
    display.show(frame((0, 0, "one")))
    del bus.i2c[(1, 0x3C)]  # panel unplugged: writes fail with EREMOTEIO
    with caplog.at_level(logging.WARNING, logger="hal.oled"):
        display.show(frame((0, 0, "two")))
        display.show(frame((0, 0, "three")))  # still unplugged: no second warning
    assert caplog.text.count("display write failed") == 1
    assert display.last_error is not None
    bus.i2c[(1, 0x3C)] = emulator
    bus.reset_counters()
    image = frame((0, 0, "two"))
    display.show(image)
    assert emulator.data_bytes == 1024 and same(emulator.glass(), image)
    assert display.last_error is None and "display answers again" in caplog.text


def test_wrong_frame_size_is_rejected() -> None:
    _, _, display, _ = make("ssd1306")
    with pytest.raises(ValueError, match="64x128"):
        display.show(Image.new("1", (64, 128)))


def test_four_same_address_displays_on_mux_ports(mock: MockPi) -> None:
    images = [frame((0, 0, f"seat {i}")) for i in range(4)]
    for seat, image in zip(mock.hal.seats, images, strict=True):
        seat.display.show(image)
    for i, image in enumerate(images):
        assert same(mock.glass(i), image)
    assert {port for port, _ in mock.bus.i2c} == {22, 23, 24, 25}


def test_close_blanks_every_display(reference) -> None:
    with mock_pi_hal(reference) as m:
        for seat in m.hal.seats:
            seat.display.show(frame((0, 0, "game on")))
        assert all(e.lit() > 0 for e in m.displays)
    assert all(e.lit() == 0 and not e.display_on for e in m.displays)
    assert all(e.ram_frame() == bytes(1024) for e in m.displays)


def test_spi_displays_share_dc_and_reset_once() -> None:
    spi = {
        f"mux = 0x70, channel = {i}, address = 0x3C": (
            f"port = 0, device = {i % 2}, dc = 16, rst = 20"
        )
        for i in range(2)
    }
    replacements = {'bus = "i2c", ' + k: 'bus = "spi", ' + v for k, v in spi.items()}
    replacements["led = 20\n"] = ""  # RST on 20: seat 4's LED goes (hardware/unit.toml)
    replacements['driver = "ssd1306", bus = "spi", port = 0, device = 1'] = (
        'driver = "sh1106", bus = "spi", port = 0, device = 1'
    )
    config = config_from(replacements)
    with mock_pi_hal(config) as m:
        states = [s.state for s in m.pin(20).states]
        falls = sum(1 for a, b in itertools.pairwise(states) if a and not b)
        assert falls == 1 and states[-1]  # the shared reset line was pulsed once
        images = [frame((0, 0, f"spi {i}")) for i in range(4)]
        for seat, image in zip(m.hal.seats, images, strict=True):
            seat.display.show(image)
        for i, image in enumerate(images):
            assert same(m.glass(i), image)
        assert m.displays[1].driver == "sh1106"


def test_i2c_frames_go_as_single_rdwr_messages_and_cleanup_closes_the_bus() -> None:
    """The injected bus keeps luma's own-bus path: a whole frame is one write message
    (not 32 SMBus block writes), and the bus opened for the display is closed with it."""
    bus = FakeBus()
    emulator = bus.attach_i2c(1, 0x3C, "ssd1306")
    serial = I2cInterface.open(bus, 1, 0x3C)
    display = OledDisplay(LUMA["ssd1306"](serial), "ssd1306", serial=serial)
    bus.reset_counters()
    display.show(noisy(1))
    assert emulator.data_bytes == 1024
    assert emulator.transactions == 2  # the window command, then all the data
    display.device.cleanup()
    assert serial.bus.closed


def test_i2c_bus_that_cannot_open_raises_lumas_errors() -> None:
    class Forbidden(FakeBus):
        def i2c_bus(self, port: int) -> FakeSMBus:
            raise PermissionError(errno.EACCES, "Permission denied", f"/dev/i2c-{port}")

    with pytest.raises(DeviceNotFoundError, match="I2C device not found: /dev/i2c-5"):
        I2cInterface.open(FakeBus(), 5, 0x3C)
    with pytest.raises(DevicePermissionError, match="permission denied: /dev/i2c-1"):
        I2cInterface.open(Forbidden(), 1, 0x3C)


@pytest.mark.parametrize("driver", list(CONTROLLERS))
def test_a_frame_goes_in_few_rdwr_calls_of_at_most_42_messages(
    driver: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first window goes alone (the glass changes as soon as it can); every other
    window's command and data messages share ``i2c_rdwr`` calls (one system call on the
    Pi), never more messages a call than the kernel takes."""
    _, emulator, display, _ = make(driver)
    calls: list[int] = []
    rdwr = FakeSMBus.i2c_rdwr

    def counted(self: FakeSMBus, *messages: object) -> None:
        calls.append(len(messages))
        rdwr(self, *messages)

    monkeypatch.setattr(FakeSMBus, "i2c_rdwr", counted)
    stripes = Image.new("1", (128, 64))
    draw = ImageDraw.Draw(stripes)
    runs = 0
    for page in range(8):  # six or seven runs on every page, too far apart to join, and
        for x in range(10 * (page % 2), 128, 20):  # shifted page to page: none spans two
            draw.line((x, 8 * page, x, 8 * page + 7), fill=1)
            runs += 1
    display.show(stripes)
    assert emulator.ram_frame() == pack_frame(stripes)
    assert calls[0] == 2  # the first window's command and data
    rest = calls[1:]
    assert max(rest) <= I2C_RDWR_MAX_MESSAGES and len(rest) == -(-sum(rest) // 42)
    assert sum(calls) == 2 * runs


@pytest.mark.parametrize("driver", list(CONTROLLERS))
@pytest.mark.parametrize("rotate", [0, 2])
def test_page_bytes_are_planned_before_ready_and_sent_only_after(
    driver: str, rotate: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``show_pages``: the windows are planned (and their messages built) before
    ``ready()`` is asked, nothing reaches the bus before it returns, nothing at all
    when it says no; a rotated panel draws the image instead."""
    bus, emulator, display, _ = make(driver, rotate)
    image = frame((0, 0, "Seat 1"), (0, 20, "Top card 12"), (0, 50, "Roll? yes/no"))
    steps: list[str] = []
    plan = OledDisplay.plan

    def planned(self: OledDisplay, old: bytes | None, new: bytes) -> list[Window]:
        steps.append("plan")
        return plan(self, old, new)

    monkeypatch.setattr(OledDisplay, "plan", planned)

    def ready(answer: bool) -> bool:
        steps.append(f"ready, {bus.bytes_written} bytes out")
        return answer

    before = bus.bytes_written
    assert display.show_pages(pack_frame(image), lambda: image, lambda: ready(False)) is False
    assert bus.bytes_written == before and emulator.ram_frame() == bytes(1024)
    assert display.show_pages(pack_frame(image), lambda: image, lambda: ready(True)) is True
    asked = f"ready, {before} bytes out"
    if rotate:  # the image path: asked first, then drawn, packed and planned
        assert steps == [asked, asked, "plan"]
    else:
        assert steps == ["plan", asked, "plan", asked]
    assert emulator.ram_frame() == pack_frame(image, rotate)


def test_a_frame_planned_ahead_goes_without_planning_from_what_the_panel_holds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``prepare`` plans a likely next frame while the loop idles; showing it sends the
    planned bytes, and a plan made from what the panel held before is not used."""
    _, emulator, display, _ = make("ssd1306")
    display.show(noisy(1))
    nxt, other = pack_frame(noisy(2)), pack_frame(noisy(3))
    display.prepare(nxt)
    display.prepare(other)
    planned: list[int] = []
    plan = display.plan
    monkeypatch.setattr(display, "plan", lambda old, new: planned.append(1) or plan(old, new))
    assert display.show_pages(nxt, lambda: noisy(2), lambda: True)
    assert planned == [] and emulator.ram_frame() == nxt
    assert display.show_pages(other, lambda: noisy(3), lambda: True)  # planned from noisy(1)
    assert planned == [1] and emulator.ram_frame() == other
