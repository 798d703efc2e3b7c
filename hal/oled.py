"""Fast frame path for the OLED controllers of :mod:`hal.controllers`, on top of luma.oled.

luma builds the device (init sequence, contrast, power) on a serial interface the
driver keeps; frames bypass ``device.display()``: :func:`hal.frame.pack_frame` packs a
mode "1" image with Pillow operations (transpose + ``tobytes`` + a bit-reverse table),
the previous frame is kept, :mod:`hal.diffplan` plans the changed page/column windows,
and only they go to that serial interface with the controller's own addressing
commands. luma is used through its public API; what it has none for is in
:mod:`hal.luma_private`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

import luma.core.error
from PIL import Image

from hal.buses import I2cInterface
from hal.config import CONTRAST, DIM_CONTRAST, PANEL_SIZE
from hal.controllers import controller
from hal.diffplan import Window, plan_frame
from hal.frame import PAGE_HEIGHT, pack_frame
from hal.interfaces import Display
from hal.luma_private import page_address_offset

log = logging.getLogger(__name__)

#: What a panel that does not answer on its bus raises (luma wraps most OSErrors).
BUS_ERRORS = (OSError, luma.core.error.Error)

#: Frames :meth:`OledDisplay.prepare` keeps planned at most (the loop draws ahead the
#: result of each button of each seat: 12 with four seats).
PLANNED_MAX = 16

#: The no-operation command of both controllers.
NOP = 0xE3
#: Sent first when a panel is restored after a bus error: a transfer cut short can leave
#: the controller waiting for a command's argument bytes (and it keeps waiting across
#: transfers); NOPs complete the longest such command (SSD1306's scroll set-up: 6
#: bytes), and as commands do nothing.
FLUSH = bytes((NOP,) * 6)


class InitRecorder:
    """A luma serial interface for a device's set-up: passes everything on to ``serial``
    (when given) and keeps the command bytes sent before the first RAM write, the
    controller's init sequence (see :func:`open_device`)."""

    def __init__(self, serial: Any = None) -> None:
        self.serial = serial
        self.init = bytearray()
        self._data = False

    def command(self, *cmd: int) -> None:
        if not self._data:
            self.init.extend(cmd)
        if self.serial is not None:
            self.serial.command(*cmd)

    def data(self, data: Sequence[int]) -> None:
        self._data = True
        if self.serial is not None:
            self.serial.data(data)

    def cleanup(self) -> None:
        if self.serial is not None:
            self.serial.cleanup()


def open_device(make: Callable[[Any], Any], serial: Any) -> tuple[Any, bytes]:
    """``make(recorder)`` (a luma device class with its arguments, built on an
    :class:`InitRecorder` passing everything on to ``serial``) and the init sequence its
    set-up sent, for :class:`OledDisplay`'s ``init`` (its ``serial`` is ``serial``)."""
    recorder = InitRecorder(serial)
    device = make(recorder)
    return device, bytes(recorder.init)


def luma_init(device: Any) -> bytes:
    """The init sequence luma sends to set up a device like ``device`` (a twin built on
    an :class:`InitRecorder` that sends nothing)."""
    extra = {}
    offset = page_address_offset(device)
    if offset is not None:
        extra["page_address_offset"] = offset
    # the size it was built with: luma's width and height are turned by its rotation
    size = (device.width, device.height)
    width, height = size if device.rotate % 2 == 0 else size[::-1]
    recorder = InitRecorder()
    twin = type(device)(recorder, width=width, height=height, **extra)
    twin.persist = True
    return bytes(recorder.init)


