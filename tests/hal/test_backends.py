"""Backend selection: argument, else $SWITCH16_HAL, else pi; clear errors."""

from __future__ import annotations

from importlib import metadata
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

import hal
from hal.pi import PiHal
from hal.testing import FakeBus, MockPi


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
        r"\$SWITCH16_HAL\); choose one of: mock, pi, sim",
    ):
        hal.load_backend()


def registered(monkeypatch: pytest.MonkeyPatch, **backends: str) -> None:
    """Make ``importlib.metadata`` report these ``switch16.hal`` entry points."""
    points = metadata.EntryPoints(
        metadata.EntryPoint(name, value, hal.ENTRY_POINT_GROUP) for name, value in backends.items()
    )
    real = metadata.entry_points

    def entry_points(**params: Any) -> Any:
        return points if params.get("group") == hal.ENTRY_POINT_GROUP else real(**params)

    monkeypatch.setattr(metadata, "entry_points", entry_points)


def test_backends_are_found_as_entry_points(monkeypatch: pytest.MonkeyPatch) -> None:
    registered(monkeypatch, pi="hal.pi:PiHal", mock="hal.testing:MockPi")
    assert hal.registered_backends() == {"pi": "hal.pi:PiHal", "mock": "hal.testing:MockPi"}
    assert hal.resolve_backend("mock") is MockPi
    with pytest.raises(hal.BackendError, match=r"'sim' \(from --hal\); choose one of: mock, pi$"):
        hal.resolve_backend("sim")


def test_no_backends_registered_says_reinstall(monkeypatch: pytest.MonkeyPatch) -> None:
    registered(monkeypatch)
    with pytest.raises(hal.BackendError, match=r"none are registered .*pip install -e \."):
        hal.resolve_backend()


def test_installed_metadata_registers_pi_and_sim() -> None:
    """The installed metadata (the README's install command writes it) lists both."""
    dist = metadata.distribution("switch16-unit")
    found = {ep.name: ep.value for ep in dist.entry_points if ep.group == hal.ENTRY_POINT_GROUP}
    assert found == {
        "pi": "hal.pi:PiHal",
        "sim": "sim.hal:SimHal",
        "mock": "hal.testing:mock_backend",
    }, "the installed metadata is stale: pip install -e ."


def test_hosted_backend_is_refused_standalone(monkeypatch: pytest.MonkeyPatch) -> None:
    assert hal.backends.standalone_backend("pi") == "pi"
    assert hal.backends.standalone_backend("no-such") == "no-such"  # load_backend says why
    with pytest.raises(hal.BackendError, match=r"run `sim` instead .*\(backend 'sim' from --hal\)"):
        hal.backends.standalone_backend("sim")


def test_backend_that_cannot_be_imported(monkeypatch: pytest.MonkeyPatch) -> None:
    registered(monkeypatch, broken="hal.no_such_module:Thing")
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
        with hal.load_backend(None, reference, pin_factory=factory, buses=bus) as unit:
            assert isinstance(unit, PiHal) and len(unit.seats) == 4
            assert isinstance(unit.clock, hal.MonotonicClock)
    finally:
        factory.reset()


def test_add_hal_argument() -> None:
    import argparse

    parser = argparse.ArgumentParser()
    hal.add_hal_argument(parser)
    assert "hardware backend: mock, pi, sim " in " ".join(parser.format_help().split())
    assert parser.parse_args(["--hal", "sim"]).hal == "sim"
    assert parser.parse_args([]).hal is None
