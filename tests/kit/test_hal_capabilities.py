"""What the firmware, the simulator and the tools need of a HAL beyond the hardware is a
typed capability (``Hal.test_input()``, ``hal.clock.VirtualClock``), never a private
attribute of a backend or a guess by ``hasattr``/``getattr``."""

from __future__ import annotations

import ast
from pathlib import Path

from .test_private_reads import _names as chain

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("firmware", "sim", "tools")
#: Names that hold a HAL or its clock in the scanned code.
HELD = {"hal", "clock"}


def violations(source: str) -> list[tuple[int, str]]:
    bad = []
    for node in ast.walk(ast.parse(source)):
        private = isinstance(node, ast.Attribute) and node.attr.startswith("_")
        if private and not node.attr.startswith("__") and chain(node.value)[-1:] == ["hal"]:
            bad.append((node.lineno, f"reads the HAL's private {node.attr}"))
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("hasattr", "getattr")
            and node.args
            and set(chain(node.args[0])[-1:]) & HELD
        ):
            bad.append((node.lineno, f"asks {ast.unparse(node.args[0])} by {node.func.id}"))
    return bad


def test_the_checker_finds_what_it_forbids() -> None:
    source = "a = unit.hal._pin_factory\nb = hasattr(self.unit.clock, 'set')\n"
    source += "c = getattr(hal, '_edge', None)\nd = hal.test_input()\n"
    assert [line for line, _ in violations(source)] == [1, 2, 3]


def test_nothing_outside_hal_guesses_at_a_backend() -> None:
    bad = [
        f"{path.relative_to(ROOT)}:{line}: {what}"
        for top in SCANNED
        for path in sorted((ROOT / top).rglob("*.py"))
        for line, what in violations(path.read_text(encoding="utf-8"))
    ]
    assert not bad, "\n".join(bad)
