"""Backend selection, like gpiozero pin factories: ``--hal``, else $SWITCH16_HAL, else pi."""

from __future__ import annotations

import argparse
import importlib
import os
from typing import Any

from hal.clock import Clock
from hal.config import UnitConfig, load_config
from hal.events import EventQueue
from hal.interfaces import Hal

HAL_ENV = "SWITCH16_HAL"
DEFAULT_BACKEND = "pi"
#: name -> "module:factory". Modules are imported only when chosen.
BACKENDS: dict[str, str] = {
    "pi": "hal.pi:PiHal",
    "sim": "sim.hal:SimHal",
}


#: Backends that only run inside their own program, and the command to use instead.
HOSTED: dict[str, str] = {
    "sim": "the sim backend draws into the simulator's window: run `sim` instead "
    "(`sim --headless` for a bot demo without a window)",
}


class BackendError(RuntimeError):
    """The HAL backend is unknown or cannot be loaded."""


def standalone_backend(name: str | None = None) -> str:
    """The chosen backend's name; BackendError for one that needs its host program."""
    chosen, origin = backend_name(name)
    if chosen in HOSTED:
        raise BackendError(f"{HOSTED[chosen]} (backend {chosen!r} from {origin})")
    return chosen


def backend_name(name: str | None = None) -> tuple[str, str]:
    """(name, where it came from): the argument, else $SWITCH16_HAL, else the default."""
    if name:
        return name, "--hal"
    if env := os.environ.get(HAL_ENV):
        return env, f"${HAL_ENV}"
    return DEFAULT_BACKEND, "default"


def resolve_backend(name: str | None = None) -> Any:
    """The backend factory (a class) for a name, or a ``module:attr`` spec."""
    name, origin = backend_name(name)
    spec = name if ":" in name else BACKENDS.get(name)
    if spec is None:
        raise BackendError(
            f"unknown HAL backend {name!r} (from {origin}); "
            f"choose one of: {', '.join(sorted(BACKENDS))}"
        )
    module_name, _, attr = spec.partition(":")
    try:
        module = importlib.import_module(module_name)
        return getattr(module, attr)
    except (ImportError, AttributeError) as exc:
        raise BackendError(
            f"HAL backend {name!r} ({spec}, from {origin}) cannot be "
            f"loaded: {type(exc).__name__}: {exc}"
        ) from exc


def load_backend(
    name: str | None = None,
    config: UnitConfig | None = None,
    *,
    clock: Clock | None = None,
    events: EventQueue | None = None,
    **kwargs: Any,
) -> Hal:
    """Build the chosen backend for ``config`` (default: :func:`hal.config.load_config`)."""
    factory = resolve_backend(name)
    return factory(config or load_config(None), clock=clock, events=events, **kwargs)


def add_hal_argument(parser: argparse.ArgumentParser) -> None:
    """Add ``--hal NAME`` to a command's parser."""
    parser.add_argument(
        "--hal",
        metavar="NAME",
        default=None,
        help=f"hardware backend: {', '.join(sorted(BACKENDS))} "
        f"(default: ${HAL_ENV}, else {DEFAULT_BACKEND})",
    )
