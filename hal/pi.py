"""The Raspberry Pi backend: gpiozero buttons/shaker/buzzer/LEDs, luma.oled displays.

Every gpiozero callback only feeds a debouncer or the shake detector under a lock and
enqueues events; all time-based work happens in :meth:`PiHal.poll`.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hal.backends import BackendError
from hal.buses import Buses, I2cInterface, SystemBuses
from hal.clock import Clock
from hal.config import (
    PANEL_SIZE,
    DisplayConfig,
    SeatConfig,
    ShakerConfig,
    UnitConfig,
    seat_key,
)
from hal.controllers import controller
from hal.debounce import Debouncer
from hal.events import Button, EventQueue
from hal.interfaces import Buzzer, Display, Led, Note, SeatIO, TestInput, Tune
from hal.luma_gpio import GpiozeroGPIO
from hal.mux import SYSFS_I2C, MuxError, channel_port
from hal.oled import BUS_ERRORS, NOP, OledDisplay, open_device
from hal.polled import PolledHal
from hal.shake import DetectorShaker, ShakeThresholds
from hal.tunes import TunePlayer
from hardware.seats import seat_name

if TYPE_CHECKING:
    from PIL import Image

log = logging.getLogger(__name__)

#: How long the shared SPI reset line is held low, and the wait after releasing it.
RESET_HOLD_S = 0.001
RESET_RELEASE_S = 0.001
#: At shutdown, panels that fail to blank are tried again this many times, this far apart.
BLANK_ROUNDS = 10
BLANK_PAUSE_S = 0.1


class NoGpioError(BackendError):
    """gpiozero found no way to drive pins: not a Raspberry Pi, or lgpio is missing."""


def default_pin_factory() -> Any:
    """gpiozero's pin factory (``GPIOZERO_PIN_FACTORY``, else the first that loads).

    Raises :class:`NoGpioError` with what to do instead where there is none.
    """
    # lazy: gpiozero after the splash (start-up on the Zero)
    import warnings

    from gpiozero import Device
    from gpiozero.exc import BadPinFactory, PinFactoryFallback

    try:
        with warnings.catch_warnings():  # one clear message below, not a fallback per factory
            warnings.simplefilter("ignore", PinFactoryFallback)
            Device.ensure_pin_factory()
    except BadPinFactory as exc:
        raise NoGpioError(
            f"no GPIO here ({exc}): this is not a Raspberry Pi, or the pi extra is not "
            "installed (pip install 'switch16-unit[pi]'). On a computer, play the same "
            "firmware in the simulator: sim"
        ) from None
    return Device.pin_factory


class DisplayError(OSError):
    """A seat's display could not be set up; names its config key, e.g. ``seat 3.display``."""

    def __init__(self, key: str, config: DisplayConfig, cause: Exception) -> None:
        super().__init__(f"{key} ({config.describe()}): {type(cause).__name__}: {cause}")
        self.key = key
        self.cause = cause


class FailedDisplay(Display):
    """Stands in for a display that failed to start: draws nothing until :meth:`retry`
    manages to start the panel (``reopen``, e.g. a cable pushed back in); from then on
    it passes everything to that panel."""

    def __init__(
        self,
        error: Exception,
        size: tuple[int, int] = PANEL_SIZE,
        reopen: Callable[[], Display] | None = None,
    ) -> None:
        self.size = size
        self.panel: Display | None = None
        self._error: Exception | None = error
        self._reopen = reopen
        self._last: Image.Image | None = None
        self._dimmed = False

    @property
    def last_error(self) -> Exception | None:
        return self.panel.last_error if self.panel is not None else self._error

    @last_error.setter
    def last_error(self, error: Exception | None) -> None:
        if self.panel is not None:
            self.panel.last_error = error
        else:
            self._error = error

    def show(self, image: Image.Image) -> None:
        self._last = image
        if self.panel is not None:
            self.panel.show(image)

    def clear(self) -> None:
        if self.panel is not None:
            self.panel.clear()

    def set_contrast(self, level: int) -> None:
        if self.panel is not None:
            self.panel.set_contrast(level)

    def dim(self, dimmed: bool) -> None:
        self._dimmed = dimmed  # for a panel that answers later
        if self.panel is not None:
            self.panel.dim(dimmed)

    @property
    def dimmed(self) -> bool:
        return self.panel.dimmed if self.panel is not None else self._dimmed

    def sleep(self) -> None:
        if self.panel is not None:
            self.panel.sleep()

    def wake(self) -> None:
        if self.panel is not None:
            self.panel.wake()

    @property
    def asleep(self) -> bool:
        return self.panel.asleep if self.panel is not None else False

    def retry(self) -> bool:
        if self.panel is not None:
            return self.panel.retry()
        if self._reopen is None:
            return False
        try:
            panel = self._reopen()
        except BUS_ERRORS as exc:
            self._error = exc
            return False
        log.warning("a display that failed to start answers now: %s", self._error)
        self.panel, self._error = panel, None
        panel.dim(self._dimmed)
        if self._last is not None:
            panel.show(self._last)
        return panel.last_error is None


