"""Backend selection: argument, else $SWITCH16_HAL, else pi; clear errors."""

from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

import hal
from hal.pi import PiHal
from hal.testing import FakeBus


def test_default_env_and_argument(monkeypatch: pytest.MonkeyPatch) -> None:
    assert hal.backend_name() == ("pi", "default")
    monkeypatch.setenv("SWITCH16_HAL", "sim")
    assert hal.backend_name() == ("sim", "$SWITCH16_HAL")
    assert hal.backend_name("pi") == ("pi", "--hal")
    assert hal.resolve_backend("pi") is PiHal


def test_unknown_backend_names_the_source(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SWITCH16_HAL", "arduino")
    with pytest.raises(
        hal.BackendError,
        match=r"unknown HAL backend 'arduino' \(from "
        r"\$SWITCH16_HAL\); choose one of: pi, sim",
    ):
        hal.load_backend()


def test_backend_that_cannot_be_imported(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(hal.BACKENDS, "broken", "hal.no_such_module:Thing")
    with pytest.raises(hal.BackendError, match=r"'broken' .*cannot be loaded: ModuleNotFoundError"):
        hal.resolve_backend("broken")
    with pytest.raises(hal.BackendError, match="AttributeError"):
        hal.resolve_backend("hal.pi:NoSuchHal")


def test_load_pi_backend_from_env(monkeypatch: pytest.MonkeyPatch, reference) -> None:
    monkeypatch.setenv("SWITCH16_HAL", "pi")
    factory = MockFactory(pin_class=MockPWMPin)
    bus = FakeBus()
    bus.attach_config(reference)
    try:
        with bus.installed(), hal.load_backend(None, reference, pin_factory=factory) as unit:
            assert isinstance(unit, PiHal) and len(unit.seats) == 4
            assert isinstance(unit.clock, hal.MonotonicClock)
    finally:
        factory.reset()


def test_add_hal_argument() -> None:
    import argparse

    parser = argparse.ArgumentParser()
    hal.add_hal_argument(parser)
    assert parser.parse_args(["--hal", "sim"]).hal == "sim"
    assert parser.parse_args([]).hal is None
