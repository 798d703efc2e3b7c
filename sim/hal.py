"""The simulator's HAL backend: the :mod:`hal.interfaces` fed by keyboard and mouse.

No pygame here (but for the optional sound, :mod:`sim.audio`): the window
(:mod:`sim.window`) translates pygame input into calls on :class:`SimHal`
(:meth:`~SimHal.press`, :meth:`~SimHal.release`, :meth:`~SimHal.shake_hold`,
:meth:`~SimHal.shake_motion`) and draws what the displays hold. Buttons go through
the same :class:`~hal.debounce.Debouncer` as the Pi's (so long presses work alike), the
shaker through the same :class:`~hal.shake.ShakeDetector`, fed with activity samples,
and both are polled by the same :class:`~hal.polled.PolledHal`.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from hal.clock import Clock
from hal.config import (
    CONTRAST,
    DIM_CONTRAST,
    PANEL_SIZE,
    REFERENCE_CONFIG,
    UnitConfig,
    load_config,
)
from hal.debounce import Debouncer
from hal.events import Button, EventQueue
from hal.interfaces import Buzzer, Display, Led, Note, SeatIO, TestInput, Tune
from hal.polled import EdgeInput, PolledHal
from hal.shake import DetectorShaker, ShakeThresholds
from hal.tunes import TunePlayer
from sim.audio import Speaker

#: Mouse travel over the shaker (window pixels) that counts as one activity sample.
MOTION_PER_SAMPLE = 14.0


class SimDisplay(Display):
    """A simulated OLED: keeps the last frame, contrast, dim and sleep state."""

    def __init__(
        self,
        contrast: int = CONTRAST,
        dim_contrast: int = DIM_CONTRAST,
        size: tuple[int, int] = PANEL_SIZE,
    ) -> None:
        self.size = size
        self.frame = Image.new("1", size, 0)
        self.normal_contrast = contrast
        self.dim_contrast = dim_contrast
        self.contrast = contrast
        self._dimmed = False
        self._asleep = False
        #: Frames that changed the panel (unchanged frames cost nothing, as on the unit).
        self.frames = 0
        #: Bumped on every visible change; the window redraws when it moves.
        self.version = 0

    def show(self, image: Image.Image) -> None:
        if image.size != self.size:
            raise ValueError(f"frame is {image.size}, the display is {self.size}")
        bits = (image if image.mode == "1" else image.convert("1")).tobytes()
        if bits == self.frame.tobytes():
            return
        self.frame = Image.frombytes("1", self.size, bits)
        self.frames += 1
        self.version += 1

    def clear(self) -> None:
        self.show(Image.new("1", self.size, 0))

    def set_contrast(self, level: int) -> None:
        if not 0 <= level <= 255:
            raise ValueError(f"contrast must be 0..255, got {level}")
        self.contrast = level
        self.version += 1

    def dim(self, dimmed: bool) -> None:
        if dimmed != self._dimmed:
            self._dimmed = dimmed
            self.set_contrast(self.dim_contrast if dimmed else self.normal_contrast)

    @property
    def dimmed(self) -> bool:
        return self._dimmed

    def sleep(self) -> None:
        self._asleep = True
        self.version += 1

    def wake(self) -> None:
        self._asleep = False
        self.version += 1

    @property
    def asleep(self) -> bool:
        return self._asleep


class SimLed(Led):
    """A seat LED drawn by the window."""

    def __init__(self) -> None:
        self._on = False

    def set(self, on: bool) -> None:
        self._on = on

    @property
    def is_on(self) -> bool:
        return self._on


class SimSeat(SeatIO):
    """One seat: a display, an LED and three debounced buttons."""

    display: SimDisplay
    led: SimLed

    def __init__(self, index: int, display: SimDisplay, debouncers: dict[Button, Debouncer]):
        self.index = index
        self.display = display
        self.led = SimLed()
        self.debouncers = debouncers

    def is_pressed(self, button: Button) -> bool:
        return self.debouncers[button].pressed


class SimBuzzer(Buzzer):
    """The buzzer: the window shows the note playing (tunes step from ``poll``) and a
    :class:`~sim.audio.Speaker`, if given, sounds the whole tune at once."""

    def __init__(self, clock: Clock, speaker: Speaker | None = None) -> None:
        self.clock = clock
        self.speaker = speaker
        self.player = TunePlayer(self._sound)
        #: The note sounding now (None: silent); the window draws it.
        self.note: Note = None
        self.tunes = 0

    def _sound(self, note: Note) -> None:
        self.note = note

    def play(self, tune: Tune) -> None:
        steps = list(tune)
        self.player.play(steps, self.clock.now())
        self.tunes += 1
        if self.speaker is not None:
            if steps:
                self.speaker.play(steps)
            else:
                self.speaker.stop()

    def stop(self) -> None:
        self.player.stop()
        if self.speaker is not None:
            self.speaker.stop()

    @property
    def playing(self) -> bool:
        return self.player.playing


class SimShaker(DetectorShaker):
    """The shaker fed by a held key (a steady stream of samples) or mouse wiggles."""

    def __init__(self, thresholds: ShakeThresholds, events: EventQueue, clock: Clock) -> None:
        super().__init__(thresholds, events, clock)
        #: Seconds between samples while the shake key is held: the start threshold is
        #: reached within two thirds of the start window.
        self.hold_period = thresholds.start_window * 2 / 3 / max(thresholds.start_energy, 1)
        self._hold_next: float | None = None
        self._travel = 0.0

    @property
    def held(self) -> bool:
        return self._hold_next is not None

    def hold(self, down: bool, t: float | None = None) -> None:
        """The shake key went down (samples start now) or up (samples stop)."""
        now = self.clock.now() if t is None else t
        if down and self._hold_next is None:
            self._hold_next = now
            self._feed_hold(now)
        elif not down:
            self._feed_hold(now)
            self._hold_next = None

    def motion(self, distance: float, t: float | None = None) -> None:
        """The mouse moved ``distance`` window pixels over the shaker."""
        self._travel += abs(distance)
        while self._travel >= MOTION_PER_SAMPLE:
            self._travel -= MOTION_PER_SAMPLE
            self.activity(1.0, t)

    def _feed_hold(self, now: float) -> None:
        while self._hold_next is not None and self._hold_next <= now:
            self.activity(1.0, self._hold_next)
            self._hold_next += self.hold_period

    def next_deadline(self) -> float | None:
        times = [super().next_deadline(), self._hold_next]
        due = [t for t in times if t is not None]
        return min(due) if due else None

    def poll(self, now: float) -> None:
        self._feed_hold(now)
        super().poll(now)


class SimHal(PolledHal):
    """The desktop simulator's hardware: ``seats`` panels, a shaker, a buzzer.

    ``audible``: the buzzer (if configured and not muted by ``[buzzer] mute``) also
    sounds through pygame.mixer when an audio device opens; otherwise it is silent.
    """

    hosted = (
        "the sim backend draws into the simulator's window: run `sim` instead "
        "(`sim --headless` for a bot demo without a window)"
    )

    def __init__(
        self,
        config: UnitConfig | None = None,
        *,
        clock: Clock | None = None,
        events: EventQueue | None = None,
        seats: int | None = None,
        audible: bool = False,
    ) -> None:
        self.config = config or load_config(REFERENCE_CONFIG)
        super().__init__(clock, events)
        count = len(self.config.seats) if seats is None else seats
        if not 2 <= count <= 4:
            raise ValueError(f"the simulator has 2 to 4 seats, not {count}")
        timing, displays = self.config.timing, self.config.displays
        self.seats: Sequence[SimSeat] = [
            SimSeat(
                index,
                SimDisplay(displays.contrast, displays.dim_contrast, displays.size),
                {
                    button: Debouncer(index, button, timing.debounce_s, timing.long_press_s)
                    for button in Button
                },
            )
            for index in range(count)
        ]
        self._debouncers = {
            (seat.index, button): debouncer
            for seat in self.seats
            for button, debouncer in seat.debouncers.items()
        }
        sh = self.config.shaker
        thresholds = ShakeThresholds(
            start_energy=float(sh.start_edges),
            start_window=sh.start_window_s,
            stop_quiet=sh.stop_quiet_s,
            max_roll=sh.max_roll_s,
        )
        self.shaker: SimShaker = SimShaker(thresholds, self.events, self.clock)
        self.buzzer: SimBuzzer | None = None
        if self.config.buzzer is not None:
            speaker = None
            if audible and not self.config.buzzer.mute:
                speaker = Speaker.open()
            self.buzzer = SimBuzzer(self.clock, speaker)
        self.closed = False

    @property
    def displays(self) -> list[SimDisplay]:
        return [seat.display for seat in self.seats]

    def glass(self, seat: int) -> Image.Image:
        """What ``seat``'s simulated panel holds (the serial link's ``frame``)."""
        return self.seats[seat].display.frame

    # ------------------------------------------------------------------ input
    def press(self, seat: int, button: Button, t: float | None = None) -> None:
        """A button of ``seat`` went down (key or mouse)."""
        self._edge(seat, button, True, t)

    def release(self, seat: int, button: Button, t: float | None = None) -> None:
        """A button of ``seat`` went up."""
        self._edge(seat, button, False, t)

    def test_input(self) -> TestInput:
        """A test rig's presses go where the keys' go."""
        return EdgeInput(self, "simulator input")

    def shake_hold(self, down: bool) -> None:
        """The shake key went down or up."""
        self.shaker.hold(down)

    def shake_motion(self, distance: float) -> None:
        """The mouse wiggled ``distance`` pixels over the shaker."""
        self.shaker.motion(distance)

    # ------------------------------------------------------------------- time
    # next_deadline and poll: PolledHal (roll_on_long_press stays False: a long YES
    # does not roll in the simulator)
    def _tune_player(self) -> TunePlayer | None:
        return None if self.buzzer is None else self.buzzer.player

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        if self.buzzer is not None:
            self.buzzer.stop()
        for display in self.displays:
            display.clear()
