"""Suite-wide settings: pygame headless (no display, no audio device), no backend or config
from the environment, the HAL backends this checkout declares, and the reference build's
configuration as a fixture."""

import os
import tomllib
from collections.abc import Callable, Iterator
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest

from hal.backends import ENTRY_POINT_GROUP
from hal.config import REFERENCE_CONFIG, UnitConfig, load_config

ROOT = Path(__file__).resolve().parents[1]

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


@pytest.fixture(autouse=True)
def _no_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SWITCH16_HAL", raising=False)
    monkeypatch.delenv("SWITCH16_CONFIG", raising=False)


def declared_backends() -> metadata.EntryPoints:
    """The ``switch16.hal`` entry points of this checkout's pyproject.toml."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    table = project["entry-points"][ENTRY_POINT_GROUP]
    return metadata.EntryPoints(
        metadata.EntryPoint(name, value, ENTRY_POINT_GROUP) for name, value in table.items()
    )


@pytest.fixture(autouse=True, scope="session")
def _backends_of_this_checkout() -> Iterator[None]:
    """Entry points are read from the installed metadata, written at install time. Where
    it differs from this checkout's pyproject.toml (an editable install made before the
    backends changed, or of another checkout), the tests see the checkout's backends."""
    declared = declared_backends()
    installed = metadata.entry_points(group=ENTRY_POINT_GROUP)
    if {(e.name, e.value) for e in installed} == {(e.name, e.value) for e in declared}:
        yield
        return
    real: Callable[..., Any] = metadata.entry_points

    def entry_points(**params: Any) -> Any:
        return declared if params.get("group") == ENTRY_POINT_GROUP else real(**params)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(metadata, "entry_points", entry_points)
        yield


@pytest.fixture
def reference() -> UnitConfig:
    """The reference build's configuration (hardware/unit.toml)."""
    return load_config(REFERENCE_CONFIG)
