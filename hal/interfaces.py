"""The interfaces every HAL backend implements (the Pi backend, the simulator)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from types import TracebackType
from typing import TYPE_CHECKING, ClassVar

from hal.events import Button, EventQueue

if TYPE_CHECKING:
    from PIL import Image

    from hal.clock import Clock
    from hal.config import UnitConfig

#: A tune: (note, seconds) pairs. A note is a name like ``"A4"``/``"C#5"``, a
#: frequency in Hz, or None for a rest.
Note = str | float | None
Tune = Sequence[tuple[Note, float]]


class Display(ABC):
    """One seat's 1-bit OLED. Frames are in the seat's logical orientation."""

    #: (width, height) of the frames :meth:`show` takes, e.g. (128, 64).
    size: tuple[int, int]
    #: Why the last write to the panel failed (None after a good one). No call raises
    #: on a bus error (the game goes on); ``switch16 selftest`` reads this.
    last_error: Exception | None = None

    @abstractmethod
    def show(self, image: Image.Image) -> None:
        """Show a mode "1" image of :attr:`size`; unchanged frames cost nothing."""

    def show_pages(
        self, pages: bytes, image: Callable[[], Image.Image], ready: Callable[[], bool]
    ) -> bool:
        """Show a frame given as panel RAM bytes in logical orientation (the layout of
        :func:`hal.frame.pack_frame` with no rotation); ``image()`` draws the same frame
        as an image, for displays that take no bytes (this default). Nothing reaches the
        panel before ``ready()`` returns (a display may prepare the frame meanwhile),
        nothing at all when it returns False; returns whether the frame was shown."""
        if not ready():
            return False
        self.show(image())
        return True

    def prepare(self, pages: bytes) -> None:
        """A frame (as :meth:`show_pages` takes it) this display may be asked to show
        next: the loop says so while it idles, so a display may plan now what it would
        send (this default: nothing)."""
        return None

    @abstractmethod
    def clear(self) -> None:
        """Show a blank frame."""

    @abstractmethod
    def set_contrast(self, level: int) -> None:
        """Set the contrast (brightness), 0–255."""

    @abstractmethod
    def dim(self, dimmed: bool) -> None:
        """Switch between the configured normal and dim contrast (nothing when already so).

        The display keeps this state (a reconnected panel gets it back); the unit only
        says what it wants on every refresh."""

    @property
    @abstractmethod
    def dimmed(self) -> bool:
        """True while dimmed (see :meth:`dim`)."""

    @abstractmethod
    def sleep(self) -> None:
        """Turn the panel off (RAM is kept; :meth:`show` still updates it)."""

    @abstractmethod
    def wake(self) -> None:
        """Turn the panel back on and redraw the last frame in full."""

    @property
    @abstractmethod
    def asleep(self) -> bool:
        """True between :meth:`sleep` and :meth:`wake`."""

    def retry(self) -> bool:
        """After a failed write (:attr:`last_error` set): try the panel again, resending
        the last frame; True once it answers. The loop calls this with backoff."""
        return self.last_error is None


class Led(ABC):
    """An optional per-seat indicator LED."""

    @abstractmethod
    def set(self, on: bool) -> None:
        """Switch the LED on or off."""

    @property
    @abstractmethod
    def is_on(self) -> bool: ...


class SeatIO(ABC):
    """One seat: its display, three buttons and optional LED."""

    index: int
    display: Display
    led: Led | None

    @abstractmethod
    def is_pressed(self, button: Button) -> bool:
        """The debounced state of a button right now."""


class Shaker(ABC):
    """The dice shaker. Emits ShakeStarted / ShakeStopped; RollRequested as fallback."""

    @abstractmethod
    def request_roll(self, seat: int | None = None) -> None:
        """Enqueue a RollRequested (button fallback when shaking is not possible)."""

    @property
    @abstractmethod
    def shaking(self) -> bool:
        """True between ShakeStarted and ShakeStopped."""


class Buzzer(ABC):
    """An optional buzzer playing tones and short tunes without blocking."""

    @abstractmethod
    def play(self, tune: Tune) -> None:
        """Start a tune (replacing any tune playing); returns at once."""

    def tone(self, note: Note, seconds: float) -> None:
        """Play one note for ``seconds``."""
        self.play([(note, seconds)])

    @abstractmethod
    def stop(self) -> None:
        """Silence the buzzer now."""

    @property
    @abstractmethod
    def playing(self) -> bool: ...


class TestInput(ABC):
    """A test rig's finger on one HAL (the serial link's test mode): a button's edge and
    one activity sample of the shaker, through the same path a person's input takes on
    that backend (:meth:`Hal.test_input`)."""

    #: How the input reaches the unit (the link's ``hello`` says it).
    path: str

    @abstractmethod
    def button(self, seat: int, button: Button, pressed: bool) -> None:
        """``seat``'s ``button`` goes down (``pressed``) or up, now."""

    @abstractmethod
    def shake_edge(self) -> None:
        """One activity sample of the shaker (one edge of a vibration switch), now."""


class Hal(ABC):
    """A hardware backend: seats, shaker, optional buzzer, an event queue and a clock.

    Callbacks of the backend only enqueue events on :attr:`events`. Time-based
    detection (long press, shake stop, tune steps) happens in :meth:`poll`, which the
    unit loop calls when :meth:`next_deadline` has passed.
    """

    #: None for a backend ``switch16 run`` can start; else why it cannot, and what to
    #: run instead (e.g. the simulator's backend lives in its window).
    hosted: ClassVar[str | None] = None
    seats: Sequence[SeatIO]
    shaker: Shaker
    buzzer: Buzzer | None
    events: EventQueue
    clock: Clock
    #: The hardware config it was opened with (pins, buses, button timing).
    config: UnitConfig

    @property
    def leds(self) -> list[Led | None]:
        """Per-seat LEDs (None where a seat has none)."""
        return [seat.led for seat in self.seats]

    @abstractmethod
    def next_deadline(self) -> float | None:
        """Earliest clock time at which :meth:`poll` has work, or None."""

    @abstractmethod
    def poll(self, now: float | None = None) -> None:
        """Enqueue the time-based events due at ``now`` (default: clock.now())."""

    @abstractmethod
    def close(self) -> None:
        """Blank the displays, silence the buzzer, release pins and buses. Idempotent."""

    def test_input(self) -> TestInput:
        """How a test rig presses this backend's buttons and shakes its shaker."""
        raise NotImplementedError(f"{type(self).__name__} has no way to press a button")

    def glass(self, seat: int) -> Image.Image | None:
        """What ``seat``'s panel shows, where the backend can read it (an emulated or
        simulated panel: the serial link reports it); None on real glass."""
        return None

    def display_bus(self, seat: int) -> int | Exception | None:
        """The ``/dev/i2c-N`` number ``seat``'s display resolved to at start-up (a mux
        channel), or why not; None where the backend resolves none."""
        return None

    def __enter__(self) -> Hal:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