class PiLed(Led):
    def __init__(self, pin: int, pin_factory: Any) -> None:
        # lazy: gpiozero after the splash (start-up on the Zero)
        from gpiozero import LED

        self._led = LED(pin, pin_factory=pin_factory)

    def set(self, on: bool) -> None:
        self._led.value = bool(on)

    @property
    def is_on(self) -> bool:
        return bool(self._led.value)

    def close(self) -> None:
        self._led.close()


class PiSeat(SeatIO):
    def __init__(self, hal: PiHal, config: SeatConfig, display: Display, led: PiLed | None) -> None:
        self.index = config.index
        self.config = config
        self.display = display
        self.led = led
        self._hal = hal

    def is_pressed(self, button: Button) -> bool:
        return self._hal._debounced(self.index, Button(button))


class SwitchShaker(DetectorShaker):
    """Vibration/tilt switch: every edge of a DigitalInputDevice is one activity sample."""

    def __init__(
        self, config: ShakerConfig, events: EventQueue, clock: Clock, pin_factory: Any
    ) -> None:
        # lazy: gpiozero after the splash (start-up on the Zero)
        from gpiozero import DigitalInputDevice

        thresholds = ShakeThresholds(
            start_energy=config.start_edges,
            start_window=config.start_window_s,
            stop_quiet=config.stop_quiet_s,
            max_roll=config.max_roll_s,
        )
        super().__init__(thresholds, events, clock)
        self.input = DigitalInputDevice(
            config.pin, pull_up=config.pull_up, bounce_time=None, pin_factory=pin_factory
        )
        self.input.when_activated = self._edge
        self.input.when_deactivated = self._edge

    def _edge(self) -> None:
        self.activity(1.0)

    def close(self) -> None:
        self.input.close()


class PiBuzzer(Buzzer):
    """A passive buzzer on gpiozero.TonalBuzzer; tunes advance from ``poll``.

    ``muted``: tunes are checked and stepped through as usual, but the pin stays quiet.
    """

    def __init__(
        self,
        pin: int,
        mid_tone: str,
        octaves: int,
        clock: Clock,
        pin_factory: Any,
        *,
        muted: bool = False,
    ) -> None:
        # lazy: gpiozero after the splash (start-up on the Zero)
        from gpiozero import TonalBuzzer
        from gpiozero.tones import Tone

        self._tone_class = Tone
        self.device = TonalBuzzer(
            pin, mid_tone=Tone(mid_tone), octaves=octaves, pin_factory=pin_factory
        )
        self._clock = clock
        self.muted = muted
        self.player = TunePlayer(self._sound)
        self._tones: dict[Note, Any] = {}  # a cue plays at once: no parsing on a press

    def tone_of(self, note: Note) -> Any:
        """The gpiozero Tone for a note; ValueError if the buzzer cannot play it."""
        if note is None:
            return None
        tone = self._tones.get(note)
        if tone is not None:
            return tone
        tone = (
            self._tone_class.from_frequency(float(note))
            if not isinstance(note, str)
            else self._tone_class(note)
        )
        lo, hi = self.device.min_tone, self.device.max_tone
        if not lo.frequency <= tone.frequency <= hi.frequency:
            raise ValueError(f"note {note!r} is outside the buzzer's range {lo.note}–{hi.note}")
        self._tones[note] = tone
        return tone

    def play(self, tune: Tune) -> None:
        steps = list(tune)
        for note, _ in steps:
            self.tone_of(note)
        self.player.play(steps, self._clock.now())

    def stop(self) -> None:
        self.player.stop()

    @property
    def playing(self) -> bool:
        return self.player.playing

    def _sound(self, note: Note) -> None:
        tone = self.tone_of(note)
        if tone is None or self.muted:
            self.device.stop()
        else:
            self.device.play(tone)

    def close(self) -> None:
        self.player.stop()
        self.device.close()


