"""Test doubles for the real Pi backend: emulated OLED controllers on a fake bus.

* :class:`OledEmulator` decodes the command and data bytes of a controller of
  :mod:`hal.controllers` into the RAM
  the panel would show; :meth:`OledEmulator.glass` renders what is visible.
* :class:`FakeBus` holds emulators per I²C (port, address) and SPI (port, device),
  counts bytes and transactions, and opens fake SMBus/SpiDev objects for them: it is a
  :class:`hal.buses.Buses`, injected into :class:`~hal.pi.PiHal` like the real buses, so
  luma's real code path runs (I²C data as single ``i2c_rdwr`` messages, as on the unit).
* :func:`mock_pi_hal` builds a :class:`~hal.pi.PiHal` on gpiozero's MockFactory plus
  a FakeBus, with helpers to press buttons by seat/name and read each seat's glass.
"""

from __future__ import annotations

import errno
import functools
import os
import tempfile
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin
from PIL import Image

from hal.clock import Clock, VirtualClock
from hal.config import DisplayConfig, UnitConfig, load_config
from hal.controllers import controller
from hal.events import Button, Event, EventQueue
from hal.mux import fake_tree
from hal.pi import PiHal


class OledEmulator:
    """The RAM and display state of one controller of :data:`hal.controllers.CONTROLLERS`
    (how it decodes commands and addresses its RAM comes from its entry there)."""

    def __init__(self, driver: str) -> None:
        self.controller = controller(driver)  # ValueError for an unknown one
        self.driver = driver
        self.window = self.controller.addressing == "window"
        self.ram_width = self.controller.ram_width
        self.column_offset = self.controller.column_offset  # SH1106: 128 visible of 132
        self.width, self.height = self.controller.size
        self.ram = [bytearray(self.ram_width) for _ in range(self.height // 8)]
        self.display_on = False
        self.contrast = 0x7F
        self.inverted = False
        self.entire_on = False
        self.segment_remap = False
        self.com_reversed = False
        self.start_line = 0
        self.mode = 2  # SSD1306 reset default: page addressing
        self.col_start, self.col_end = 0, 127
        self.page_start, self.page_end = 0, 7
        self.col = self.page = 0
        self._pending: list[int] = []
        self.command_bytes = 0
        self.data_bytes = 0
        self.bytes_written = 0  # bus payload incl. control bytes (not address bytes)
        self.transactions = 0

    # -- bus side
    def i2c_write(self, payload: Sequence[int]) -> None:
        """One I²C write transaction after the address byte: control byte(s) + bytes."""
        self.transactions += 1
        self.bytes_written += len(payload)
        i = 0
        while i < len(payload):
            control = payload[i]
            is_data = bool(control & 0x40)
            if control & 0x80:  # Co=1: one byte follows, then another control byte
                chunk = payload[i + 1 : i + 2]
                i += 2
            else:
                chunk = payload[i + 1 :]
                i = len(payload)
            (self.data if is_data else self.command)(chunk)

    def command(self, data: Iterable[int]) -> None:
        args = self.controller.command_args
        for byte in data:
            self.command_bytes += 1
            self._pending.append(byte)
            if len(self._pending) > args.get(self._pending[0], 0):
                cmd, *operands = self._pending
                self._pending = []
                self._execute(cmd, operands)

    def data(self, data: Iterable[int]) -> None:
        chunk = bytes(data)
        if self.window and self.mode == 0:  # horizontal: whole runs at once
            self.data_bytes += len(chunk)
            i = 0
            while i < len(chunk):
                take = max(1, min(self.col_end - self.col + 1, len(chunk) - i))
                self.ram[self.page][self.col : self.col + take] = chunk[i : i + take]
                i += take
                self.col += take - 1
                self._advance()
            return
        for byte in chunk:
            self.data_bytes += 1
            self.ram[self.page][self.col] = byte
            self._advance()

    def _execute(self, cmd: int, a: list[int]) -> None:
        ssd = self.window  # the SSD1306 family's addressing commands
        if cmd in (0xAE, 0xAF):
            self.display_on = cmd == 0xAF
        elif cmd == 0x81:
            self.contrast = a[0]
        elif cmd in (0xA6, 0xA7):
            self.inverted = cmd == 0xA7
        elif cmd in (0xA4, 0xA5):
            self.entire_on = cmd == 0xA5
        elif cmd in (0xA0, 0xA1):
            self.segment_remap = cmd == 0xA1
        elif cmd in (0xC0, 0xC8):
            self.com_reversed = cmd == 0xC8
        elif 0x40 <= cmd <= 0x7F:
            self.start_line = cmd & 0x3F
        elif 0xB0 <= cmd <= 0xB7:
            self.page = cmd & 0x07
        elif cmd <= 0x0F:
            self.col = (self.col & 0xF0) | cmd
        elif cmd <= 0x1F:
            self.col = (self.col & 0x0F) | ((cmd & 0x0F) << 4)
        elif ssd and cmd == 0x20:
            self.mode = a[0] & 0x03
        elif ssd and cmd == 0x21:
            self.col_start, self.col_end = a[0] & 0x7F, a[1] & 0x7F
            self.col = self.col_start
        elif ssd and cmd == 0x22:
            self.page_start, self.page_end = a[0] & 0x07, a[1] & 0x07
            self.page = self.page_start
        # anything else (timing, charge pump, scrolling...) does not change the picture

    def _advance(self) -> None:
        if not self.window:  # page addressing only; the pointer stops at 131
            self.col = min(self.col + 1, self.ram_width - 1)
        elif self.mode == 0:  # horizontal
            self.col += 1
            if self.col > self.col_end:
                self.col = self.col_start
                self.page = self.page_start if self.page >= self.page_end else self.page + 1
        elif self.mode == 1:  # vertical
            self.page += 1
            if self.page > self.page_end:
                self.page = self.page_start
                self.col = self.col_start if self.col >= self.col_end else self.col + 1
        else:  # page addressing
            self.col = (self.col + 1) % self.ram_width

    # -- what you see
    def ram_frame(self) -> bytes:
        """The visible RAM, page-major (same layout as :func:`hal.frame.pack_frame`)."""
        off = self.column_offset
        return b"".join(bytes(page[off : off + self.width]) for page in self.ram)

    def glass(self) -> Image.Image:
        """The picture on the panel, its controller's size (mode "1", white = lit pixel).

        Luma's init (segment remap A1, COM scan C8) shows RAM upright; the other
        settings mirror it, as on a real module.
        """
        image = Image.new("1", (self.width, self.height), 0)
        if not self.display_on:
            return image
        if self.entire_on:
            return Image.new("1", (self.width, self.height), 1)
        pixels = []
        off = self.column_offset
        for y in range(self.height):
            row = y if self.com_reversed else self.height - 1 - y
            row = (row + self.start_line) % self.height
            page, bit = self.ram[row // 8], 1 << (row % 8)
            for x in range(self.width):
                col = off + (x if self.segment_remap else self.width - 1 - x)
                pixels.append(1 if bool(page[col] & bit) != self.inverted else 0)
        image.putdata(pixels)
        return image

    def lit(self) -> int:
        """Number of lit pixels on the glass."""
        return self.glass().histogram()[1]

    def reset_counters(self) -> None:
        self.command_bytes = self.data_bytes = self.bytes_written = self.transactions = 0


#: In the emulated world, mux channel C of any mux is /dev/i2c-(MUX_PORT_BASE + C).
MUX_PORT_BASE = 22
#: The states a mock pin keeps (gpiozero's keep every one: ~100 bytes an edge, so a
#: ``--hal mock`` unit playing for days would grow without end).
PIN_HISTORY = 100


@functools.cache
def mock_pin_class() -> type:
    """gpiozero's ``MockPWMPin`` keeping only its last :data:`PIN_HISTORY` states."""

    class BoundedMockPin(MockPWMPin):  # type: ignore[misc]
        def clear_states(self) -> None:
            super().clear_states()
            self.states: deque[Any] = deque(self.states, maxlen=PIN_HISTORY)

    return BoundedMockPin


def i2c_port(d: DisplayConfig) -> int:
    """The port an I²C display is emulated on (its own, or its mux channel's)."""
    if d.mux is not None and d.channel is not None:
        return MUX_PORT_BASE + d.channel
    assert d.port is not None
    return d.port


def spi_device(d: DisplayConfig) -> tuple[int, int]:
    """The (port, device) an SPI display is emulated on."""
    assert d.port is not None
    return d.port, d.device or 0


def mux_sysfs(config: UnitConfig, root: Path) -> Path:
    """A fake ``/sys/bus/i2c/devices`` for the config's muxes (channel C -> i2c-22+C)."""
    muxes = {s.display.mux for s in config.seats if s.display.mux is not None}
    for mux in muxes:
        fake_tree(root, mux, {c: MUX_PORT_BASE + c for c in range(8)})
    return root


@dataclass
class TransferFault:
    """Every ``every``-th I²C transfer (one transaction: an SMBus write, or an
    ``i2c_rdwr`` call with all its messages) to a panel fails (EREMOTEIO) after the panel
    got the first ``delivered`` share of its bytes: a glitch that cuts a transfer short
    (``delivered=0.5``), or a panel that does not answer (0). With ``commands_only``
    only transfers that carry commands count and fail."""

    every: int
    delivered: float = 0.5
    commands_only: bool = True
    seen: int = 0
    struck: int = 0

    def strikes(self, payloads: Sequence[Sequence[int]]) -> bool:
        """Count one transfer (its messages' payloads); True if this one fails."""
        if self.commands_only and all(p and p[0] & 0x40 for p in payloads):  # data only
            return False
        self.seen += 1
        if self.seen % self.every:
            return False
        self.struck += 1
        return True


@dataclass
class FakeBus:
    """Emulated controllers on I²C ports (mux channels are ports) and SPI devices.

    ``dc_level(pin)`` reads the SPI data/command pin; by default from gpiozero's
    current pin factory (MockFactory in tests).
    """

    i2c: dict[tuple[int, int], OledEmulator] = field(default_factory=dict)
    spi: dict[tuple[int, int], tuple[OledEmulator, int]] = field(default_factory=dict)
    dc_level: Callable[[int], bool] | None = None
    open_ports: list[int] = field(default_factory=list)
    #: Transfers that fail on an I²C (port, address), see :class:`TransferFault`.
    faults: dict[tuple[int, int], TransferFault] = field(default_factory=dict)

    def attach_i2c(self, port: int, address: int, driver: str) -> OledEmulator:
        emulator = OledEmulator(driver)
        self.i2c[(port, address)] = emulator
        return emulator

    def attach_spi(self, port: int, device: int, driver: str, dc: int) -> OledEmulator:
        emulator = OledEmulator(driver)
        self.spi[(port, device)] = (emulator, dc)
        return emulator

    def attach_config(self, config: UnitConfig) -> list[OledEmulator]:
        """One emulator per seat display of a configuration, in seat order (a display on
        a mux channel sits on port ``MUX_PORT_BASE + channel``, see :func:`mux_sysfs`)."""
        out = []
        for seat in config.seats:
            d = seat.display
            if d.bus == "i2c":
                out.append(self.attach_i2c(i2c_port(d), d.address or 0x3C, d.driver))
            else:
                out.append(self.attach_spi(*spi_device(d), d.driver, d.dc or 0))
        return out

    @property
    def emulators(self) -> list[OledEmulator]:
        return [*self.i2c.values(), *(e for e, _ in self.spi.values())]

    @property
    def bytes_written(self) -> int:
        return sum(e.bytes_written for e in self.emulators)

    @property
    def transactions(self) -> int:
        return sum(e.transactions for e in self.emulators)

    def reset_counters(self) -> None:
        for emulator in self.emulators:
            emulator.reset_counters()

    # -- the fake modules
    def transfer(self, port: int, address: int, payload: Sequence[int]) -> None:
        emulator = self.i2c.get((port, address))
        if emulator is None:
            raise OSError(errno.EREMOTEIO, "Remote I/O error")
        emulator.i2c_write(list(payload))

    def transaction(self, port: int, messages: Sequence[tuple[int, Sequence[int]]]) -> None:
        """One I²C transaction (start to stop): its write messages in turn. A
        :class:`TransferFault` on the first message's panel may cut it short."""
        fault = self.faults.get((port, messages[0][0])) if messages else None
        if fault is not None and fault.strikes([payload for _, payload in messages]):
            budget = int(sum(len(payload) for _, payload in messages) * fault.delivered)
            for address, payload in messages:
                if budget > 0:
                    self.transfer(port, address, payload[:budget])
                budget -= len(payload)
            raise OSError(errno.EREMOTEIO, "Remote I/O error")
        for address, payload in messages:
            self.transfer(port, address, payload)

    def i2c_bus(self, port: int) -> FakeSMBus:
        """An open :class:`FakeSMBus` on ``port`` (FileNotFoundError where no emulator is)."""
        if port not in {p for p, _ in self.i2c}:
            raise FileNotFoundError(errno.ENOENT, "No such file or directory", f"/dev/i2c-{port}")
        self.open_ports.append(port)
        return FakeSMBus(self, port)

    def spi_device(self) -> FakeSpiDev:
        """An unopened :class:`FakeSpiDev`."""
        return FakeSpiDev(self)

    def _dc(self, pin: int) -> bool:
        if self.dc_level is not None:
            return self.dc_level(pin)
        return bool(Device.pin_factory.pin(pin).state)


class FakeSMBus:
    """``smbus2.SMBus`` on a :class:`FakeBus` port: SMBus block writes of at most 32
    bytes and ``i2c_rdwr`` write messages (smbus2's ``i2c_msg``) of any length."""

    def __init__(self, bus: FakeBus, port: int) -> None:
        self.bus = bus
        self.port = port
        self.closed = False

    def write_i2c_block_data(
        self, i2c_addr: int, register: int, data: Sequence[int], force: bool | None = None
    ) -> None:
        if len(data) > 32:
            raise OSError(errno.EINVAL, "SMBus block writes carry at most 32 bytes")
        self.bus.transaction(self.port, [(i2c_addr, [register, *data])])

    def i2c_rdwr(self, *i2c_msgs: Any) -> None:
        self.bus.transaction(self.port, [(message.addr, bytes(message)) for message in i2c_msgs])

    def close(self) -> None:
        self.closed = True


class FakeSpiDev:
    """``spidev.SpiDev`` writing to a :class:`FakeBus` emulator; the DC pin picks
    command or data."""

    def __init__(self, bus: FakeBus) -> None:
        self.bus = bus
        self.max_speed_hz = 0
        self.mode = 0
        self.target: tuple[OledEmulator, int] | None = None

    def open(self, bus: int, device: int) -> None:
        if (bus, device) not in self.bus.spi:
            raise FileNotFoundError(
                errno.ENOENT, "No such file or directory", f"/dev/spidev{bus}.{device}"
            )
        self.target = self.bus.spi[(bus, device)]

    def writebytes(self, values: list[int]) -> None:
        assert self.target is not None, "SpiDev not opened"
        emulator, dc = self.target
        emulator.transactions += 1
        emulator.bytes_written += len(values)
        (emulator.data if self.bus._dc(dc) else emulator.command)(values)

    def close(self) -> None:
        self.target = None


# --------------------------------------------------------------------------- mocked unit


@dataclass
class MockPi:
    """A PiHal on MockFactory + FakeBus, with handles to drive and observe it."""

    hal: PiHal
    bus: FakeBus
    factory: Any  # gpiozero MockFactory
    clock: VirtualClock
    config: UnitConfig
    displays: list[OledEmulator]

    def pin(self, gpio: int) -> Any:
        return self.factory.pin(gpio)

    def button_pin(self, seat: int, button: Button | str) -> Any:
        return self.pin(self.config.seats[seat].buttons[Button(button)])

    def press(self, seat: int, button: Button | str) -> None:
        """Close the switch (buttons pull up, so pressed is low)."""
        self.button_pin(seat, button).drive_low()

    def release(self, seat: int, button: Button | str) -> None:
        self.button_pin(seat, button).drive_high()

    def shaker_edge(self) -> None:
        """Toggle the shaker input once (one edge)."""
        pin = self.pin(self.config.shaker.pin)
        pin.drive_high() if pin.state == 0 else pin.drive_low()

    def glass(self, seat: int) -> Image.Image:
        return self.displays[seat].glass()

    def advance(self, dt: float) -> list[Event]:
        """Move the clock on by ``dt``, polling at every deadline on the way, as the
        unit loop would; returns the events queued meanwhile (and before)."""
        end = self.clock.now() + dt
        while (deadline := self.hal.next_deadline()) is not None and deadline <= end:
            self.clock.set(max(deadline, self.clock.now()))
            self.hal.poll()
        self.clock.set(end)
        self.hal.poll()
        return self.hal.events.drain()

    def events(self) -> list[Event]:
        return self.hal.events.drain()


def pi_hal_without_displays(config: UnitConfig, **hal_kwargs: Any) -> Any:
    """A :class:`~hal.pi.PiHal` on gpiozero's current pin factory and an empty
    :class:`FakeBus` (every display missing): ``--hal hal.testing:pi_hal_without_displays``
    starts the unit's real start-up path without hardware."""
    return PiHal(config, buses=FakeBus(), **hal_kwargs)


@contextmanager
def mock_pi_hal(
    config: UnitConfig | None = None,
    clock: VirtualClock | None = None,
    *,
    unplugged: Iterable[int] = (),
    **hal_kwargs: Any,
) -> Iterator[MockPi]:
    """The real Pi backend on gpiozero's MockFactory and a :class:`FakeBus`.

    Uses the reference configuration by default. The displays of the ``unplugged``
    seats are left off the bus (their emulators stay dark); ``hal_kwargs`` go to
    :class:`~hal.pi.PiHal`. The factory is reset and the previous pin factory
    restored on exit, so no pins stay reserved.
    """
    config = config or load_config(None)
    clock = clock or VirtualClock()
    factory = MockFactory(pin_class=mock_pin_class())
    saved_factory = Device.pin_factory
    Device.pin_factory = factory
    bus = FakeBus()
    displays = bus.attach_config(config)
    for seat in unplugged:
        d = config.seats[seat].display
        if d.bus == "i2c":
            del bus.i2c[(i2c_port(d), d.address or 0x3C)]
        else:
            del bus.spi[spi_device(d)]
    sysfs = tempfile.TemporaryDirectory(prefix="sysfs-i2c-")
    hal_kwargs.setdefault("i2c_sysfs", mux_sysfs(config, Path(sysfs.name)))
    try:
        hal = EmulatedPiHal(
            config, displays, clock=clock, pin_factory=factory, buses=bus, **hal_kwargs
        )
        try:
            yield MockPi(hal, bus, factory, clock, config, displays)
        finally:
            hal.close()
    finally:
        factory.reset()
        Device.pin_factory = saved_factory
        sysfs.cleanup()


def mock_backend(
    config: UnitConfig,
    *,
    clock: Clock | None = None,
    events: EventQueue | None = None,
    **kwargs: Any,
) -> PiHal:
    """``--hal hal.testing:mock_backend`` (registered as ``mock``): the Pi backend on
    gpiozero's MockFactory with emulated panels, as a standalone backend.

    ``switch16 run --hal mock`` runs the real unit on a PC: buttons are mock pins
    (the link's test mode drives them), every panel an :class:`OledEmulator` whose
    glass the link reports (``hal.glass(seat)``). ``$SWITCH16_CLOCK=virtual`` puts it
    on a :class:`~hal.clock.VirtualClock` (moved on by the link's ``advance``).
    """
    if clock is None and os.environ.get("SWITCH16_CLOCK") == "virtual":
        clock = VirtualClock()
    factory = MockFactory(pin_class=mock_pin_class())
    Device.pin_factory = factory
    bus = FakeBus()
    displays = bus.attach_config(config)
    sysfs = Path(tempfile.mkdtemp(prefix="sysfs-i2c-"))
    kwargs.setdefault("i2c_sysfs", mux_sysfs(config, sysfs))
    return EmulatedPiHal(
        config, displays, clock=clock, events=events, pin_factory=factory, buses=bus, **kwargs
    )


class EmulatedPiHal(PiHal):
    """The Pi backend whose panels are emulators (:class:`OledEmulator`): its glass can
    be read, as the serial link reports it."""

    def __init__(self, config: UnitConfig, panels: Sequence[OledEmulator], **kwargs: Any):
        self.panels = panels
        super().__init__(config, **kwargs)

    def glass(self, seat: int) -> Image.Image:
        return self.panels[seat].glass()
