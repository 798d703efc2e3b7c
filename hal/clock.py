"""Time sources: the real monotonic clock and a virtual clock for tests."""

from __future__ import annotations

import threading
import time
from typing import Protocol, runtime_checkable


@runtime_checkable
class Clock(Protocol):
    """Monotonic time in seconds (only differences are meaningful)."""

    def now(self) -> float: ...


class MonotonicClock:
    """The real clock: :func:`time.monotonic`."""

    def now(self) -> float:
        return time.monotonic()


class VirtualClock:
    """A clock that only moves when told to (tests, simulations)."""

    def __init__(self, start: float = 0.0) -> None:
        self._t = float(start)
        self._lock = threading.Lock()

    def now(self) -> float:
        with self._lock:
            return self._t

    def advance(self, dt: float) -> float:
        """Move forward by ``dt`` seconds (>= 0) and return the new time."""
        if dt < 0:
            raise ValueError(f"cannot advance a clock backwards ({dt})")
        with self._lock:
            self._t += dt
            return self._t

    def set(self, t: float) -> None:
        """Jump to time ``t`` (not earlier than now)."""
        with self._lock:
            if t < self._t:
                raise ValueError(f"cannot set the clock back from {self._t} to {t}")
            self._t = float(t)
