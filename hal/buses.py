"""The I²C and SPI buses the Pi backend's displays talk over, injected into luma.

:class:`~hal.pi.PiHal` takes a :class:`Buses` (on the unit :class:`SystemBuses`: smbus2
and spidev; in tests :class:`hal.testing.FakeBus`) and hands luma's serial interfaces
the bus objects it opens, as luma intends (``i2c(bus=...)``, ``spi(spi=...)``), so
nothing is patched to test the real code path.
"""

from __future__ import annotations

import ctypes
import errno
import struct
from collections.abc import Sequence
from typing import Any, Protocol

import luma.core.error
from luma.core.interface.serial import i2c

#: luma's control bytes: the rest of an I²C write is data.
I2C_DATA_MODE = 0x40
#: luma's control byte for commands.
I2C_COMMAND_MODE = 0x00
#: The longest I²C write luma sends as one message on its own smbus2 bus.
I2C_MAX_WRITE = 4096
#: Messages the kernel takes in one ``I2C_RDWR`` ioctl (``I2C_RDWR_IOCTL_MAX_MSGS``).
I2C_RDWR_MAX_MESSAGES = 42


class SMBusLike(Protocol):
    """What the displays need of an ``smbus2.SMBus``."""

    def write_i2c_block_data(
        self, i2c_addr: int, register: int, data: Sequence[int], force: bool | None = None
    ) -> None: ...

    def i2c_rdwr(self, *i2c_msgs: Any) -> None: ...

    def close(self) -> None: ...


class SpiDevLike(Protocol):
    """What luma's ``spi`` needs of a ``spidev.SpiDev``."""

    max_speed_hz: int
    mode: int

    def open(self, bus: int, device: int) -> None: ...

    def writebytes(self, values: list[int]) -> None: ...

    def close(self) -> None: ...


class Buses(Protocol):
    """Opens the buses displays sit on."""

    def i2c_bus(self, port: int) -> SMBusLike:
        """An open bus on ``/dev/i2c-<port>`` (OSError if there is none)."""
        ...

    def spi_device(self) -> SpiDevLike:
        """An unopened SPI device (luma opens it on its port and device)."""
        ...


class SystemBuses:
    """The unit's buses: ``smbus2.SMBus`` and ``spidev.SpiDev`` (the ``pi`` extra)."""

    def i2c_bus(self, port: int) -> SMBusLike:
        # lazy: smbus2 only on a Pi's bus
        import smbus2

        return smbus2.SMBus(port)

    def spi_device(self) -> SpiDevLike:
        # lazy: spidev, the pi extra: only on a Pi
        import spidev

        device: SpiDevLike = spidev.SpiDev()
        return device


class I2cInterface(i2c):  # type: ignore[misc]  # luma has no type hints
    """luma's ``i2c`` on an injected bus, keeping the data path luma uses on its own bus.

    Given ``bus=``, luma sends data as 32-byte ``write_i2c_block_data`` chunks (all a
    plain SMBus can do); on the smbus2 bus it opens itself it sends each write as one
    ``i2c_rdwr`` message of up to 4096 bytes: a whole frame in one transaction, far
    fewer transactions on the Pi. :meth:`data` keeps that single-message path, so the
    bus must have ``i2c_rdwr`` (smbus2's and :class:`hal.testing.FakeBus`'s do).
    Commands go through luma as before. The bus was opened for this display, so
    :meth:`cleanup` closes it.
    """

    def __init__(self, bus: SMBusLike, address: int) -> None:
        super().__init__(bus=bus, address=address)
        self.bus = bus
        self.address = address
        self._messages = WriteMessages()

    @classmethod
    def open(cls, buses: Buses, port: int, address: int) -> I2cInterface:
        """Open ``/dev/i2c-<port>`` for the display at ``address``; a missing or forbidden
        bus raises luma's errors, as luma's own ``i2c(port=...)`` does."""
        try:
            bus = buses.i2c_bus(port)
        except OSError as exc:
            if exc.errno == errno.ENOENT:
                raise luma.core.error.DeviceNotFoundError(
                    f"I2C device not found: {exc.filename}"
                ) from exc
            if exc.errno in (errno.EPERM, errno.EACCES):
                raise luma.core.error.DevicePermissionError(
                    f"I2C device permission denied: {exc.filename}"
                ) from exc
            raise
        return cls(bus, address)

    def data(self, data: Sequence[int]) -> None:
        """Send data bytes, each run of up to 4096 as one ``i2c_rdwr`` write message."""
        self.write_messages(self._messages.build(self.address, [(I2C_DATA_MODE, bytes(data))]))

    def write_windows(self, windows: Sequence[tuple[bytes, bytes]]) -> None:
        """Send (commands, data) pairs, each as a command and a data message, in as few
        ``i2c_rdwr`` calls as the kernel allows: one system call and no luma layers per
        frame, where :meth:`command` + :meth:`data` take two calls per window. The bus
        sees the same messages (with a repeated start between them instead of a stop
        and a start)."""
        self.write_messages(self.messages(windows))

    def messages(self, windows: Sequence[tuple[bytes, bytes]]) -> list[Any]:
        """The ``i2c_rdwr`` messages of (commands, data) pairs, built ahead of sending;
        they live in this interface's buffer until the next call builds others."""
        parts = []
        for commands, data in windows:
            parts.append((I2C_COMMAND_MODE, commands))
            if data:
                parts.append((I2C_DATA_MODE, data))
        return self._messages.build(self.address, parts)

    def write_messages(self, messages: Sequence[Any]) -> None:
        """Send messages from :meth:`messages` in as few ``i2c_rdwr`` calls as the
        kernel allows."""
        try:
            for start in range(0, len(messages), I2C_RDWR_MAX_MESSAGES):
                batch = messages[start : start + I2C_RDWR_MAX_MESSAGES]
                self._messages.keep_rdwr_array(len(batch))
                self.bus.i2c_rdwr(*batch)
        except OSError as exc:  # as luma's command() reports a panel that does not answer
            if exc.errno in (errno.EREMOTEIO, errno.EIO):
                raise luma.core.error.DeviceNotFoundError(
                    f"I2C device not found on address: 0x{self.address:02X}"
                ) from exc
            raise

    def cleanup(self) -> None:
        self.bus.close()


