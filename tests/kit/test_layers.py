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
    for path in sorted((ROOT / package).rglob("*.py")):
        for name in imports(path):
            if name.startswith(ALLOWED_IN_ENGINE):
                continue
            if any(name == p or name.startswith(p + ".") for p in FORBIDDEN[package]):
                bad.append(f"{path.relative_to(ROOT)} imports {name}")
    assert not bad, "\n".join(bad)
