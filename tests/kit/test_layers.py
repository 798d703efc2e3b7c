"""The rooms of the house import only what is below them (docs/ARCHITECTURE.md)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from .scan import ROOT, imports, modules, python_files

#: Every game's own package: the platform below imports none of them (it asks the seam,
#: ``firmware/games/game.py`` and the registry), and no game imports another's.
GAMES = ("firmware.games.switch16", "firmware.games.swytch")
#: The platform: the unit's shell, the screens' widgets, the link, the tools' commands,
#: the host entry, the transcript layer, the HAL and the simulator.
PLATFORM = ("firmware/unit", "firmware/screens", "firmware/link", "firmware/commands",
            "firmware/selftest", "firmware/api.py", "firmware/transcript.py",
            "firmware/settings.py", "firmware/worker.py", "firmware/cli.py",
            "firmware/games/game.py", "firmware/games/registry.py",
            "firmware/games/options.py", "firmware/games/command_line.py",
            "firmware/games/action_log.py", "firmware/games/selfplay.py",
            "firmware/games/reviews.py", "hal", "sim")  # fmt: skip

#: package -> prefixes it must not import (directly or lazily inside a function).
FORBIDDEN = {
    # the panels' frame format (size, page order), which the screens draw for too
    "hal/frame.py": ("firmware", "hal", "sim"),
    # seat numbers as people read them: the hardware's seats, the games' and the engine's
    "hardware/seats.py": ("firmware", "hal", "sim"),
    "hal": ("firmware", "sim"),
    # what every game shares and none owns: errors, who acts, the roll-off
    "firmware/kernel": ("firmware", "hal", "sim"),
    "firmware/games/switch16/engine": ("firmware", "hal", "sim"),
    # screens draw for the panels' frame format (``hal.frame``), never for a HAL
    "firmware/screens": ("firmware.unit", "firmware.commands", "firmware.selftest", "hal", "sim"),
    "firmware/games/switch16/bots": ("firmware.unit", "firmware.screens", "firmware.commands",
                                     "firmware.games.switch16.screens", "hal", "sim"),
    "firmware/unit": ("firmware.commands", "sim"),
    "firmware/api.py": ("firmware.commands", "sim"),  # the entry hosts use sits below them
    # the seam's registry is read by the transcript layer: it names games, imports none
    "firmware/games/registry.py": ("firmware", "hal", "sim"),
    # the driver asks players through its own Player protocol: bots sit above it
    "firmware/games/switch16/driver.py": ("firmware.games.switch16.bots", "firmware.unit",
                                          "firmware.commands", "hal", "sim"),
    # reading JSON from outside safely: a leaf any room may use, the engine included
    "firmware/jsonsafe.py": ("firmware", "hal", "sim"),
    # a game imports the platform, never another game
    "firmware/games/swytch": ("firmware.games.switch16",),
    "firmware/games/switch16": ("firmware.games.swytch",),
}  # fmt: skip
for _room in PLATFORM:
    FORBIDDEN[_room] = (*FORBIDDEN.get(_room, ()), *GAMES)
#: what every room may import (the kernel, and the leaf that reads outside JSON safely)
ALLOWED_EVERYWHERE = ("firmware.kernel", "firmware.jsonsafe")
#: packages the exemption does not cover: they import nothing of the house
NO_EXEMPTION = ("hal/frame.py", "hardware/seats.py", "hal", "firmware/jsonsafe.py")
#: the modules of a forbidden package a room may import (and their modules)
ALLOWED = {
    "firmware/screens": ("hal.frame",),
    "firmware/games/switch16/engine": ("firmware.games.switch16.engine",),
    # for type checking only: the seam's Game, whose games it lists
    "firmware/games/registry.py": ("firmware.games.game",),
}


def imported(path: Path, root: Path = ROOT) -> list[str]:
    """The modules ``path`` imports, at the top or lazily; relative ones resolved."""
    return [found.module for found in imports(path, root)]


def _within(name: str, prefixes: tuple[str, ...]) -> bool:
    """``name`` is one of ``prefixes`` or a module inside one."""
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def crossings(package: str, root: Path = ROOT) -> list[tuple[str, str]]:
    """(file, module) for each import of ``package`` that :data:`FORBIDDEN` forbids."""
    bad = []
    for rel, path in python_files([package], root):
        for name in imported(path, root):
            if _within(name, ALLOWED_EVERYWHERE) and package not in NO_EXEMPTION:
                continue
            if _within(name, ALLOWED.get(package, ())):
                continue
            if _within(name, FORBIDDEN[package]):
                bad.append((rel, name))
    return bad


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_layers(package: str) -> None:
    bad = [f"{path} imports {name}" for path, name in crossings(package)]
    assert not bad, "\n".join(bad)


def test_the_scan_finds_what_it_forbids(tmp_path: Path) -> None:
    """Absolute, lazy and relative imports of a game alike, from the platform or from
    another game."""
    unit = tmp_path / "firmware" / "unit"
    swytch = tmp_path / "firmware" / "games" / "swytch"
    unit.mkdir(parents=True)
    swytch.mkdir(parents=True)
    (unit / "a.py").write_text("from firmware.games.switch16.engine import State\n"
                               "def f():\n    import firmware.games.swytch.game\n")  # fmt: skip
    (unit / "b.py").write_text("from ..games.switch16 import controller\n")
    (swytch / "c.py").write_text("from ..switch16.engine.errors import ChipError\n"
                                 "from firmware.kernel.errors import EngineError\n")  # fmt: skip
    assert crossings("firmware/unit", tmp_path) == [
        ("firmware/unit/a.py", "firmware.games.switch16.engine"),
        ("firmware/unit/a.py", "firmware.games.swytch.game"),
        ("firmware/unit/b.py", "firmware.games.switch16"),
    ]
    assert crossings("firmware/games/swytch", tmp_path) == [
        ("firmware/games/swytch/c.py", "firmware.games.switch16.engine.errors"),
    ]


def test_every_game_is_one_package() -> None:
    """Each registered game is a package of its own under ``firmware/games/`` (the rooms
    above check them by folder), its entry ``firmware.games.<name>:GAME``."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    entries = project["project"]["entry-points"]["switch16.games"]
    assert set(entries) == {game.rpartition(".")[2] for game in GAMES}
    for name, target in entries.items():
        assert target == f"firmware.games.{name}:GAME", name
        assert (ROOT / "firmware" / "games" / name / "__init__.py").is_file(), name
        assert not (ROOT / "firmware" / "games" / f"{name}.py").exists(), name


