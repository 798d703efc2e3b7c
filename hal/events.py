"""Input events and the thread-safe queue the unit loop blocks on.

Every event is a frozen dataclass with ``t``: the HAL clock time (seconds) at
which it happened. Seats are 0-based indices into ``Hal.seats``.
"""

from __future__ import annotations

import queue
from dataclasses import dataclass
from enum import StrEnum


class Button(StrEnum):
    """The three buttons of a seat."""

    YES = "yes"  #: roll / yes
    NO = "no"  #: pass / no
    CHIP = "chip"  #: chip / select


class RollSource(StrEnum):
    """What asked for a roll."""

    SHAKER = "shaker"
    BUTTON = "button"


@dataclass(frozen=True, slots=True)
class Event:
    """Base class: ``t`` is the clock time of the event in seconds."""

    t: float


@dataclass(frozen=True, slots=True)
class ButtonDown(Event):
    """A button was pressed (debounced: first edge, then a lockout)."""

    seat: int
    button: Button


@dataclass(frozen=True, slots=True)
class ButtonUp(Event):
    """A button was released after being held ``held`` seconds."""

    seat: int
    button: Button
    held: float


@dataclass(frozen=True, slots=True)
class LongPress(Event):
    """A button has been held for the configured long-press time (still held)."""

    seat: int
    button: Button
    held: float


@dataclass(frozen=True, slots=True)
class ShakeStarted(Event):
    """The shaker detected shaking (enough activity within the start window)."""


@dataclass(frozen=True, slots=True)
class ShakeStopped(Event):
    """Shaking ended: quiet for the stop time, or ``capped`` at the maximum roll time.

    ``duration`` runs from the first to the last activity sample of the shake (or to
    the cap); ``edges`` counts the samples (switch edges) and ``energy`` sums their
    weights (equal to ``edges`` for a switch; an accelerometer weighs by strength).
    """

    duration: float
    edges: int
    energy: float
    capped: bool = False


@dataclass(frozen=True, slots=True)
class RollRequested(Event):
    """A roll was requested without shaking (button fallback or explicit request)."""

    seat: int | None
    source: RollSource = RollSource.BUTTON


class EventQueue:
    """Thread-safe FIFO of events: callbacks ``put``, the unit loop ``get``s."""

    def __init__(self) -> None:
        self._queue: queue.SimpleQueue[Event] = queue.SimpleQueue()

    def put(self, event: Event) -> None:
        """Enqueue an event (safe from any thread, never blocks)."""
        self._queue.put(event)

    def get(self, timeout: float | None = None) -> Event | None:
        """Next event; block up to ``timeout`` seconds (None: forever, 0: don't block).

        Returns None when the timeout expires with no event.
        """
        try:
            if timeout is not None and timeout <= 0:
                return self._queue.get_nowait()
            return self._queue.get(timeout=timeout)
        except queue.Empty:
            return None

    def drain(self) -> list[Event]:
        """All events queued right now, oldest first, without blocking."""
        out: list[Event] = []
        while (event := self.get(0)) is not None:
            out.append(event)
        return out

    def empty(self) -> bool:
        return self._queue.empty()

    def __len__(self) -> int:
        return self._queue.qsize()
