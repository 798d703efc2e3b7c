"""Suite-wide settings: pygame headless (no display, no audio device), no backend or config
from the environment, and the reference build's configuration as a fixture."""

import json
import os
from pathlib import Path

import pytest

from hal.config import REFERENCE_CONFIG, UnitConfig, load_config

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


@pytest.fixture(autouse=True)
def _no_env(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    monkeypatch.delenv("SWITCH16_HAL", raising=False)
    monkeypatch.delenv("SWITCH16_CONFIG", raising=False)
    # the user data directory (the sim's journal, its demo): a fresh one, never the user's
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("data")))


@pytest.fixture
def reference() -> UnitConfig:
    """The reference build's configuration (hardware/unit.toml)."""
    return load_config(REFERENCE_CONFIG)


@pytest.fixture(params=["orjson", "json"])
def json_reader(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Transcripts read with orjson (where it is installed) and with the standard
    library's ``json``, the fallback on a machine without orjson (an armv6 Pi Zero)."""
    if request.param == "json":
        monkeypatch.setattr("firmware.transcript._loads", json.loads)
        monkeypatch.setattr("firmware.transcript._DecodeError", json.JSONDecodeError)
    else:
        pytest.importorskip("orjson")
    return str(request.param)


def demo_dir() -> Path:
    """Where ``sim --headless`` writes without ``--out``: the test's data directory."""
    return Path(os.environ["XDG_DATA_HOME"]) / "switch16" / "sim-demo"


pytest_plugins = ["firmware.link.pytest_plugin"]