class PiHal(PolledHal):
    """The real unit: pins through gpiozero's pin factory, displays through luma.oled.

    ``pin_factory`` defaults to gpiozero's (``GPIOZERO_PIN_FACTORY``, lgpio on a Pi) and
    ``buses`` to :class:`~hal.buses.SystemBuses`; tests pass a MockFactory and a
    :class:`hal.testing.FakeBus` (see :func:`hal.testing.mock_pi_hal`). A display that
    does not answer at start-up is logged with its config key and becomes a
    :class:`FailedDisplay` (the game goes on with the other panels, and the unit keeps
    trying to start it); ``keep_failed_displays=False`` raises :class:`DisplayError`.
    """

    def __init__(
        self,
        config: UnitConfig,
        *,
        clock: Clock | None = None,
        events: EventQueue | None = None,
        pin_factory: Any = None,
        buses: Buses | None = None,
        keep_failed_displays: bool = True,
        i2c_sysfs: Path = SYSFS_I2C,
    ) -> None:
        self.config = config
        self.buses: Buses = buses if buses is not None else SystemBuses()
        self.i2c_sysfs = i2c_sysfs
        #: seat -> the /dev/i2c-N its display's mux channel resolved to (or why not).
        self.resolved: dict[int, int | MuxError] = {}
        self.keep_failed_displays = keep_failed_displays
        super().__init__(clock, events)
        self.roll_on_long_press = config.shaker.button_fallback
        self._pin_factory = pin_factory if pin_factory is not None else default_pin_factory()
        self._closed = False
        #: Everything opened, closed in reverse order (displays before the pins they use).
        self._opened = contextlib.ExitStack()
        self._buttons: dict[tuple[int, Button], Any] = {}
        self._spi_gpio: GpiozeroGPIO | None = None
        self._displays: list[Display] = []  #: every seat's, as opened
        self.seats: list[PiSeat] = []
        self.buzzer: PiBuzzer | None = None
        try:
            self._open()
        except BaseException:
            self.close()
            raise

    # -- construction
    def _open(self) -> None:
        # DigitalInputDevice, not gpiozero's Button: the project debounces and detects
        # holds itself, and every Button starts a hold thread waking every 100 ms.
        # lazy: gpiozero after the splash (start-up on the Zero)
        from gpiozero import DigitalInputDevice

        timing = self.config.timing
        self.shaker = SwitchShaker(self.config.shaker, self.events, self.clock, self._pin_factory)
        self._opened.callback(self.shaker.close)
        self._reset_spi_displays()
        self._opened.callback(self._release_displays)  # before the SPI pins, after the rest
        for seat in self.config.seats:
            for name, pin in seat.buttons.items():
                key = (seat.index, name)
                self._debouncers[key] = Debouncer(
                    seat.index, name, timing.debounce_s, timing.long_press_s
                )
                button = DigitalInputDevice(
                    pin, pull_up=True, bounce_time=None, pin_factory=self._pin_factory
                )
                self._buttons[key] = button
                self._opened.callback(button.close)
                button.when_activated = functools.partial(self._edge, seat.index, name, True)
                button.when_deactivated = functools.partial(self._edge, seat.index, name, False)
            display = self._open_display(seat)
            self._displays.append(display)
            led = PiLed(seat.led, self._pin_factory) if seat.led is not None else None
            if led is not None:
                self._opened.callback(led.close)
            self.seats.append(PiSeat(self, seat, display, led))
        if self.config.buzzer is not None:
            b = self.config.buzzer
            self.buzzer = PiBuzzer(b.pin, b.mid_tone, b.octaves, self.clock, self._pin_factory,
                                   muted=b.mute)  # fmt: skip
            self._opened.callback(self.buzzer.close)

    def _open_display(self, seat: SeatConfig) -> Display:
        def start() -> OledDisplay:
            device, serial, init = self._luma_device(seat.display, seat.index)
            return OledDisplay(
                device,
                seat.display.driver,
                serial=serial,
                panel_size=self.config.displays.size,
                contrast=self.config.displays.contrast,
                dim_contrast=self.config.displays.dim_contrast,
                init=init,
            )

        try:
            return start()
        except BUS_ERRORS as exc:
            error = DisplayError(seat_key(seat.index, "display"), seat.display, exc)
            if not self.keep_failed_displays:
                raise error from exc
            log.error("%s: %s plays without its display", error, seat_name(seat.index))
            return FailedDisplay(exc, self.config.displays.size, reopen=start)

    def _reset_spi_displays(self) -> None:
        """Pulse each shared SPI reset line once, before any display is initialised."""
        spi = [s.display for s in self.config.seats if s.display.bus == "spi"]
        if not spi:
            return
        self._spi_gpio = GpiozeroGPIO(self._pin_factory)
        self._opened.callback(self._spi_gpio.cleanup)
        for rst in sorted({d.rst for d in spi if d.rst is not None}):
            self._spi_gpio.setup(rst, GpiozeroGPIO.OUT)
            self._spi_gpio.output(rst, GpiozeroGPIO.LOW)
            time.sleep(RESET_HOLD_S)
            self._spi_gpio.output(rst, GpiozeroGPIO.HIGH)
            time.sleep(RESET_RELEASE_S)

    def i2c_port(self, seat: int, d: DisplayConfig) -> int:
        """The display's ``/dev/i2c-N``: its ``port``, or its mux channel's (sysfs)."""
        if d.mux is None or d.channel is None:
            assert d.port is not None
            return d.port
        try:
            port = channel_port(d.mux, d.channel, root=self.i2c_sysfs)
        except MuxError as exc:
            self.resolved[seat] = exc
            raise
        self.resolved[seat] = port
        log.info("%s: mux 0x%02X channel %d is /dev/i2c-%d", seat_key(seat, "display"), d.mux,
                 d.channel, port)  # fmt: skip
        return port

    def _luma_device(self, d: DisplayConfig, seat: int) -> tuple[Any, Any, bytes]:
        """The luma device for a seat's display, the serial interface it was built on,
        and the init sequence it sent."""
        # lazy: luma's SPI serial only for an SPI panel
        from luma.core.interface.serial import spi

        if d.bus == "i2c":
            assert d.address is not None  # the config names one for every I²C display
            serial = I2cInterface.open(self.buses, self.i2c_port(seat, d), d.address)
        else:
            serial = spi(
                spi=self.buses.spi_device(),
                gpio=self._spi_gpio,
                port=d.port,
                device=d.device,
                bus_speed_hz=d.speed_hz,
                gpio_DC=d.dc,
                gpio_RST=None,
            )
        driver = controller(d.driver).luma_device()
        width, height = self.config.displays.size
        try:
            # A panel that does not answer fails here, not in luma's device, which
            # registers an atexit hook for good (~300 KB a try, kept while it is retried)
            serial.command(NOP)
            device, init = open_device(
                lambda s: driver(s, width=width, height=height, rotate=d.rotate), serial
            )
            return device, serial, init
        except BaseException:
            serial.cleanup()  # the bus opened for it (a file descriptor a try)
            raise

    def display_bus(self, seat: int) -> int | Exception | None:
        return self.resolved.get(seat)

    def test_input(self) -> TestInput:
        """On gpiozero's MockFactory, the pins themselves (pin -> gpiozero callback ->
        debouncer, as on the unit); on real pins, the edges they would give."""
        mock = sys.modules.get("gpiozero.pins.mock")  # not imported: not a mock factory
        if mock is not None and isinstance(self._pin_factory, mock.MockFactory):
            return MockPinInput(self._pin_factory, self.config)
        return super().test_input()

    # -- callbacks (gpiozero's thread, or synchronous under MockFactory)
    def _edge(self, seat: int, button: Button, pressed: bool, t: float | None = None) -> None:
        with self._lock:
            if not self._closed:
                super()._edge(seat, button, pressed, t)

    def _debounced(self, seat: int, button: Button) -> bool:
        with self._lock:
            return self._debouncers[(seat, button)].pressed

    # -- the loop's side (next_deadline, poll: PolledHal)
    def _raw(self, seat: int, button: Button) -> bool | None:
        device = self._buttons.get((seat, button))
        return None if device is None else bool(device.is_active)

    def _tune_player(self) -> TunePlayer | None:
        return None if self.buzzer is None else self.buzzer.player

    def close(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
        self._opened.close()

    def _release_displays(self) -> None:
        """Blank every panel and release its bus (never raises: a loose panel must not
        keep the pins reserved). A panel that fails is tried again, all of them in the
        same rounds, for up to :data:`BLANK_ROUNDS` x :data:`BLANK_PAUSE_S`."""
        panels: dict[int, OledDisplay] = {}
        for index, display in enumerate(self._displays):
            panel = display.panel if isinstance(display, FailedDisplay) else display
            if isinstance(panel, OledDisplay):
                panels[index] = panel
        lit = [index for index, panel in panels.items() if not panel.blank()]
        for _ in range(BLANK_ROUNDS):
            if not lit:
                break
            time.sleep(BLANK_PAUSE_S)
            lit = [index for index in lit if not panels[index].blank()]
        for index in lit:
            log.warning("%s: cannot blank it: %s", seat_key(index, "display"),
                        panels[index].last_error)  # fmt: skip
        for panel in panels.values():
            panel.device.persist = True  # luma's atexit hook must not redo it
            panel.device.cleanup()


class MockPinInput(TestInput):
    """A test rig's finger on gpiozero's mock pins: a button pulls its pin low, the
    shaker's switch toggles its pin."""

    path = "gpiozero mock pins"

    def __init__(self, factory: Any, config: UnitConfig) -> None:
        self.factory = factory
        self.config = config

    def button(self, seat: int, button: Button, pressed: bool) -> None:
        pin = self.factory.pin(self.config.seats[seat].buttons[button])
        pin.drive_low() if pressed else pin.drive_high()  # buttons pull up

    def shake_edge(self) -> None:
        pin = self.factory.pin(self.config.shaker.pin)
        pin.drive_high() if pin.state == 0 else pin.drive_low()
