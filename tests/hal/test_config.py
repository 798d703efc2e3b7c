"""Configuration loading and validation: every error names its key."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware.cli import main
from hal.config import REFERENCE_CONFIG, ConfigError, find_config, load_config, loads_config
from hal.events import Button
from tests.hal.conftest import REFERENCE_TEXT, config_from


def errors_of(replacements: dict[str, str] | None = None, extra: str = "") -> list[str]:
    with pytest.raises(ConfigError) as info:
        config_from(replacements, extra)
    return info.value.errors


M0, M1 = "mux = 0x70, channel = 0, address = 0x3C", "mux = 0x70, channel = 1, address = 0x3C"


def test_reference_build() -> None:
    config = load_config(REFERENCE_CONFIG)
    assert len(config.seats) == 4
    assert config.seats[0].buttons == {Button.YES: 17, Button.NO: 27, Button.CHIP: 22}
    # four same-address panels, one per channel of the mux at 0x70 (the bus is looked up
    # at start-up: the numbers differ between Pi models)
    displays = [(s.display.mux, s.display.channel, s.display.address) for s in config.seats]
    assert displays == [(0x70, c, 0x3C) for c in range(4)]
    assert all(s.display.port is None for s in config.seats)
    assert config.shaker.pin == 4 and config.shaker.start_window_s == 0.3
    assert config.buzzer is not None and config.buzzer.pin == 12
    assert config.timing.debounce_s == 0.03 and config.timing.long_press_s == 0.8


@pytest.mark.parametrize(
    ("replacements", "expected"),
    [
        (
            {"yes = 19, no = 26, chip = 21": "yes = 19, no = 26, chip = 2"},
            "seat 3.buttons.chip: GPIO 2 is the I²C SDA pin",
        ),
        (
            {"yes = 5, no = 6": "yes = 5, no = 17"},
            "seat 2.buttons.no: GPIO 17 is already used by seat 1.buttons.yes",
        ),
        ({"pin = 4\n": "pin = 0\n"}, "shaker.pin: GPIO 0 is the HAT ID EEPROM pin ID_SD"),
        (
            {M1: "mux = 0x70, channel = 1, address = 0x50"},
            "seat 2.display.address: 0x50 is not an OLED address (use 0x3C or 0x3D)",
        ),
        (
            {M1: "mux = 0x70, channel = 0, address = 0x3C"},
            "seat 2.display: I²C mux 0x70 channel 0 address 0x3C is already used by "
            "seat 1.display (same-address displays go on separate mux channels)",
        ),
        (
            {M0: "port = 22, address = 0x3C", M1: "port = 22, address = 0x3C"},
            "seat 2.display: I²C port 22 address 0x3C is already used by seat 1.display",
        ),
        (
            {M1: "mux = 0x70, channel = 1, port = 23, address = 0x3C"},
            "seat 2.display.port: give either port or mux + channel, not both",
        ),
        (  # an address, in hex as in the file and the datasheet (issue 22)
            {M1: "mux = 0x10, channel = 1, address = 0x3C"},
            "seat 2.display.mux: 0x10 is out of range 0x70–0x77",
        ),
        ({M1: "mux = 0x70, channel = 8, address = 0x3C"}, "seat 2.display.channel: 8 is out"),
        ({"seats = 4": "seats = 5"}, "unit.seats: 5 is out of range 2–4"),
        (
            {"debounce_ms = 30": 'debounce_ms = "30"'},
            "timing.debounce_ms: expected a number, got a string ('30')",
        ),
        ({"pull_up = true": "pull_up = 1"}, "shaker.pull_up: expected true or false"),
        ({"pin = 12": "pin = 40"}, "buzzer.pin: GPIO 40 does not exist"),
        ({"pin = 12": "pim = 12"}, "buzzer.pim: unknown key"),
        (
            {
                'ssd1306", bus = "i2c", mux = 0x70, channel = 2': 'ssd1322", bus = "i2c", '
                "mux = 0x70, channel = 2"
            },
            "seat 3.display.driver: 'ssd1322' is not one of ssd1306, sh1106, ssd1309",
        ),
        (
            {"rotate = 0 }\n\n[[seats]]\nseat = 2\n": "rotate = 5 }\n\n[[seats]]\nseat = 2\n"},
            "seat 1.display.rotate: 5 is not a quarter turn",
        ),
        (
            {"buttons = { yes = 23, no = 24, chip = 25 }": "buttons = { yes = 23, no = 24 }"},
            "seat 4.buttons.chip: missing (expected a GPIO number)",
        ),
    ],
)
def test_errors_name_the_key(replacements: dict[str, str], expected: str) -> None:
    errors = errors_of(replacements)
    assert any(e.startswith(expected) for e in errors), errors


def test_missing_seat() -> None:
    text = REFERENCE_TEXT.split("[[seats]]")
    trimmed = "[[seats]]".join(text[:4]) + "\n[shaker]" + text[4].split("[shaker]", 1)[1]
    with pytest.raises(ConfigError) as info:
        loads_config(trimmed)
    assert info.value.errors == [
        "seats: unit.seats is 4 but seat 4 is missing (only 3 [[seats]] tables)"
    ]


def test_spi_pins_are_reserved_when_spi_is_used() -> None:
    errors = errors_of(
        {
            'bus = "i2c", ' + M0: 'bus = "spi", port = 0, device = 0, dc = 16',
            "yes = 23, no = 24, chip = 25": "yes = 23, no = 24, chip = 8",
        }
    )
    assert errors == ["seat 4.buttons.chip: GPIO 8 is the SPI0 CE0 pin"]


def test_shared_dc_is_fine_but_not_with_a_button() -> None:
    spi = 'bus = "spi", port = 0, device = {}, dc = 16, rst = 20'
    no_led_20 = {"led = 20\n": ""}  # RST on 20: seat 4's LED goes (hardware/unit.toml)
    config = config_from(
        {
            'bus = "i2c", ' + M0: spi.format(0),
            'bus = "i2c", ' + M1: spi.format(1),
        }
        | no_led_20
    )
    assert config.seats[1].display.dc == 16
    errors = errors_of(
        {
            'bus = "i2c", ' + M0: spi.format(0),
            "yes = 23, no = 24": "yes = 23, no = 20",
        }
        | no_led_20
    )
    assert errors == ["seat 4.buttons.no: GPIO 20 is already used by seat 1.display.rst"]


def test_syntax_error_and_unreadable_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="TOML syntax error"):
        loads_config("[unit\n")
    with pytest.raises(ConfigError, match="cannot read the file"):
        load_config(tmp_path / "nope.toml")


def test_search_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert find_config("x.toml") == Path("x.toml")
    monkeypatch.setenv("SWITCH16_CONFIG", str(tmp_path / "env.toml"))
    assert find_config() == tmp_path / "env.toml"
    monkeypatch.delenv("SWITCH16_CONFIG")
    monkeypatch.setattr("hal.config.SYSTEM_CONFIG", tmp_path / "missing.toml")
    assert find_config() == REFERENCE_CONFIG


def test_check_config_prints_pin_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check-config", str(REFERENCE_CONFIG)]) == 0
    out = capsys.readouterr().out
    assert "OK" in out
    assert "  17   11  seat 1 yes             seat 1.buttons.yes" in out
    assert "seat 4: ssd1306 on I²C mux 0x70 channel 3 (SD3/SC3) at 0x3C" in out


def test_check_config_prints_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "unit.toml"
    bad.write_text(REFERENCE_TEXT.replace("pin = 4\n", "pin = 3\n"), encoding="utf-8")
    assert main(["check-config", str(bad)]) == 1
    err = capsys.readouterr().err
    assert "1 error(s)" in err and "shaker.pin: GPIO 3 is the I²C SCL pin" in err


def test_seats_are_numbered_from_1_and_old_configs_still_load() -> None:
    """A config without ``seat = N`` (every one before) loads as before; a number that does
    not match its table's place, a 0-based one say, is named, not guessed at."""
    old = REFERENCE_TEXT
    for n in range(1, 5):
        old = old.replace(f"[[seats]]\nseat = {n}\n", "[[seats]]\n")
    assert "\nseat = " not in old and loads_config(old) == loads_config(REFERENCE_TEXT)
    zero_based = REFERENCE_TEXT.replace("seat = 1\n", "seat = 0\n")
    with pytest.raises(ConfigError) as info:
        loads_config(zero_based)
    assert info.value.errors == [
        "seat 1.seat: is 0, but this [[seats]] table is seat 1: seats are numbered from 1 in "
        "the order of the tables (write seat = 1, or move the table)"
    ]


def test_the_reference_leds_leave_the_spi_variant_its_pins() -> None:
    # issue 22: the reference had no LED pins, and the example `led = 16` took the SPI
    # variant's DC pin
    spi = 'bus = "spi", port = 0, device = {}, dc = 16'
    config = config_from({'bus = "i2c", ' + M0: spi.format(0), 'bus = "i2c", ' + M1: spi.format(1)})
    assert all(seat.led is not None for seat in config.seats)
    assert config.seats[0].display.dc == 16
