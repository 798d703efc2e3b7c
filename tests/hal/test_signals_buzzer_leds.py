"""SIGTERM blanks the displays; buzzer tunes advance from poll; LEDs."""

from __future__ import annotations

import os
import signal

import pytest

from hal.signals import SIGTERM_EXIT_STATUS, exit_on_signals
from hal.testing import MockPi, mock_pi_hal
from tests.hal.conftest import config_from, frame


def test_sigterm_blanks_displays(reference) -> None:
    handler_before = signal.getsignal(signal.SIGTERM)
    with mock_pi_hal(reference) as m:
        with pytest.raises(SystemExit) as info, exit_on_signals(), m.hal:
            for seat in m.hal.seats:
                seat.display.show(frame((0, 0, "playing")))
            assert all(e.lit() > 0 for e in m.displays)
            os.kill(os.getpid(), signal.SIGTERM)
            pytest.fail("SIGTERM did not interrupt")
        assert info.value.code == SIGTERM_EXIT_STATUS
        assert all(e.lit() == 0 and not e.display_on for e in m.displays)
    assert signal.getsignal(signal.SIGTERM) is handler_before


def test_tune_plays_without_blocking(mock: MockPi) -> None:
    buzzer = mock.hal.buzzer
    assert buzzer is not None
    pin = mock.pin(mock.config.buzzer.pin)
    buzzer.play([("A4", 0.1), (None, 0.05), (880.0, 0.2)])
    assert buzzer.playing and round(pin.frequency) == 440 and pin.state > 0
    assert mock.hal.next_deadline() == pytest.approx(0.1)
    mock.advance(0.1)
    assert pin.state == 0  # the rest
    mock.advance(0.05)
    assert round(pin.frequency) == 880 and pin.state > 0
    mock.advance(0.2)
    assert not buzzer.playing and pin.state == 0
    assert mock.hal.next_deadline() is None


def test_tone_out_of_range_is_refused(mock: MockPi) -> None:
    with pytest.raises(ValueError, match="outside the buzzer's range"):
        mock.hal.buzzer.tone("C8", 0.1)
    assert not mock.hal.buzzer.playing


def test_leds_on_seats_without_buzzer() -> None:
    text_replacements = {
        "led = 14\n": "",
        "led = 15\n": "",
        "led = 20\n": "",
        '[buzzer]\npin = 12\nmid_tone = "A4"\noctaves = 2\nmute = false': "",
    }
    config = config_from(text_replacements)
    assert config.buzzer is None
    with mock_pi_hal(config) as m:
        assert m.hal.buzzer is None
        led = m.hal.seats[0].led
        assert led is not None and m.hal.leds[1:] == [None, None, None]
        led.set(True)
        assert led.is_on and m.pin(18).state
        led.set(False)
        assert not m.pin(18).state
