"""Suite-wide settings: pygame headless (no display, no audio device), no backend or config
from the environment, and the reference build's configuration as a fixture."""

import os

import pytest

from hal.config import REFERENCE_CONFIG, UnitConfig, load_config

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


@pytest.fixture(autouse=True)
def _no_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SWITCH16_HAL", raising=False)
    monkeypatch.delenv("SWITCH16_CONFIG", raising=False)


@pytest.fixture
def reference() -> UnitConfig:
    """The reference build's configuration (hardware/unit.toml)."""
    return load_config(REFERENCE_CONFIG)


pytest_plugins = ["firmware.link.pytest_plugin"]
