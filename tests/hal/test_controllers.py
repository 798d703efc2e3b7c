"""The controller registry is the only list of OLED drivers: config, the Pi backend,
the frame path and the emulated panels all take theirs from it."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
from PIL import ImageDraw

from firmware.cli import main
from hal.buses import I2cInterface
from hal.config import (
    OLED_DRIVERS,
    PANEL_SIZE,
    REFERENCE_CONFIG,
    ConfigError,
    load_config,
    loads_config,
)
from hal.controllers import CONTROLLERS, controller
from hal.oled import OledDisplay
from hal.testing import FakeBus, OledEmulator, mock_pi_hal
from hal.wiring import render_wiring
from tests.hal.conftest import frame, same


def with_driver(driver: str) -> str:
    return REFERENCE_CONFIG.read_text(encoding="utf-8").replace('"ssd1306"', f'"{driver}"')


def test_config_accepts_exactly_the_registry_s_drivers() -> None:
    assert tuple(CONTROLLERS) == OLED_DRIVERS
    for name in CONTROLLERS:
        config = loads_config(with_driver(name))
        assert {s.display.driver for s in config.seats} == {name}
    with pytest.raises(ConfigError) as err:
        loads_config(with_driver("ssd1322"))
    assert "seat 1.display.driver: 'ssd1322' is not one of ssd1306, sh1106, ssd1309" in (
        err.value.errors
    )


def test_check_config_accepts_an_ssd1309_unit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "unit.toml"
    path.write_text(with_driver("ssd1309"), encoding="utf-8")
    assert main(["check-config", str(path)]) == 0
    assert "seat 4: ssd1309 on I²C mux 0x70 channel 3 (SD3/SC3) at 0x3C" in capsys.readouterr().out


def test_every_entry_has_its_emulated_panel_and_luma_device() -> None:
    for name, c in CONTROLLERS.items():
        emulator = OledEmulator(name)
        assert emulator.controller is c and emulator.glass().size == c.size == PANEL_SIZE
        assert c.luma_device().__name__ == name
    with pytest.raises(ValueError, match="unsupported OLED driver 'ssd1322'"):
        OledEmulator("ssd1322")
    with pytest.raises(ValueError, match="use one of ssd1306, sh1106, ssd1309"):
        controller("ssd1322")


def test_an_emulated_panel_copies_and_shares_its_registry_entry() -> None:
    """benchmarks/press_latency.py finds a transfer's first changed byte on a deep copy
    of the emulated panel: the copy's RAM is its own, the immutable entry is shared."""
    for name, c in CONTROLLERS.items():
        emulator = OledEmulator(name)
        twin = copy.deepcopy(emulator)
        assert twin.controller is c and twin.ram == emulator.ram
        twin.ram[0][0] ^= 0xFF
        assert twin.ram != emulator.ram


@pytest.mark.parametrize("name", list(CONTROLLERS))
def test_each_controller_names_the_luma_constants_its_device_sends(name: str) -> None:
    """A restore after a bus error sends contrast and display on/off with the entry's
    ``luma_const()``: the very bytes luma's device class sends for them."""
    sent: list[tuple[int, ...]] = []

    class Serial:
        def command(self, *cmd: int) -> None:
            sent.append(cmd)

        def data(self, data: object) -> None:
            pass

        def cleanup(self) -> None:
            pass

    entry = controller(name)
    device = entry.luma_device()(Serial())
    device.persist = True  # (luma's atexit hook)
    sent.clear()
    device.contrast(9)
    device.hide()
    device.show()
    const = entry.luma_const()
    assert sent == [(const.SETCONTRAST, 9), (const.DISPLAYOFF,), (const.DISPLAYON,)]


def test_ssd1309_frames_reach_the_glass_in_windows() -> None:
    bus = FakeBus()
    emulator = bus.attach_i2c(1, 0x3C, "ssd1309")
    serial = I2cInterface.open(bus, 1, 0x3C)
    display = OledDisplay(controller("ssd1309").luma_device()(serial), "ssd1309", serial=serial)
    assert emulator.display_on and emulator.lit() == 0  # luma's init and clear
    image = frame((40, 20, "8"))
    for n in range(5):
        image = image.copy()
        ImageDraw.Draw(image).rectangle((10 * n, 50, 10 * n + 6, 60), fill=1)
        emulator.reset_counters()
        display.show(image)
        assert same(emulator.glass(), image)
        if n:  # a new box on pages 6-7: one window (addressing + data), not a page each
            assert emulator.transactions == 2
    display.dim(True)
    assert emulator.contrast == display._dim_contrast


def test_a_unit_of_ssd1309_panels_builds_on_the_pi_backend() -> None:
    with mock_pi_hal(loads_config(with_driver("ssd1309"))) as m:
        assert [e.driver for e in m.displays] == ["ssd1309"] * 4
        assert all(type(s.display.device).__name__ == "ssd1309" for s in m.hal.seats)
        m.hal.seats[2].display.show(frame((60, 30, "3")))
        assert same(m.glass(2), frame((60, 30, "3")))


def test_wiring_md_lists_every_controller() -> None:
    text = render_wiring(load_config(REFERENCE_CONFIG))
    line = next(x for x in text.splitlines() if x.startswith("- Controllers:"))
    assert all(f"`{name}`" in line for name in CONTROLLERS)
    assert '`ssd1309` (2.42" 128×64)' in line
