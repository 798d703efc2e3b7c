"""The simulator's audible buzzer: samples, the mixer under SDL's dummy driver, fallbacks."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import pairwise

import pygame
import pytest

from firmware.games.switch16.sounds import TUNES, Switch16Cue
from firmware.unit.sounds import TUNES as UNIT_TUNES
from firmware.unit.sounds import Cue
from hal.config import REFERENCE_CONFIG, loads_config
from sim.audio import RATE, VOLUME, Speaker, frequency, render
from sim.hal import SimHal
from sim.options import parse_args
from tests.sim.test_hal import run_until


@pytest.fixture
def mixer() -> Iterator[None]:
    yield
    pygame.mixer.quit()


def crossings(samples, start: int, stop: int) -> int:
    return sum(1 for a, b in pairwise(samples[start:stop]) if a < 0 <= b)


def test_render_makes_the_notes_and_rests() -> None:
    samples = render([("A4", 0.5), (None, 0.25), (880.0, 0.25)], RATE)
    assert len(samples) == RATE
    assert max(map(abs, samples)) <= 32767 * VOLUME
    assert crossings(samples, 0, RATE // 2) == pytest.approx(220, abs=2)  # 440 Hz for 0.5 s
    assert not any(samples[RATE // 2 : 3 * RATE // 4])  # the rest is silent
    assert crossings(samples, 3 * RATE // 4, RATE) == pytest.approx(220, abs=2)
    assert abs(samples[0]) < 2000 and abs(samples[RATE // 2 - 1]) < 2000  # faded, no click
    assert frequency("C#5") == pytest.approx(554.37, abs=0.01) and frequency(None) is None


def test_the_buzzer_sounds_under_dummy_audio(clock, mixer) -> None:
    hal = SimHal(clock=clock, audible=True)
    buzzer = hal.buzzer
    assert buzzer is not None and buzzer.speaker is not None  # the dummy device opens
    buzzer.play(UNIT_TUNES[Cue.GAME_WIN])
    assert buzzer.speaker.played == 1 and buzzer.speaker.busy
    assert buzzer.playing and buzzer.note == "C5"  # the window indicator as before
    buzzer.play(TUNES[Switch16Cue.DICE])  # replaces the fanfare
    buzzer.play([])  # nothing: silence
    assert buzzer.speaker.played == 2 and not buzzer.speaker.busy
    buzzer.play(TUNES[Switch16Cue.DICE])
    run_until(hal, clock, clock.now() + 1)
    assert not buzzer.playing
    hal.close()
    assert not buzzer.speaker.busy


def test_without_an_audio_device_the_buzzer_is_silent(clock, monkeypatch, mixer) -> None:
    def no_device(*args, **kwargs) -> None:
        raise pygame.error("No available audio device")

    pygame.mixer.quit()
    monkeypatch.setattr(pygame.mixer, "init", no_device)
    assert Speaker.open() is None
    hal = SimHal(clock=clock, audible=True)
    assert hal.buzzer is not None and hal.buzzer.speaker is None
    hal.buzzer.play(TUNES[Switch16Cue.PENALTY])
    assert hal.buzzer.playing and hal.buzzer.note == "G4"


def test_mute_in_the_config_and_quiet_by_default(clock, mixer) -> None:
    text = REFERENCE_CONFIG.read_text(encoding="utf-8").replace("mute = false", "mute = true")
    muted = SimHal(loads_config(text), clock=clock, audible=True)
    assert muted.buzzer is not None and muted.buzzer.speaker is None
    assert SimHal(clock=clock).buzzer.speaker is None  # tests, the headless demo


def test_mute_option() -> None:
    assert parse_args(["--mute"]).mute and not parse_args([]).mute