class OledDisplay(Display):
    """A seat display: luma device for control, fast diffed frames for content.

    ``serial`` is the luma serial interface the ``device`` was built on (directly, or
    through :func:`open_device`'s recorder): frames and restores are written to it.
    ``panel_size`` is the panel's (width, height) as configured (``config.displays.size``),
    the size the luma ``device`` was built with; frames are that size turned by the
    device's rotation.
    """

    def __init__(
        self,
        device: Any,
        driver: str,
        *,
        serial: Any,
        panel_size: tuple[int, int] = PANEL_SIZE,
        contrast: int = CONTRAST,
        dim_contrast: int = DIM_CONTRAST,
        column_offset: int | None = None,
        cleared: bool = True,
        init: bytes | None = None,
    ) -> None:
        """``cleared``: the device's set-up left the panel's RAM blank (luma's devices
        clear it with a full frame), so the first frame sends only what it lights; with
        False it goes in full. ``init``: the commands the device's set-up sent
        (:func:`open_device`; default: :func:`luma_init`), sent again after a bus error."""
        self.controller = controller(driver)  # ValueError for an unknown one
        self.window = self.controller.addressing == "window"
        self.device = device
        self.serial = serial
        #: I²C (:class:`hal.buses.I2cInterface`): windows go as batched messages
        self._i2c = serial if isinstance(serial, I2cInterface) else None
        #: luma.oled's constants of the controller (display on/off, contrast)
        self._const = self.controller.luma_const()
        self.driver = driver
        self.rotate: int = device.rotate
        width, height = panel_size
        self.size = (width, height) if self.rotate % 2 == 0 else (height, width)
        self.width = width
        self.pages = height // PAGE_HEIGHT
        if column_offset is None:
            column_offset = self.controller.column_offset
            if not self.window:  # luma's sh1106 may be built with another offset
                offset = page_address_offset(device)
                column_offset = column_offset if offset is None else offset
        self.column_offset = column_offset
        self._contrast = contrast
        self._dim_contrast = dim_contrast
        self._dimmed = False
        self._asleep = False
        # What the controller RAM holds; None = unknown.
        self._sent: bytes | None = bytes(width * self.pages) if cleared else None
        self._last: bytes | None = None  # last frame asked for (for wake)
        self.frames_sent = 0
        self.frames_skipped = 0
        self.last_error: Exception | None = None
        self._init = luma_init(device) if init is None else init
        #: The controller holds every setting wanted (False after a bus error, until
        #: :meth:`restore_commands` went through).
        self._restored = True
        #: Frames planned ahead (:meth:`prepare`) from the RAM content ``_planned_from``:
        #: frame -> (windows, their writes).
        self._planned: dict[bytes, tuple[list[Window], list[tuple[bytes, bytes]]]] = {}
        self._planned_from: bytes | None = None
        self.device.contrast(contrast)  # at start-up a bus error propagates (see PiHal)

    # -- Display API
    def show(self, image: Image.Image) -> None:
        if image.size != self.size:
            raise ValueError(
                f"frame is {image.size[0]}x{image.size[1]}, display is "
                f"{self.size[0]}x{self.size[1]}"
            )
        self.show_packed(pack_frame(image, self.rotate))

    def show_pages(
        self, pages: bytes, image: Callable[[], Image.Image], ready: Callable[[], bool]
    ) -> bool:
        """The bytes as they are for an unrotated panel (no image to draw and pack); the
        windows are planned and the first built before ``ready()`` is asked."""
        if self.rotate == 0 and len(pages) == self.width * self.pages:
            return self.show_packed(pages, ready)
        return super().show_pages(pages, image, ready)

    def prepare(self, pages: bytes) -> None:
        """Plan the windows (and build their bytes) that showing ``pages`` would send
        from what the panel holds now; :meth:`show_pages` takes them from here while the
        panel holds the same (planning is ~30 µs here on a press, ~0.8 ms on a Zero)."""
        sent = self._sent
        if (
            self.rotate != 0
            or sent is None
            or pages == sent
            or len(pages) != self.width * self.pages
        ):
            return
        if self._planned_from is not sent:
            self._planned, self._planned_from = {}, sent
        if pages not in self._planned and len(self._planned) < PLANNED_MAX:
            windows = self.plan(sent, pages)
            self._planned[pages] = (windows, [self._window_write(pages, w) for w in windows])

    def clear(self) -> None:
        self.show_packed(bytes(self.width * self.pages))

    def set_contrast(self, level: int) -> None:
        if not 0 <= level <= 255:
            raise ValueError(f"contrast {level} is outside 0–255")
        self._contrast = level
        if not self._dimmed:
            self._control("contrast", self.device.contrast, level)

    @property
    def dimmed(self) -> bool:
        return self._dimmed

    def dim(self, dimmed: bool) -> None:
        if dimmed != self._dimmed:
            self._dimmed = dimmed
            level = self._dim_contrast if dimmed else self._contrast
            self._control("contrast", self.device.contrast, level)

    def sleep(self) -> None:
        self._asleep = True
        self._control("sleep", self.device.hide)

    def wake(self) -> None:
        self._asleep = False
        self._sent = None
        if self._control("wake", self.device.show) and self._last is not None:
            self.show_packed(self._last)

    def retry(self) -> bool:
        """After a failed write: restore every setting of the controller
        (:meth:`restore_commands`), then send the last frame in full; True when the panel
        answers again (the loop calls this with backoff while :attr:`last_error`)."""
        if not self._restored and not self._restore("retry"):
            return False
        self.show_packed(self._last if self._last is not None else bytes(self.width * self.pages))
        return self.last_error is None

    @property
    def asleep(self) -> bool:
        return self._asleep

    def blank(self) -> bool:
        """Clear the panel and switch it off (shutdown): True when the transfer that
        switches it off went through (the clear is best effort: once off, nothing shows).
        """
        self._asleep = True  # (a restore on the way switches it off)
        self.clear()
        if self._restored:
            return self._control("sleep", self.device.hide)
        return self._restore("sleep")  # every setting, ending with the panel off

    def restore_commands(self) -> bytes:
        """Every setting of the controller in one command transfer: NOPs that complete
        any command left half-received, the init sequence (addressing mode, remaps,
        multiplex, clocks, charge pump...), what a garbled command may have changed
        beyond it, the contrast wanted now, and display on or off."""
        const = self._const
        level = self._dim_contrast if self._dimmed else self._contrast
        power = const.DISPLAYOFF if self._asleep else const.DISPLAYON
        wanted = bytes((const.SETCONTRAST, level, power))
        return FLUSH + self._init + self.controller.reset_extras + wanted

    def _restore(self, what: str) -> bool:
        """Send :meth:`restore_commands`; the RAM is then redrawn in full."""
        commands = self.restore_commands()
        try:
            if self._i2c is not None:  # I²C: one message, any length
                self._i2c.write_windows([(commands, b"")])
            else:  # luma's interfaces take at most 32 command bytes at a time
                for start in range(0, len(commands), 32):
                    self.serial.command(*commands[start : start + 32])
        except BUS_ERRORS as exc:
            self._failed(what, exc)
            return False
        self._restored = True
        self._sent = None  # (it answers again once the frame goes through too)
        return True

    # -- frame path
    def show_packed(self, frame: bytes, ready: Callable[[], bool] | None = None) -> bool:
        """Send a packed frame (see :func:`pack_frame`), only where it changed; with
        ``ready``, once its windows are planned and the first built, only if ``ready()`` says so
        (False: nothing sent)."""
        self._last = frame
        if not self._restored:  # after a bus error: every setting first, then it all
            if ready is not None and not ready():
                return False
            self.retry()
            return True
        if frame == self._sent:
            self.frames_skipped += 1
            return ready is None or ready()
        try:
            if self._sent is None:
                sent = self._send_all(frame, ready)
            else:
                sent = self._send_changes(self._sent, frame, ready)
        except BUS_ERRORS as exc:
            self._failed("frame", exc)
            return True
        if not sent:
            return False
        self._sent = frame
        self._answered()
        self.frames_sent += 1
        return True

    def _control(self, what: str, call: Callable[..., Any], *args: Any) -> bool:
        """Run one control call on the panel; a bus error is recorded, never raised.
        After an error the panel is restored instead (every setting, then the frame)."""
        if not self._restored:
            return self.retry()
        try:
            call(*args)
        except BUS_ERRORS as exc:
            self._failed(what, exc)
            return False
        self._answered()
        return True

    def _failed(self, what: str, exc: Exception) -> None:
        # A glitch must not stop the game: the RAM content is unknown, resend in full,
        # and a command may have been cut short: restore every setting first.
        self._sent = None
        self._restored = False
        # Warn when the panel starts failing, not on every write while it stays off.
        level = logging.DEBUG if self.last_error is not None else logging.WARNING
        self.last_error = exc
        log.log(level, "display write failed (%s: %s); resending in full", what, exc)

    def _answered(self) -> None:
        if self.last_error is not None:
            log.warning("display answers again after: %s", self.last_error)
        self.last_error = None

    def plan(self, old: bytes | None, new: bytes) -> list[Window]:
        """The windows a frame change would send (:func:`hal.diffplan.plan_frame`)."""
        return plan_frame(
            old, new, width=self.width, pages=self.pages, addressing=self.controller.addressing
        )

    def _send_all(self, frame: bytes, ready: Callable[[], bool] | None = None) -> bool:
        return self._send(frame, self.plan(None, frame), ready=ready)

    def _send_changes(
        self, old: bytes, new: bytes, ready: Callable[[], bool] | None = None
    ) -> bool:
        planned = self._planned.get(new) if self._planned_from is old else None
        if planned is not None:
            return self._send(new, *planned, ready=ready)
        return self._send(new, self.plan(old, new), ready=ready)

    def _send(
        self,
        frame: bytes,
        windows: Sequence[Window],
        writes: Sequence[tuple[bytes, bytes]] | None = None,
        ready: Callable[[], bool] | None = None,
    ) -> bool:
        """Send the windows (their ``writes`` when planned ahead; on I²C the first is
        built, then ``ready()`` asked, then it is sent before the others are built: the
        glass changes as soon as it can); False: not sent."""
        serial = self._i2c
        if serial is not None:  # I²C (hal.buses.I2cInterface): the first
            # window's messages built ahead and sent in a system call of their own (the
            # glass changes as soon as it can), then the others built and sent in one
            head = (
                writes[:1]
                if writes is not None
                else [self._window_write(frame, win) for win in windows[:1]]
            )
            first = serial.messages(head)
            if ready is not None and not ready():
                return False
            if first:
                serial.write_messages(first)
            if len(windows) > 1:
                rest = (
                    writes[1:]
                    if writes is not None
                    else [self._window_write(frame, win) for win in windows[1:]]
                )
                serial.write_messages(serial.messages(rest))
            return True
        if writes is None:
            writes = [self._window_write(frame, win) for win in windows]
        if ready is not None and not ready():
            return False
        for commands, chunk in writes:  # SPI (or luma's own interfaces)
            self.serial.command(*commands)
            self.serial.data(list(chunk))
        return True

    def _window_write(self, frame: bytes, win: Window) -> tuple[bytes, bytes]:
        """A window's addressing commands and its data bytes."""
        w = self.width
        chunk = b"".join(
            frame[p * w + win.col0 : p * w + win.col1 + 1] for p in range(win.page0, win.page1 + 1)
        )
        if self.window:
            return bytes((0x21, win.col0, win.col1, 0x22, win.page0, win.page1)), chunk
        col = win.col0 + self.column_offset
        return bytes((0xB0 | win.page0, col & 0x0F, 0x10 | (col >> 4))), chunk
