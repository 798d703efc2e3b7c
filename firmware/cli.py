"""The ``switch16`` command: the unit and its tools.

Each subcommand lives in its own module in :mod:`firmware.commands`, or in an installed
game's package's ``commands`` (a game's own tool, e.g. Switch 16's ``odds``), and exposes
``HELP`` (one line), ``register(parser)`` and ``run(args) -> int``. Modules keep
heavy imports (pygame, luma, gpiozero) inside ``run`` so ``switch16 --help`` is fast.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import pkgutil
import sys
from collections.abc import Sequence
from typing import Any

from firmware import commands, package_version


class _Version(argparse.Action):
    """``--version``: the installed version, looked up only when asked for
    (importlib.metadata costs a replay of one file more than the replay)."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS,
                 **kwargs: Any) -> None:  # fmt: skip
        super().__init__(
            option_strings, dest, nargs=0, help="show program's version number and exit"
        )

    def __call__(self, parser: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> None:
        print(f"{parser.prog} {package_version()}")
        parser.exit()


def command_modules() -> dict[str, str]:
    """The subcommands, name -> module, sorted by name (``switch16 NAME`` runs
    ``commands.NAME``, dashes for underscores): the platform's, then each installed game's
    own (its package's ``commands``; a name the platform has stays the platform's)."""
    return dict(sorted((_game_commands() | _platform_commands()).items()))


def command_module(name: str) -> str | None:
    """Subcommand ``name``'s module (None: no such command), found by listing folders:
    the platform's first; the games' registry only for a name the platform has not."""
    if name in (platform := _platform_commands()):
        return platform[name]
    return _game_commands().get(name)


def _platform_commands() -> dict[str, str]:
    return _modules(commands.__name__, commands.__path__)


def _game_commands() -> dict[str, str]:
    """The installed games' own subcommands, name -> module (their ``commands``
    packages listed, not imported)."""
    # lazy: the games' registry reads the installed entry points: only for their commands
    from firmware.games.registry import game_parts

    found: dict[str, str] = {}
    for package in game_parts("commands").values():
        spec = importlib.util.find_spec(package)
        found |= _modules(package, (spec and spec.submodule_search_locations) or [])
    return found


def _modules(package: str, path: Sequence[str]) -> dict[str, str]:
    """The public modules of ``package`` (found on ``path``), name -> module."""
    return {m.name: f"{package}.{m.name}" for m in pkgutil.iter_modules(path) if m.name[0] != "_"}


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The ``switch16`` parser; ``only``: just that subcommand's module (the others, and
    for a platform command the games' registry, are not imported: ``switch16 replay``
    does not load the hardware layer). ValueError: ``only`` is no command."""
    parser = argparse.ArgumentParser(
        prog="switch16", description="Switch 16 game unit: firmware and tools."
    )
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    found = command_modules() if only is None else {only: command_module(only)}
    for name, path in found.items():
        if path is None:
            raise ValueError(f"no switch16 command {name!r}")
        module = importlib.import_module(path)
        command = getattr(module, "NAME", name.replace("_", "-"))
        cmd = sub.add_parser(command, help=module.HELP, description=module.HELP)
        module.register(cmd)
        cmd.set_defaults(_run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    wanted = argv[0].replace("-", "_") if argv and not argv[0].startswith("-") else None
    only = wanted if wanted is not None and command_module(wanted) is not None else None
    args = build_parser(only).parse_args(argv)
    try:
        return int(args._run(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
