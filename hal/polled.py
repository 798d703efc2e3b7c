"""The time-based half of a backend, shared by the Pi's and the simulator's.

Input callbacks only feed debouncers (:meth:`PolledHal._edge`) and the shake detector;
long presses, "shake stopped", the roll cap and tune steps come out of :meth:`~PolledHal.poll`
when :meth:`~PolledHal.next_deadline` has passed.
"""

from __future__ import annotations

import threading

from hal.clock import Clock, MonotonicClock
from hal.debounce import Debouncer
from hal.events import Button, EventQueue, LongPress, RollRequested, RollSource
from hal.interfaces import Hal, TestInput
from hal.shake import DetectorShaker
from hal.tunes import TunePlayer


class PolledHal(Hal):
    """A :class:`~hal.interfaces.Hal` whose time-based work is its buttons' debouncers,
    its :class:`~hal.shake.DetectorShaker` and its buzzer's :class:`~hal.tunes.TunePlayer`.

    Subclasses fill :attr:`_debouncers`, set :attr:`shaker` and :attr:`roll_on_long_press`,
    and override :meth:`_tune_player` (and :meth:`_raw`, where the input can be read).
    """

    shaker: DetectorShaker
    #: A long press of YES also queues a RollRequested (``[shaker] button_fallback``).
    roll_on_long_press: bool = False

    def __init__(self, clock: Clock | None, events: EventQueue | None) -> None:
        self.clock = clock or MonotonicClock()
        self.events = events or EventQueue()
        self._lock = threading.RLock()
        #: (seat, button) -> its debouncer, in the order their events are queued.
        self._debouncers: dict[tuple[int, Button], Debouncer] = {}

    def _raw(self, seat: int, button: Button) -> bool | None:
        """The button's input level now (pressed = True), or None where it cannot be read."""
        return None

    def _tune_player(self) -> TunePlayer | None:
        """The buzzer's tune player (None without a buzzer)."""
        return None

    def _edge(self, seat: int, button: Button, pressed: bool, t: float | None = None) -> None:
        """A button's input changed, now or at ``t`` (from any thread)."""
        with self._lock:
            when = self.clock.now() if t is None else t
            for event in self._debouncers[(seat, button)].edge(when, pressed):
                self.events.put(event)

    def test_input(self) -> TestInput:
        """Edges fed to the debouncers, as the input callbacks feed them."""
        return EdgeInput(self, "debouncer edges")

    def next_deadline(self) -> float | None:
        with self._lock:
            due = [t for d in self._debouncers.values() if (t := d.next_deadline()) is not None]
        if (t := self.shaker.next_deadline()) is not None:
            due.append(t)
        player = self._tune_player()
        if player is not None and (t := player.next_deadline()) is not None:
            due.append(t)
        return min(due) if due else None

    def poll(self, now: float | None = None) -> None:
        now = self.clock.now() if now is None else now
        with self._lock:
            for (seat, button), debouncer in self._debouncers.items():
                for event in debouncer.poll(now, self._raw(seat, button)):
                    self.events.put(event)
                    if (
                        self.roll_on_long_press
                        and isinstance(event, LongPress)
                        and event.button is Button.YES
                    ):
                        self.events.put(RollRequested(event.t, event.seat, RollSource.BUTTON))
        self.shaker.poll(now)
        if (player := self._tune_player()) is not None:
            player.poll(now)


class EdgeInput(TestInput):
    """A test rig's input as the edges a backend's input callbacks would give."""

    def __init__(self, hal: PolledHal, path: str) -> None:
        self.hal = hal
        self.path = path

    def button(self, seat: int, button: Button, pressed: bool) -> None:
        self.hal._edge(seat, button, pressed)

    def shake_edge(self) -> None:
        self.hal.shaker.activity()