def test_players_do_not_import_the_statistics() -> None:
    """The bots that play at the table never import self-play, reports or training
    (``firmware/games/switch16/bots/stats/``)."""
    bots = "firmware/games/switch16/bots"
    bad = [
        f"{rel} imports {name}"
        for rel, path in python_files([bots])
        if not rel.startswith(f"{bots}/stats/")
        for name in imported(path)
        if name.startswith("firmware.games.switch16.bots.stats")
    ]
    assert not bad, "\n".join(bad)


def module_graph() -> dict[str, set[str]]:
    """Every module of firmware, hal and sim -> the modules of these it imports
    (at the top, lazily or for type checking alike; relative imports resolved)."""
    paths = modules(("firmware", "hal", "sim"))
    graph = {}
    for name, path in paths.items():
        found = {m for i in imports(path) for m in (i.module, *i.submodules())}
        graph[name] = {m for m in found if m in paths and m != name}
    return graph


def test_no_two_modules_import_each_other() -> None:
    """No file circles (a package and its own modules aside: ``__init__`` gathers them)."""
    graph = module_graph()

    def family(a: str, b: str) -> bool:
        return a.startswith(b + ".") or b.startswith(a + ".")

    circles = sorted(
        f"{a} <-> {b}"
        for a in graph
        for b in graph[a]
        if a < b and a in graph[b] and not family(a, b)
    )
    assert not circles, "\n".join(circles)


#: The one module of firmware a host (the simulator) composes the unit through.
HOST_ENTRY = "firmware.api"


def test_sim_uses_the_firmware_only_through_its_entry() -> None:
    """``sim/`` builds, runs and replays the unit through :mod:`firmware.api` alone."""
    bad = [
        f"{rel} imports {name}"
        for rel, path in python_files(["sim"])
        for name in imported(path)
        if (name == "firmware" or name.startswith("firmware.")) and name != HOST_ENTRY
    ]
    assert not bad, "\n".join(bad)
