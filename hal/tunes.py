"""Non-blocking tune playback: steps advance from ``poll``, never from a thread."""

from __future__ import annotations

import threading
from collections.abc import Callable

from hal.interfaces import Note, Tune


class TunePlayer:
    """Plays (note, seconds) steps through ``sink(note)``; ``sink(None)`` is silence."""

    def __init__(self, sink: Callable[[Note], None]) -> None:
        self._sink = sink
        self._steps: list[tuple[Note, float]] = []
        self._index = 0
        self._until: float | None = None
        self._lock = threading.Lock()

    @property
    def playing(self) -> bool:
        return self._until is not None

    def play(self, tune: Tune, now: float) -> None:
        steps = [(note, float(seconds)) for note, seconds in tune]
        for note, seconds in steps:
            if seconds <= 0:
                raise ValueError(f"tune step {note!r} has a non-positive length {seconds}")
        with self._lock:
            self._steps, self._index, self._until = steps, 0, None
            if steps:
                self._start(0, now)
            else:
                self._sink(None)

    def stop(self) -> None:
        with self._lock:
            self._steps, self._until = [], None
            self._sink(None)

    def next_deadline(self) -> float | None:
        return self._until

    def poll(self, now: float) -> None:
        with self._lock:
            while self._until is not None and now >= self._until:
                if self._index + 1 < len(self._steps):
                    self._start(self._index + 1, self._until)
                else:
                    self._until = None
                    self._sink(None)

    def _start(self, index: int, at: float) -> None:
        self._index = index
        note, seconds = self._steps[index]
        self._until = at + seconds
        self._sink(note)
