"""The I²C messages the displays send: built in place (issue 25), exactly what smbus2's
``i2c_rdwr`` hands the kernel."""

from __future__ import annotations

import ctypes
import gc
from typing import Any

import pytest
import smbus2
from smbus2 import smbus2 as smbus2_module

from hal.buses import I2C_DATA_MODE, I2C_MAX_WRITE, I2C_RDWR_MAX_MESSAGES, I2cInterface
from hal.testing import FakeBus

ADDRESS = 0x3C


class KernelSide:
    """What the kernel reads from an ``I2C_RDWR`` ioctl: each message's address, flags
    and bytes (read through the pointers, as the kernel copies them in)."""

    def __init__(self) -> None:
        self.calls: list[list[tuple[int, int, bytes]]] = []

    def ioctl(self, fd: Any, request: int, data: Any) -> int:
        assert request == smbus2_module.I2C_RDWR
        messages = ctypes.cast(data.msgs, ctypes.POINTER(smbus2.i2c_msg))
        self.calls.append(
            [
                (m.addr, m.flags, ctypes.string_at(m.buf, m.len))
                for m in (messages[i] for i in range(data.nmsgs))
            ]
        )
        return 0


@pytest.fixture
def kernel(monkeypatch: pytest.MonkeyPatch) -> KernelSide:
    side = KernelSide()
    monkeypatch.setattr(smbus2_module, "ioctl", side.ioctl)
    return side


def real_bus_interface() -> I2cInterface:
    """An interface on smbus2's own ``SMBus`` (not opened: its ioctl is the kernel's side)."""
    bus = smbus2.SMBus()
    bus.fd = -1
    return I2cInterface(bus, ADDRESS)


def array_types() -> set[int]:
    """The ctypes array types alive now (ids; none collected meanwhile)."""
    return {id(o) for o in gc.get_objects() if isinstance(o, type) and issubclass(o, ctypes.Array)}


def test_windows_reach_the_kernel_as_command_and_data_messages(kernel: KernelSide) -> None:
    serial = real_bus_interface()
    windows = [(bytes((0x21, 0, 9, 0x22, 1, 1)), bytes(range(10))), (b"\xb0\x00\x10", b"\xff" * 3)]
    serial.write_windows(windows)
    assert kernel.calls == [
        [
            (ADDRESS, 0, b"\x00\x21\x00\x09\x22\x01\x01"),
            (ADDRESS, 0, b"\x40" + bytes(range(10))),
            (ADDRESS, 0, b"\x00\xb0\x00\x10"),
            (ADDRESS, 0, b"\x40\xff\xff\xff"),
        ]
    ]
    del kernel.calls[:]
    serial.data([7] * (I2C_MAX_WRITE + 5))  # luma's path: runs of at most 4096 bytes
    assert [m for call in kernel.calls for m in call] == [
        (ADDRESS, 0, bytes((I2C_DATA_MODE,)) + bytes([7] * I2C_MAX_WRITE)),
        (ADDRESS, 0, bytes((I2C_DATA_MODE, 7, 7, 7, 7, 7))),
    ]
    del kernel.calls[:]
    many = [(b"\xb0\x00\x10", bytes((i,))) for i in range(30)]  # 60 messages: two calls
    serial.write_windows(many)
    assert [len(call) for call in kernel.calls] == [I2C_RDWR_MAX_MESSAGES, 60 - 42]
    sent = [payload for call in kernel.calls for _, _, payload in call]
    assert sent == [p for i in range(30) for p in (b"\x00\xb0\x00\x10", bytes((0x40, i)))]


def test_messages_of_new_lengths_make_no_ctypes_types(kernel: KernelSide) -> None:
    """smbus2's ``i2c_msg.write`` made a ctypes array type per message length, and ctypes
    keeps those types weakly: after the loop's idle collection every frame rebuilt them
    (~25 µs a message here, ~0.6 ms on a Pi Zero 2 W, on the press path)."""
    serial = real_bus_interface()
    serial.write_windows([(b"\x00" * 6, b"\x01" * 1000)])  # the buffer is sized once
    for count in range(1, I2C_RDWR_MAX_MESSAGES + 1):
        serial.write_windows([(b"\xe3", b"")] * count)  # every i2c_rdwr array kept alive
    gc.collect()  # as the loop does while idle
    gc.disable()
    try:
        before = array_types()
        for length in range(300, 340):  # lengths no frame has sent yet
            serial.write_windows([(bytes((0x21, 0, 127, 0x22, 0, 7)), bytes(length))] * 3)
        made = array_types() - before
    finally:
        gc.enable()
    assert not made
    assert [len(payload) for _, _, payload in kernel.calls[-1]] == [7, 340] * 3


def test_the_fake_bus_decodes_the_same_messages() -> None:
    """The mocked Pi's bus reads the messages as the kernel does (``bytes(message)``)."""
    bus = FakeBus()
    emulator = bus.attach_i2c(1, ADDRESS, "ssd1306")
    serial = I2cInterface.open(bus, 1, ADDRESS)
    serial.write_windows([(bytes((0x21, 4, 6, 0x22, 2, 2)), b"\x81\x42\x24")])
    assert emulator.ram[2][4:7] == b"\x81\x42\x24"
