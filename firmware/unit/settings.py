"""The unit configuration as the firmware reads it: the hardware config (:mod:`hal.config`)
plus the checks of what only the firmware knows (rules presets, timing limits).

``switch16 run``, ``check-config``, ``selftest`` and the simulator all load through
:func:`load_unit_config`, so ``check-config`` rejects exactly the configs ``run`` would.
"""

from __future__ import annotations

import os

from firmware.engine import PRESETS
from hal.config import ConfigError, UnitConfig, load_config

from .timing import Timing


def game_setting_errors(config: UnitConfig) -> list[str]:
    """Errors, each naming its key, in the settings the firmware reads from a config."""
    errors: list[str] = []
    preset = config.rules.preset
    if preset not in PRESETS:
        errors.append(f"rules.preset: unknown rules preset {preset!r} "
                      f"(one of {', '.join(PRESETS)})")  # fmt: skip
    try:
        Timing.from_config(config.timing)
    except ValueError as exc:
        errors.append(f"timing: {exc}")
    return errors


def load_unit_config(path: str | os.PathLike[str] | None = None) -> UnitConfig:
    """Load and validate a unit config (see :func:`hal.config.find_config`)."""
    config = load_config(path)
    errors = game_setting_errors(config)
    if errors:
        raise ConfigError(errors, config.source)
    return config
