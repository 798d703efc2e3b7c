"""The rooms of the house import only what is below them (README "Architecture")."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: package -> prefixes it must not import (directly or lazily inside a function).
FORBIDDEN = {
    "hal": ("firmware", "sim"),
    "firmware/engine": ("firmware", "hal", "sim"),
    "firmware/screens": ("firmware.unit", "firmware.bots", "firmware.commands",
                         "firmware.selftest", "firmware.odds", "firmware.driver", "sim"),
    "firmware/bots": ("firmware.unit", "firmware.screens", "firmware.commands", "hal", "sim"),
    "firmware/unit": ("firmware.commands", "sim"),
    # the seam's registry is read by the transcript layer: it names games, imports none
    "firmware/games/registry.py": ("firmware", "hal", "sim"),
    # the driver asks players through its own Player protocol: bots sit above it
    "firmware/driver.py": ("firmware.bots", "firmware.unit", "firmware.commands", "hal", "sim"),
}  # fmt: skip
ALLOWED_IN_ENGINE = ("firmware.engine",)


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
            if name.startswith(ALLOWED_IN_ENGINE):
                continue
            if any(name == p or name.startswith(p + ".") for p in FORBIDDEN[package]):
                bad.append(f"{path.relative_to(ROOT)} imports {name}")
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
