"""Benchmark the OLED frame path: packing speed and bytes on the bus (not a test).

    python3 benchmarks/hal_oled.py

Packing: median time of stock luma's ``device.display(image)`` on a no-op bus (its
per-pixel packing loop plus 32-byte chunking) against :func:`hal.frame.pack_frame`.
Bytes: what a typical change puts on the I²C bus through :class:`hal.oled.OledDisplay`
(control + data bytes + one address byte per transaction) against a full frame.
CPU per window: what one more window of a frame change costs the unit (planning it and
building its two messages; the bus drops them), the slope over changes of 1-56
windows: ``hal.diffplan.WINDOW_CPU_BYTES`` is it, scaled to a Pi Zero 2 W.
"""

from __future__ import annotations

import statistics
import time
import warnings
from collections.abc import Callable

from luma.core.interface.serial import i2c
from PIL import Image, ImageDraw, ImageFont
from zero_factor import PLAN_FACTOR  # beside this script

from hal.buses import I2cInterface
from hal.controllers import CONTROLLERS
from hal.frame import pack_frame
from hal.oled import OledDisplay
from hal.testing import FakeBus

warnings.filterwarnings("ignore", category=DeprecationWarning)
LUMA = {name: c.luma_device() for name, c in CONTROLLERS.items()}


class NoopBus:
    """An smbus stand-in that drops every write (so only luma's CPU work is timed)."""

    def write_i2c_block_data(self, address: int, register: int, data: list[int]) -> None:
        pass


def median_seconds(fn: Callable[[], object], repeat: int = 300) -> float:
    for _ in range(10):
        fn()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def screen(number: str, prompt: str) -> Image.Image:
    """A typical seat screen: header, big-ish number, status, prompt line."""
    image = Image.new("1", (128, 64))
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=10)
    big = ImageFont.load_default(size=22)
    draw.text((0, 0), "Seat 2  red deck", font=font, fill=1)
    draw.text((0, 14), "top", font=font, fill=1)
    draw.text((34, 10), number, font=big, fill=1)
    draw.text((84, 14), "chip", font=font, fill=1)
    draw.text((0, 53), prompt, font=font, fill=1)
    return image


def opened(bus: FakeBus, driver: str) -> OledDisplay:
    """A display of ``driver`` on ``bus`` (port 1, address 0x3C)."""
    serial = I2cInterface.open(bus, 1, 0x3C)
    return OledDisplay(LUMA[driver](serial), driver, serial=serial)


def bus_bytes(driver: str, before: Image.Image, after: Image.Image) -> tuple[int, int]:
    """(bytes for the first full frame, bytes for the change) through OledDisplay."""
    bus = FakeBus()
    emulator = bus.attach_i2c(1, 0x3C, driver)
    display = opened(bus, driver)
    bus.reset_counters()
    display.show(before)
    full = bus.bytes_written + bus.transactions
    bus.reset_counters()
    display.show(after)
    change = bus.bytes_written + bus.transactions
    assert emulator.glass().tobytes() == after.tobytes()
    return full, change


def cpu_per_window(driver: str) -> float:
    """Seconds of CPU per window of a frame change (bus writes dropped): the slope
    between a change of one run a page and one of 7 runs a page."""
    points = []
    for step in (128, 20):
        stripes = Image.new("1", (128, 64))
        draw = ImageDraw.Draw(stripes)
        for x in range(0, 128, step):
            draw.line((x, 0, x, 63), fill=1)
        bus = FakeBus()
        bus.attach_i2c(1, 0x3C, driver)
        display = opened(bus, driver)
        display.serial.bus.i2c_rdwr = lambda *messages: None
        frame = pack_frame(stripes)

        def change(display: OledDisplay = display, frame: bytes = frame) -> None:
            display._sent = bytes(1024)
            display.show_packed(frame)

        points.append((len(display.plan(bytes(1024), frame)), median_seconds(change, 2000)))
    (n0, t0), (n1, t1) = points
    return (t1 - t0) / (n1 - n0)


def main() -> None:
    image = screen("12", "Roll the dice!")
    print("Frame packing (median per frame)")
    for driver, cls in LUMA.items():
        device = cls(i2c(bus=NoopBus(), address=0x3C))
        stock = median_seconds(lambda d=device: d.display(image))
        ours = median_seconds(lambda: pack_frame(image, 0))
        print(
            f"  {driver:8} stock luma display(): {stock * 1e6:8.1f} µs   "
            f"pack_frame(): {ours * 1e6:6.1f} µs   speed-up {stock / ours:6.1f}x"
        )
    rotated = median_seconds(lambda: pack_frame(image, 2))
    print(f"  pack_frame() with 180° rotation: {rotated * 1e6:.1f} µs")

    print("\nBytes on the I²C bus (address + control + command + data bytes)")
    changes = {
        "one number (12 -> 13)": (screen("12", "Roll the dice!"), screen("13", "Roll the dice!")),
        "one prompt line": (screen("12", "Roll the dice!"), screen("12", "Pass or risk?")),
        "number + prompt": (screen("12", "Roll the dice!"), screen("13", "Pass or risk?")),
        "unchanged frame": (screen("12", "Roll the dice!"), screen("12", "Roll the dice!")),
    }
    for driver in LUMA:
        for name, (before, after) in changes.items():
            full, change = bus_bytes(driver, before, after)
            ratio = f"{full / change:6.1f}x fewer" if change else "   nothing sent"
            print(f"  {driver:8} {name:22} full frame {full:5} B   change {change:4} B   {ratio}")

    print("\nCPU per window of a frame change (planning + messages; the bus drops them)")
    for driver in LUMA:
        per = cpu_per_window(driver)
        zero = per * PLAN_FACTOR
        print(f"  {driver:8} {per * 1e6:.1f} µs here, ~{zero * 1e6:.0f} µs on a Pi Zero 2 W "
              f"(x {PLAN_FACTOR:g}) = {zero / 22.5e-6:.1f} bytes at 400 kHz")  # fmt: skip


if __name__ == "__main__":
    main()
