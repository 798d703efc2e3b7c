"""``switch16 check-config [FILE]``: validate a unit configuration."""

from __future__ import annotations

import argparse
import sys

from firmware.argtypes import nonempty

HELP = "validate a unit configuration (hardware/unit.toml) and print its pin table"


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "file",
        nargs="?",
        default=None,
        type=nonempty,
        help="configuration file (default: $SWITCH16_CONFIG, /etc/switch16/unit.toml, "
        "else the reference hardware/unit.toml)",
    )


def run(args: argparse.Namespace) -> int:
    # lazy: switch16 --help imports every command module: keep that light
    from firmware.settings import load_unit_config
    from hal.config import ConfigError, find_config
    from hal.wiring import format_pin_table

    path = find_config(args.file)
    try:
        config = load_unit_config(path).hardware
    except ConfigError as exc:
        print(f"{path}: {len(exc.errors)} error(s)", file=sys.stderr)
        for error in exc.errors:
            print(f"  {error}", file=sys.stderr)
        return 1
    print(f"{path}: OK ({config.name})")
    print(format_pin_table(config))
    return 0
