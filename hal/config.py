"""The unit's hardware configuration (``hardware/unit.toml``): load and validate.

Pins, addresses and wiring live only in the TOML file. :func:`load_config` returns
typed, frozen dataclasses or raises :class:`ConfigError` whose lines each name the
offending key, e.g. ``seat 3.buttons.chip: GPIO 2 is the I²C SDA pin``. Seats are
numbered from 1 in the order of their ``[[seats]]`` tables, as on every screen
(:mod:`hardware.seats`); a table may say which it is (``seat = 3``), and a
number that does not match its place (a 0-based one, say) is named, not guessed at.

The file also holds settings of the layers above (the firmware's ``[rules]``,
``[state]`` and game timing). Each layer reads its own keys from one
:class:`~hal.toml_reader.ConfigDocument` (the generic reader, :mod:`hal.toml_reader`),
which then names every key nobody read. :func:`load_config` reads the hardware part
only; the firmware's ``load_unit_config`` reads and checks the whole file.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import hardware
from hal.controllers import CONTROLLERS
from hal.events import Button
from hal.frame import PANEL_SIZE as PANEL_SIZE  # every seat's panel (each of CONTROLLERS)
from hal.toml_reader import (
    MISSING,
    ConfigDocument,
    Section,
    is_int,
    parse_document,
    read_document,
)
from hal.toml_reader import ConfigError as ConfigError  # what the loaders raise
from hardware.seats import seat_name, seat_number

#: The reference build (``hardware/unit.toml``, installed as package data).
REFERENCE_CONFIG = Path(hardware.__file__).resolve().parent / "unit.toml"
#: Where an installed unit keeps its configuration.
SYSTEM_CONFIG = Path("/etc/switch16/unit.toml")
CONFIG_ENV = "SWITCH16_CONFIG"

MIN_SEATS, MAX_SEATS = 2, 4
GPIO_RANGE = range(28)  # BCM GPIO 0..27 on the 40-pin header
#: The ``driver`` names a display may have: the controller registry's.
OLED_DRIVERS = tuple(CONTROLLERS)
OLED_ADDRESSES = (0x3C, 0x3D)
SPI_SPEEDS = (500_000, 1_000_000, 2_000_000, 4_000_000, 8_000_000, 16_000_000, 20_000_000)
SHAKER_DRIVERS = ("switch",)

#: Pins that always have another job.
RESERVED_PINS = {0: "the HAT ID EEPROM pin ID_SD", 1: "the HAT ID EEPROM pin ID_SC"}
I2C_PINS = {2: "the I²C SDA pin", 3: "the I²C SCL pin"}
SPI_PINS = {
    0: {10: "SPI0 MOSI", 9: "SPI0 MISO", 11: "SPI0 SCLK", 8: "SPI0 CE0", 7: "SPI0 CE1"},
    1: {
        20: "SPI1 MOSI",
        19: "SPI1 MISO",
        21: "SPI1 SCLK",
        18: "SPI1 CE0",
        17: "SPI1 CE1",
        16: "SPI1 CE2",
    },
}


@dataclass(frozen=True, slots=True)
class DisplayConfig:
    """One OLED: ``bus`` is "i2c" (``port``, or ``mux`` + ``channel`` resolved at start-up
    by :mod:`hal.mux`, + address) or "spi" (port + device + dc/rst)."""

    driver: str
    bus: str
    port: int | None
    address: int | None = None
    device: int | None = None
    dc: int | None = None
    rst: int | None = None
    speed_hz: int = 8_000_000
    rotate: int = 0
    mux: int | None = None  #: PCA9548 address on I²C bus 1
    channel: int | None = None  #: its channel (SDn/SCn)

    def describe(self) -> str:
        if self.bus == "i2c":
            where = (f"mux 0x{self.mux:02X} channel {self.channel} (SD{self.channel}/"
                     f"SC{self.channel})" if self.mux is not None
                     else f"/dev/i2c-{self.port}")  # fmt: skip
            return f"{self.driver} on I²C {where} at 0x{self.address:02X}"
        rst = f", RST GPIO {self.rst}" if self.rst is not None else ""
        return f"{self.driver} on SPI{self.port} CE{self.device}, DC GPIO {self.dc}{rst}"


@dataclass(frozen=True, slots=True)
class SeatConfig:
    index: int
    buttons: dict[Button, int]
    display: DisplayConfig
    led: int | None = None


@dataclass(frozen=True, slots=True)
class ShakerConfig:
    driver: str
    pin: int
    pull_up: bool = True
    start_edges: int = 6
    start_window_s: float = 0.3
    stop_quiet_s: float = 0.4
    max_roll_s: float = 4.0
    button_fallback: bool = True  #: a long press of "yes" also requests a roll


@dataclass(frozen=True, slots=True)
class BuzzerConfig:
    pin: int
    mid_tone: str = "A4"
    octaves: int = 2
    mute: bool = False  #: wired but silent: tunes run, the pin stays quiet


@dataclass(frozen=True, slots=True)
class InputTiming:
    """How the HAL reads buttons (``[timing] debounce_ms``, ``long_press_ms``)."""

    debounce_s: float = 0.03
    long_press_s: float = 0.8


#: Panel contrast, normal and dimmed when idle (``[displays] contrast``, ``dim_contrast``).
CONTRAST = 0xCF
DIM_CONTRAST = 0x10


@dataclass(frozen=True, slots=True)
class DisplaySettings:
    contrast: int = CONTRAST
    dim_contrast: int = DIM_CONTRAST
    #: The panels' (width, height); not a unit.toml key: the screens draw 128×64.
    size: tuple[int, int] = PANEL_SIZE


@dataclass(frozen=True, slots=True)
class UnitConfig:
    """The unit's hardware: seats (2–4), shaker, optional buzzer, input timing, panels."""

    name: str
    seats: tuple[SeatConfig, ...]
    shaker: ShakerConfig
    buzzer: BuzzerConfig | None = None
    timing: InputTiming = field(default_factory=InputTiming)
    displays: DisplaySettings = field(default_factory=DisplaySettings)
    source: Path | None = None

    def pin_uses(self) -> Iterator[tuple[str, int, str]]:
        """(key, GPIO, role) for every pin the unit drives or reads."""
        for seat in self.seats:
            for button, pin in seat.buttons.items():
                key = seat_key(seat.index, f"buttons.{button}")
                yield key, pin, f"{seat_name(seat.index)} {button}"
            if seat.led is not None:
                yield seat_key(seat.index, "led"), seat.led, f"{seat_name(seat.index)} LED"
            d = seat.display
            if d.dc is not None:
                yield seat_key(seat.index, "display.dc"), d.dc, "display DC"
            if d.rst is not None:
                yield seat_key(seat.index, "display.rst"), d.rst, "display RST"
        yield "shaker.pin", self.shaker.pin, "shaker"
        if self.buzzer is not None:
            yield "buzzer.pin", self.buzzer.pin, "buzzer"


