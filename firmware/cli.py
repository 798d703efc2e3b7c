"""The ``switch16`` command: the unit and its tools.

Each subcommand lives in its own module in :mod:`firmware.commands` and exposes
``HELP`` (one line), ``register(parser)`` and ``run(args) -> int``. Modules keep
heavy imports (pygame, luma, gpiozero) inside ``run`` so ``switch16 --help`` is fast.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence

from firmware import commands, package_version


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="switch16", description="Switch 16 game unit: firmware and tools."
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {package_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{commands.__name__}.{info.name}")
        name = getattr(module, "NAME", info.name.replace("_", "-"))
        cmd = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.register(cmd)
        cmd.set_defaults(_run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args._run(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
