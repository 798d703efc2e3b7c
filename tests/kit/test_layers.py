"""The rooms of the house import only what is below them (docs/ARCHITECTURE.md)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: package -> prefixes it must not import (directly or lazily inside a function).
FORBIDDEN = {
    # the panels' frame format (size, page order), which the screens draw for too
    "hal/frame.py": ("firmware", "hal", "sim"),
    # seat numbers as people read them: the hardware's seats, the games' and the engine's
    "hardware/seats.py": ("firmware", "hal", "sim"),
    "hal": ("firmware", "sim"),
    "firmware/engine": ("firmware", "hal", "sim"),
    # screens draw for the panels' frame format (``hal.frame``), never for a HAL
    "firmware/screens": ("firmware.unit", "firmware.bots", "firmware.commands",
                         "firmware.selftest", "firmware.odds", "firmware.driver", "hal", "sim"),
    "firmware/bots": ("firmware.unit", "firmware.screens", "firmware.commands", "hal", "sim"),
    "firmware/unit": ("firmware.commands", "sim"),
    "firmware/api.py": ("firmware.commands", "sim"),  # the entry hosts use sits below them
    # the seam's registry is read by the transcript layer: it names games, imports none
    "firmware/games/registry.py": ("firmware", "hal", "sim"),
    # the driver asks players through its own Player protocol: bots sit above it
    "firmware/driver.py": ("firmware.bots", "firmware.unit", "firmware.commands", "hal", "sim"),
    # reading JSON from outside safely: a leaf any room may use, the engine included
    "firmware/jsonsafe.py": ("firmware", "hal", "sim"),
}  # fmt: skip
#: what every room may import (the engine, and the leaf that reads outside JSON safely)
ALLOWED_IN_ENGINE = ("firmware.engine", "firmware.jsonsafe")
#: packages the engine exemption does not cover: they import nothing of the house
NO_EXEMPTION = ("hal/frame.py", "hardware/seats.py", "hal", "firmware/jsonsafe.py")
#: the one module of a forbidden package a room may import
ALLOWED = {"firmware/screens": ("hal.frame",)}


def imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module)
    return names


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_layers(package: str) -> None:
    bad = []
    where = ROOT / package
    for path in [where] if where.is_file() else sorted(where.rglob("*.py")):
        for name in imports(path):
            if name.startswith(ALLOWED_IN_ENGINE) and package not in NO_EXEMPTION:
                continue
            if name in ALLOWED.get(package, ()):
                continue
            if any(name == p or name.startswith(p + ".") for p in FORBIDDEN[package]):
                bad.append(f"{path.relative_to(ROOT)} imports {name}")
    assert not bad, "\n".join(bad)


def test_players_do_not_import_the_statistics() -> None:
    """The bots that play at the table never import self-play, reports or training
    (``firmware/bots/stats/``)."""
    bots = ROOT / "firmware" / "bots"
    bad = [
        f"{path.relative_to(ROOT)} imports {name}"
        for path in sorted(bots.rglob("*.py"))
        if "stats" not in path.relative_to(bots).parts
        for name in imports(path)
        if name.startswith("firmware.bots.stats")
    ]
    assert not bad, "\n".join(bad)


def module_graph() -> dict[str, set[str]]:
    """Every module of firmware, hal and sim -> the modules of these it imports
    (at the top, lazily or for type checking alike; relative imports resolved)."""
    paths = {}
    for top in ("firmware", "hal", "sim"):
        for path in (ROOT / top).rglob("*.py"):
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            paths[name.removesuffix(".__init__")] = path
    graph = {}
    for name, path in paths.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*parts, *([node.module] if node.module else [])])
                found |= {base, *(f"{base}.{alias.name}" for alias in node.names)}
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
        f"{path.relative_to(ROOT)} imports {name}"
        for path in sorted((ROOT / "sim").rglob("*.py"))
        for name in imports(path)
        if (name == "firmware" or name.startswith("firmware.")) and name != HOST_ENTRY
    ]
    assert not bad, "\n".join(bad)