# --------------------------------------------------------------------------- loading


def find_config(path: str | os.PathLike[str] | None = None) -> Path:
    """Explicit path, else $SWITCH16_CONFIG, else /etc/switch16/unit.toml, else the reference."""
    if path is not None:
        return Path(path)
    if env := os.environ.get(CONFIG_ENV):
        return Path(env)
    if SYSTEM_CONFIG.is_file():
        return SYSTEM_CONFIG
    return REFERENCE_CONFIG


def read_config(path: str | os.PathLike[str] | None = None) -> ConfigDocument:
    """Read and parse a configuration file (see :func:`find_config`)."""
    return read_document(find_config(path))


def hardware_config(doc: ConfigDocument) -> UnitConfig | None:
    """Read the hardware keys of ``doc``; None when they have errors (in ``doc.errors``)."""
    config = _parse(doc.root, doc.errors, doc.source)
    return None if doc.errors else config


def load_config(path: str | os.PathLike[str] | None = None) -> UnitConfig:
    """Read and validate the hardware part of a configuration file (see :func:`find_config`)."""
    return _hardware_only(read_config(path))


def loads_config(text: str, source: Path | None = None) -> UnitConfig:
    """Parse and validate the hardware part of TOML text."""
    return _hardware_only(parse_document(text, source))


def parse_config(data: dict[str, Any], source: Path | None = None) -> UnitConfig:
    """Validate the hardware part of an already-parsed TOML document."""
    return _hardware_only(ConfigDocument(Section(data, "", []), source))


def _hardware_only(doc: ConfigDocument) -> UnitConfig:
    config = hardware_config(doc)
    doc.check(complete=False)
    assert config is not None
    return config


# --------------------------------------------------------------------------- validation


def _pin(t: Section, name: str, default: Any = MISSING) -> Any:
    """A GPIO number of the 40-pin header."""
    value = t.typed(name, default, "a GPIO number", is_int)
    if value is not None and value is not default and value not in GPIO_RANGE:
        t.error(name, f"GPIO {value} does not exist (the header has GPIO 0–27)")
        return None
    return value


