"""Shake detection shared by all shaker drivers.

Drivers turn their sensor into *activity samples* ``(t, energy)``: the switch driver
feeds one sample of energy 1 per edge; an accelerometer driver would feed samples
weighted by how far the acceleration exceeds its threshold. :class:`ShakeDetector`
is pure (fed timestamps, no threads, no I/O); :class:`DetectorShaker` wraps it with a
lock and the event queue and implements the :class:`~hal.interfaces.Shaker` API.
"""

from __future__ import annotations

import threading
from collections import deque
from dataclasses import dataclass
from enum import Enum

from hal.clock import Clock
from hal.events import Event, EventQueue, RollRequested, RollSource, ShakeStarted, ShakeStopped
from hal.interfaces import Shaker


@dataclass(frozen=True, slots=True)
class ShakeThresholds:
    """When activity counts as shaking (all times in seconds)."""

    start_energy: float = 6.0  #: activity needed within ``start_window`` to start
    start_window: float = 0.3
    stop_quiet: float = 0.4  #: quiet this long ends the shake
    max_roll: float = 4.0  #: a shake is cut off (capped) after this long


class _State(Enum):
    IDLE = "idle"
    SHAKING = "shaking"
    CAPPED = "capped"  # cut off; waiting for quiet before a new shake may start


class ShakeDetector:
    """Turns activity samples into ShakeStarted / ShakeStopped events."""

    def __init__(self, thresholds: ShakeThresholds) -> None:
        self.thresholds = thresholds
        self._state = _State.IDLE
        self._window: deque[tuple[float, float]] = deque()
        self._start = 0.0
        self._last = 0.0
        self._edges = 0
        self._energy = 0.0

    @property
    def shaking(self) -> bool:
        return self._state is _State.SHAKING

    def sample(self, t: float, energy: float = 1.0) -> list[Event]:
        """Feed one activity sample at time ``t``."""
        th = self.thresholds
        out = self.poll(t)
        if self._state is _State.CAPPED:
            self._last = t
        elif self._state is _State.SHAKING:
            self._last = t
            self._edges += 1
            self._energy += energy
        else:
            window = self._window
            window.append((t, energy))
            while window and window[0][0] < t - th.start_window:
                window.popleft()
            total = sum(e for _, e in window)
            if total >= th.start_energy:
                self._state = _State.SHAKING
                self._start = window[0][0]
                self._last = t
                self._edges = len(window)
                self._energy = total
                window.clear()
                out.append(ShakeStarted(t))
                out.extend(self.poll(t))
        return out

    def poll(self, now: float) -> list[Event]:
        """Events due at ``now`` (stop after quiet, cap)."""
        th = self.thresholds
        if self._state is _State.SHAKING:
            cap_at = self._start + th.max_roll
            quiet_at = self._last + th.stop_quiet
            if now >= cap_at and cap_at < quiet_at:
                self._state = _State.CAPPED
                return [self._stopped(cap_at, th.max_roll, capped=True)]
            if now >= quiet_at:
                self._state = _State.IDLE
                return [self._stopped(quiet_at, self._last - self._start, capped=False)]
        elif self._state is _State.CAPPED and now >= self._last + th.stop_quiet:
            self._state = _State.IDLE
        return []

    def next_deadline(self) -> float | None:
        th = self.thresholds
        if self._state is _State.SHAKING:
            return min(self._start + th.max_roll, self._last + th.stop_quiet)
        if self._state is _State.CAPPED:
            return self._last + th.stop_quiet
        return None

    def _stopped(self, t: float, duration: float, capped: bool) -> ShakeStopped:
        return ShakeStopped(t, duration, self._edges, self._energy, capped)


class DetectorShaker(Shaker):
    """A Shaker over a ShakeDetector: drivers call :meth:`activity` from any thread."""

    def __init__(self, thresholds: ShakeThresholds, events: EventQueue, clock: Clock) -> None:
        self.detector = ShakeDetector(thresholds)
        self.events = events
        self.clock = clock
        self._lock = threading.Lock()
        self.samples = 0  #: activity samples seen so far (a switch: its edges)

    def activity(self, energy: float = 1.0, t: float | None = None) -> None:
        """Record one activity sample (a switch edge) now or at ``t``."""
        with self._lock:
            self.samples += 1
            when = self.clock.now() if t is None else t
            for event in self.detector.sample(when, energy):
                self.events.put(event)

    def request_roll(self, seat: int | None = None) -> None:
        self.events.put(RollRequested(self.clock.now(), seat, RollSource.BUTTON))

    @property
    def shaking(self) -> bool:
        with self._lock:
            return self.detector.shaking

    def next_deadline(self) -> float | None:
        with self._lock:
            return self.detector.next_deadline()

    def poll(self, now: float) -> None:
        with self._lock:
            for event in self.detector.poll(now):
                self.events.put(event)

    def close(self) -> None:
        """Release the sensor (drivers override)."""
