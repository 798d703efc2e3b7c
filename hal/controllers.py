"""The OLED controllers a seat's display may use: one entry each, the only list.

Config validation (``driver = ...``), the Pi backend (which luma device to build), the
frame path (:mod:`hal.oled`: how a window is addressed, what a restore adds) and the
emulated panels (:mod:`hal.testing`: how commands are decoded) all read this registry,
as luma.oled derives ``ssd1309(ssd1306)``. The init sequence is luma's own, recorded
when the device is built (:func:`hal.oled.open_device`), not copied here.

Adding a controller: one :class:`Controller` below (and a luma device class for it).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any, Literal

#: Argument counts of SSD1306-family multi-byte commands (others are one byte).
_SSD1306_ARGS = MappingProxyType({
    0x81: 1, 0x20: 1, 0x21: 2, 0x22: 2, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1,
    0xDB: 1, 0x8D: 1, 0xA3: 2, 0x26: 6, 0x27: 6, 0x29: 5, 0x2A: 5,
})  # fmt: skip
_SH1106_ARGS = MappingProxyType(
    {0x81: 1, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1, 0xAD: 1}
)


@dataclass(frozen=True, slots=True)
class Controller:
    """One display controller and what the unit needs to know of it."""

    #: ``driver = "..."`` in unit.toml, and luma.oled's device class of that name.
    name: str
    #: What the panel usually is, for people (docs, check-config).
    panel: str
    #: Visible pixels (width, height).
    size: tuple[int, int]
    #: "window": horizontal addressing into a column/page window (0x21 c0 c1, 0x22 p0
    #: p1, then the bytes); "page": one page at a time (0xB0|p, column low, high).
    addressing: Literal["window", "page"]
    #: Columns of RAM, and the first one shown (SH1106: 132, 128 visible from 2).
    ram_width: int
    column_offset: int
    #: Argument counts of its multi-byte commands (how a command stream is decoded).
    command_args: Mapping[int, int]
    #: What a garbled command may change that luma's init leaves at its reset value,
    #: sent after the init sequence when the panel is restored after a bus error.
    reset_extras: bytes
    #: The class of ``luma.oled.const`` the luma device class sends its commands with.
    const: str

    def __deepcopy__(self, memo: dict[int, Any]) -> Controller:
        """An entry of the registry is immutable: copies (of an emulated panel, say)
        share it."""
        return self

    def luma_device(self) -> Any:
        """luma.oled's device class for this controller (imported on use: start-up on
        the Zero and ``check-config`` do not load luma)."""
        # lazy: luma.oled only for a real panel (start-up on the Zero, check-config)
        import luma.oled.device

        return getattr(luma.oled.device, self.name)

    def luma_const(self) -> Any:
        """luma.oled's command constants for this controller (``DISPLAYON``,
        ``SETCONTRAST``...), the class :meth:`luma_device` is built with."""
        # lazy: luma.oled only for a real panel, as luma_device
        import luma.oled.const

        return getattr(luma.oled.const, self.const)


_SSD1306 = Controller(
    name="ssd1306",
    panel='0.96" 128×64',
    size=(128, 64),
    addressing="window",
    ram_width=128,
    column_offset=0,
    command_args=_SSD1306_ARGS,
    reset_extras=b"\x2e",  # scrolling off
    const="ssd1306",
)

#: Every supported controller by its ``driver`` name.
CONTROLLERS: Mapping[str, Controller] = MappingProxyType({
    c.name: c
    for c in (
        _SSD1306,
        Controller(
            name="sh1106",
            panel='1.3" 128×64',
            size=(128, 64),
            addressing="page",
            ram_width=132,
            column_offset=2,
            command_args=_SH1106_ARGS,
            reset_extras=b"\xee",  # read-modify-write mode off
            const="sh1106",
        ),
        # luma: ``class ssd1309(ssd1306)``: the SSD1306's commands, init and addressing,
        # plus a command lock (0xFD, one argument)
        replace(
            _SSD1306,
            name="ssd1309",
            panel='2.42" 128×64',
            command_args=MappingProxyType({**_SSD1306_ARGS, 0xFD: 1}),
        ),
    )
})  # fmt: skip


def controller(name: str) -> Controller:
    """The controller named ``name``; ValueError naming the known ones otherwise."""
    try:
        return CONTROLLERS[name]
    except KeyError:
        raise ValueError(
            f"unsupported OLED driver {name!r} (use one of {', '.join(CONTROLLERS)})"
        ) from None