def _ms(table: Section, name: str, default_s: float, lo: float = 1, hi: float = 60_000) -> float:
    value = table.number(name, default_s * 1000, lo, hi)
    return default_s if value is None else value / 1000


def _parse(root: Section, errors: list[str], source: Path | None) -> UnitConfig | None:
    unit = root.table("unit")
    name, count = "unnamed", None
    if unit:
        name = unit.string("name", "unnamed")
        count = unit.integer("seats", MISSING, MIN_SEATS, MAX_SEATS)
        unit.finish()

    seat_tables = root.tables("seats", seat_name)
    if root.data.get("seats") == []:
        root.error("seats", f"no [[seats]] tables (a unit has {MIN_SEATS}–{MAX_SEATS})")
    if count is not None and seat_tables and len(seat_tables) != count:
        if len(seat_tables) < count:
            missing = ", ".join(seat_name(i) for i in range(len(seat_tables), count))
            root.error(
                "seats",
                f"unit.seats is {count} but {missing} is missing "
                f"(only {len(seat_tables)} [[seats]] tables)",
            )
        else:
            root.error(
                "seats",
                f"unit.seats is {count} but {len(seat_tables)} [[seats]] tables are defined",
            )
    seats = [s for i, t in enumerate(seat_tables) if (s := _seat(i, t)) is not None]

    shaker_table = root.table("shaker")
    shaker = _shaker(shaker_table) if shaker_table else None
    buzzer_table = root.table("buzzer", required=False)
    buzzer = _buzzer(buzzer_table) if buzzer_table else None
    timing = _input_timing(root.table("timing", required=False))
    displays = _display_settings(root.table("displays", required=False))

    if errors or shaker is None or len(seats) != len(seat_tables):
        return None
    config = UnitConfig(name, tuple(seats), shaker, buzzer, timing, displays, source)
    _check_pins(config, errors)
    _check_displays(config, errors)
    return None if errors else config


def seat_key(index: int, key: str) -> str:
    """How messages name ``key`` of a seat's ``[[seats]]`` table: ``seat 3.display``."""
    return f"{seat_name(index)}.{key}"


def _seat(index: int, table: Section) -> SeatConfig | None:
    said = table.integer("seat", None)
    if said is not None and said != seat_number(index):
        table.error("seat", f"is {said}, but this [[seats]] table is {seat_name(index)}: seats "
                    f"are numbered from {seat_number(0)} in the order of the tables "
                    f"(write seat = {seat_number(index)}, or move the table)")  # fmt: skip
    buttons: dict[Button, int] = {}
    bt = table.table("buttons")
    if bt:
        for button in Button:
            pin = _pin(bt, button.value)
            if pin is not None:
                buttons[button] = pin
        bt.finish()
    dt = table.table("display")
    display = _display(dt) if dt else None
    led = _pin(table, "led", None)
    table.finish()
    if display is None or len(buttons) != len(Button):
        return None
    return SeatConfig(index, buttons, display, led)


def _display(t: Section) -> DisplayConfig | None:
    driver = t.string("driver", choices=OLED_DRIVERS)
    bus = t.string("bus", choices=("i2c", "spi"))
    rotate = t.integer("rotate", 0)
    if rotate not in (0, 1, 2, 3, None):
        t.error("rotate", f"{rotate} is not a quarter turn (use 0, 1, 2 or 3)")
    result = None
    if bus == "i2c":
        by_mux = "mux" in t.data or "channel" in t.data
        if by_mux and "port" in t.data:
            t.error("port", "give either port or mux + channel, not both")
        port = mux = channel = None
        if by_mux:
            mux = t.integer("mux", MISSING, 0x70, 0x77, hexadecimal=True)
            channel = t.integer("channel", MISSING, 0, 7)
        else:
            port = t.integer("port", MISSING, 0, 255)
        address = t.integer("address")
        if address is not None and address not in OLED_ADDRESSES:
            t.error("address", f"0x{address:02X} is not an OLED address (use 0x3C or 0x3D)")
            address = None
        bus_known = (mux, channel) if by_mux else (port,)
        if None not in (driver, *bus_known, address, rotate):
            result = DisplayConfig(driver, bus, port, address=address, rotate=rotate, mux=mux,
                                   channel=channel)  # fmt: skip
    elif bus == "spi":
        port = t.integer("port", 0, 0, 1)
        device = t.integer("device", MISSING, 0, 2)
        dc = _pin(t, "dc")
        rst = _pin(t, "rst", None)
        speed = t.integer("speed_hz", 8_000_000)
        if speed is not None and speed not in SPI_SPEEDS:
            t.error(
                "speed_hz",
                f"{speed} is not a supported SPI speed ({', '.join(map(str, SPI_SPEEDS))})",
            )
            speed = None
        if None not in (driver, port, device, dc, speed, rotate):
            result = DisplayConfig(
                driver, bus, port, device=device, dc=dc, rst=rst, speed_hz=speed, rotate=rotate
            )
    t.finish()
    return result if rotate in (0, 1, 2, 3) else None