class WriteMessages:
    """smbus2 ``i2c_msg`` write messages built in place, in a buffer and an array of
    messages kept for the interface's life: no ctypes array, and no ctypes *type*, is
    made per message.

    ``i2c_msg.write`` copies every message into a new ctypes array of its length, and
    ctypes keeps array types in a weak cache: once the collector has freed the type of
    a length, the next message of that length builds a new type (~25 µs here, ~0.6 ms
    on a Pi Zero 2 W). Frames send windows of ever new lengths and the loop collects
    while idle, so a press built several such types before its first byte reached the
    glass (``benchmarks/press_latency.py``, issue 25). Here each message's bytes are
    copied into the buffer and its ``i2c_msg`` (``struct i2c_msg``: addr, flags, len,
    buf) is packed in the array pointing there; ``i2c_rdwr``'s array of n messages has
    its type kept alive too (:meth:`keep_rdwr_array`).
    """

    #: ``struct i2c_msg`` as smbus2's ``i2c_msg`` lays it out (native sizes and padding).
    LAYOUT = struct.Struct("@HHHP")

    def __init__(self) -> None:
        # lazy: smbus2 only on a Pi's bus
        from smbus2 import i2c_msg

        if ctypes.sizeof(i2c_msg) != self.LAYOUT.size:
            raise RuntimeError(f"smbus2's i2c_msg is not laid out as {self.LAYOUT.format}")
        self._message_type = i2c_msg
        self._size = self._count = 0
        self._buffer: Any = None
        self._messages: Any = None
        self._view = memoryview(b"")
        self._base = 0
        self._rdwr_arrays: dict[int, Any] = {}

    def build(self, address: int, parts: Sequence[tuple[int, bytes]]) -> list[Any]:
        """Messages for ``address``: each (control byte, payload) as one message, a
        payload over :data:`I2C_MAX_WRITE` bytes split into several (each with the
        control byte). They live in this object: the next call overwrites them."""
        chunks = [
            (control, payload[at : at + I2C_MAX_WRITE])
            for control, payload in parts
            for at in range(0, len(payload) or 1, I2C_MAX_WRITE)
        ]
        self._reserve(sum(1 + len(chunk) for _, chunk in chunks), len(chunks))
        view, base, messages, pack = self._view, self._base, self._messages, self.LAYOUT.pack_into
        at = 0
        for index, (control, chunk) in enumerate(chunks):
            end = at + 1 + len(chunk)
            view[at] = control
            view[at + 1 : end] = chunk
            pack(messages, index * self.LAYOUT.size, address, 0, end - at, base + at)
            at = end
        return messages[: len(chunks)]  # type: ignore[no-any-return]

    def keep_rdwr_array(self, count: int) -> None:
        """Keep alive the ctypes type of smbus2's ``i2c_rdwr`` array of ``count``
        messages (``(i2c_msg * count)``, made on every call otherwise)."""
        if count not in self._rdwr_arrays:
            self._rdwr_arrays[count] = self._message_type * count

    def _reserve(self, size: int, count: int) -> None:
        if size > self._size:
            self._size = max(size, 2 * self._size, 2048)
            self._buffer = ctypes.create_string_buffer(self._size)
            self._view = memoryview(self._buffer).cast("B")
            self._base = ctypes.addressof(self._buffer)
        if count > self._count:
            self._count = max(count, 2 * self._count, 2 * I2C_RDWR_MAX_MESSAGES)
            self._messages = (self._message_type * self._count)()
