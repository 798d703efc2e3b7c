"""The simulator's speaker: buzzer tunes rendered to samples and played by pygame.mixer.

:func:`render` is pure (a tune -> 16-bit samples, a soft square wave with short fades
so notes do not click). :meth:`Speaker.open` returns None when pygame or an audio
device is missing; callers then stay silent.
"""

from __future__ import annotations

import contextlib
import logging
import math
from array import array
from typing import Any

from hal.interfaces import Note, Tune

log = logging.getLogger(__name__)

RATE = 22050  #: samples per second asked of the mixer
VOLUME = 0.25  #: peak amplitude, 0–1 (a piezo is not loud either)
FADE_S = 0.004  #: fade in/out of every note
#: Harmonics (number, weight) of the soft square wave: odd ones, like a buzzer's.
HARMONICS = ((1, 1.0), (3, 1 / 3), (5, 1 / 5))
_PEAK = sum(weight for _, weight in HARMONICS)


def frequency(note: Note) -> float | None:
    """Hz of a note name (``"A4"``, ``"C#5"``) or frequency; None for a rest."""
    if note is None:
        return None
    if isinstance(note, str):
        # lazy: gpiozero takes ~0.2 s to import (all its devices); only to name a note
        from gpiozero.tones import Tone

        return float(Tone(note).frequency)
    return float(note)


def render(tune: Tune, rate: int = RATE, volume: float = VOLUME) -> array[int]:
    """Signed 16-bit mono samples of ``tune``."""
    out = array("h")
    scale = 32767 * volume / _PEAK
    fade = max(1, int(FADE_S * rate))
    end = 0.0
    for note, seconds in tune:
        end += seconds
        n = max(1, round(end * rate) - len(out))  # no drift over a long tune
        hz = frequency(note)
        if hz is None:
            out.extend(array("h", bytes(2 * n)))
            continue
        step = 2 * math.pi * hz / rate
        for i in range(n):
            gain = min(1.0, (i + 1) / fade, (n - i) / fade)
            value = sum(w * math.sin(k * step * i) for k, w in HARMONICS)
            out.append(int(scale * gain * value))
    return out


class Speaker:
    """Plays tunes on one pygame.mixer channel; a new tune cuts the one playing."""

    def __init__(
        self, mixer: Any, rate: int, channels: int, error: type[Exception] = RuntimeError
    ) -> None:
        """``mixer``: ``pygame.mixer`` (initialised); ``error``: its exception class."""
        self._mixer = mixer
        self._error = error
        self.rate = rate
        self.channels = channels
        self._channel = mixer.Channel(0)
        self._sounds: dict[tuple[tuple[Note, float], ...], Any] = {}
        self.played = 0  #: tunes handed to the mixer

    @classmethod
    def open(cls) -> Speaker | None:
        """A speaker on pygame.mixer (initialised here if need be), or None without audio."""
        try:
            import pygame  # lazy: the sim extra; without it the buzzer is silent
        except ImportError:
            return None
        try:
            if not pygame.mixer.get_init():
                pygame.mixer.init(RATE, -16, 1, 512)
            init = pygame.mixer.get_init()
            if not init:
                return None
            rate, size, channels = init
            if size != -16:  # someone else opened the mixer in another sample format
                log.info("sim: mixer format %s, the buzzer stays silent", size)
                return None
            return cls(pygame.mixer, rate, channels, pygame.error)
        except pygame.error as exc:
            log.info("sim: no audio (%s), the buzzer stays silent", exc)
            return None

    def play(self, tune: Tune) -> None:
        """Start ``tune`` now (rendered once, then cached); audio errors only log."""
        try:
            self._play(tune)
        except self._error as exc:
            log.warning("sim: cannot play a tune: %s", exc)

    def _play(self, tune: Tune) -> None:
        key = tuple((note, float(seconds)) for note, seconds in tune)
        sound = self._sounds.get(key)
        if sound is None:
            samples = render(key, self.rate)
            if self.channels > 1:
                samples = array("h", (s for s in samples for _ in range(self.channels)))
            sound = self._sounds[key] = self._mixer.Sound(buffer=samples.tobytes())
        self._channel.play(sound)
        self.played += 1

    def stop(self) -> None:
        with contextlib.suppress(self._error):  # the mixer was shut down already
            self._channel.stop()

    @property
    def busy(self) -> bool:
        return bool(self._channel.get_busy())