def _shaker(t: Section) -> ShakerConfig | None:
    driver = t.string("driver", "switch", SHAKER_DRIVERS)
    pin = _pin(t, "pin")
    pull_up = t.boolean("pull_up", True)
    edges = t.integer("start_edges", 6, 2, 1000)
    window = _ms(t, "start_window_ms", 0.3)
    quiet = _ms(t, "stop_quiet_ms", 0.4)
    cap = _ms(t, "max_roll_ms", 4.0, 100)
    fallback = t.boolean("button_fallback", True)
    t.finish()
    if None in (driver, pin, pull_up, edges, fallback):
        return None
    return ShakerConfig(driver, pin, pull_up, edges, window, quiet, cap, fallback)


def _buzzer(t: Section) -> BuzzerConfig | None:
    pin = _pin(t, "pin")
    mid = t.string("mid_tone", "A4")
    if mid is not None and not re.fullmatch(r"[A-G][#b]?[0-9]", mid):
        t.error("mid_tone", f"{mid!r} is not a note name like 'A4' or 'C#5'")
        mid = None
    octaves = t.integer("octaves", 2, 1, 3)
    mute = t.boolean("mute", False)
    t.finish()
    return None if None in (pin, mid, octaves, mute) else BuzzerConfig(pin, mid, octaves, mute)


def _input_timing(t: Section | None) -> InputTiming:
    """The button keys of ``[timing]`` (the firmware reads the game's, then it is finished)."""
    if t is None:
        return InputTiming()
    d = InputTiming()
    return InputTiming(
        debounce_s=_ms(t, "debounce_ms", d.debounce_s, 0, 500),
        long_press_s=_ms(t, "long_press_ms", d.long_press_s, 100, 10_000),
    )


def _display_settings(t: Section | None) -> DisplaySettings:
    if t is None:
        return DisplaySettings()
    contrast = t.integer("contrast", CONTRAST, 0, 255)
    dim = t.integer("dim_contrast", DIM_CONTRAST, 0, 255)
    t.finish()
    return DisplaySettings(
        CONTRAST if contrast is None else contrast, DIM_CONTRAST if dim is None else dim
    )


def _check_pins(config: UnitConfig, errors: list[str]) -> None:
    displays = [s.display for s in config.seats]
    reserved = dict(RESERVED_PINS)
    if any(d.bus == "i2c" for d in displays):
        reserved |= I2C_PINS
    for port in sorted({d.port for d in displays if d.bus == "spi" and d.port is not None}):
        reserved |= {pin: f"the {name} pin" for pin, name in SPI_PINS[port].items()}
    first: dict[int, tuple[str, str]] = {}
    for key, pin, role in config.pin_uses():
        if pin in reserved:
            errors.append(f"{key}: GPIO {pin} is {reserved[pin]}")
            continue
        if pin in first:
            other_key, other_role = first[pin]
            shared = role == other_role and role in ("display DC", "display RST")
            if not shared:
                errors.append(f"{key}: GPIO {pin} is already used by {other_key}")
            continue
        first[pin] = (key, role)


def _check_displays(config: UnitConfig, errors: list[str]) -> None:
    seen: dict[tuple[str, int | None, int | None, int | None, int | None], int] = {}
    for seat in config.seats:
        d = seat.display
        where = (d.bus, d.port, d.mux, d.channel, d.address if d.bus == "i2c" else d.device)
        if where in seen:
            if d.bus == "spi":
                what = f"SPI{d.port} CE{d.device}"
            elif d.mux is not None:
                what = f"I²C mux 0x{d.mux:02X} channel {d.channel} address 0x{d.address:02X}"
            else:
                what = f"I²C port {d.port} address 0x{d.address:02X}"
            hint = " (same-address displays go on separate mux channels)" if d.bus == "i2c" else ""
            errors.append(
                f"{seat_key(seat.index, 'display')}: {what} is already used by "
                f"{seat_key(seen[where], 'display')}{hint}"
            )
        else:
            seen[where] = seat.index
