"""Backend selection, like gpiozero pin factories: ``--hal``, else $SWITCH16_HAL, else pi.

Backends register as entry points of the group ``switch16.hal`` (``name = "module:Class"``
in ``[project.entry-points."switch16.hal"]`` of their package's ``pyproject.toml``), so this
package names none of them. A backend's module is imported only when it is chosen. A name
with a colon (``module:attr``) loads that factory directly.
"""

from __future__ import annotations

import argparse
import importlib
import os
from importlib import metadata
from typing import Any, Protocol

from hal.clock import Clock
from hal.config import UnitConfig, load_config
from hal.events import EventQueue
from hal.interfaces import Hal

HAL_ENV = "SWITCH16_HAL"
DEFAULT_BACKEND = "pi"
#: The entry-point group backends register in.
ENTRY_POINT_GROUP = "switch16.hal"


class BackendError(RuntimeError):
    """The HAL backend is unknown or cannot be loaded."""


class BackendFactory(Protocol):
    """What a backend entry point loads: a :class:`~hal.interfaces.Hal` class."""

    def __call__(
        self,
        config: UnitConfig,
        *,
        clock: Clock | None = ...,
        events: EventQueue | None = ...,
        **kwargs: Any,
    ) -> Hal: ...


def registered_backends() -> dict[str, str]:
    """The installed backends: name -> ``module:attr`` (entry points of
    :data:`ENTRY_POINT_GROUP`)."""
    return {ep.name: ep.value for ep in metadata.entry_points(group=ENTRY_POINT_GROUP)}


def _choices(names: dict[str, str]) -> str:
    if not names:
        return (
            f"none are registered (no {ENTRY_POINT_GROUP!r} entry points: reinstall "
            "switch16-unit, e.g. pip install -e .)"
        )
    return ", ".join(sorted(names))


def backend_name(name: str | None = None) -> tuple[str, str]:
    """(name, where it came from): the argument, else $SWITCH16_HAL, else the default."""
    if name:
        return name, "--hal"
    if env := os.environ.get(HAL_ENV):
        return env, f"${HAL_ENV}"
    return DEFAULT_BACKEND, "default"


def resolve_backend(name: str | None = None) -> BackendFactory:
    """The backend factory (a class) for a registered name, or a ``module:attr`` spec."""
    name, origin = backend_name(name)
    names = registered_backends()
    spec = name if ":" in name else names.get(name)
    if spec is None:
        raise BackendError(
            f"unknown HAL backend {name!r} (from {origin}); choose one of: {_choices(names)}"
        )
    module_name, _, attr = spec.partition(":")
    try:
        module = importlib.import_module(module_name)
        factory: BackendFactory = getattr(module, attr)
    except (ImportError, AttributeError) as exc:
        raise BackendError(
            f"HAL backend {name!r} ({spec}, from {origin}) cannot be "
            f"loaded: {type(exc).__name__}: {exc}"
        ) from exc
    return factory


def standalone_backend(name: str | None = None) -> str:
    """The chosen backend's name; BackendError for one that needs its host program
    (its class sets :attr:`Hal.hosted <hal.interfaces.Hal.hosted>`). A backend that
    cannot be loaded passes: :func:`load_backend` reports it."""
    chosen, origin = backend_name(name)
    try:
        factory = resolve_backend(chosen)
    except BackendError:
        return chosen
    hosted = getattr(factory, "hosted", None)
    if hosted:
        raise BackendError(f"{hosted} (backend {chosen!r} from {origin})")
    return chosen


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
        help=f"hardware backend: {', '.join(sorted(registered_backends())) or 'none installed'} "
        f"(default: ${HAL_ENV}, else {DEFAULT_BACKEND})",
    )
