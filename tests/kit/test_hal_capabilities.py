"""What the firmware, the simulator and the tools need of a HAL beyond the hardware is a
typed capability (``Hal.test_input()``, ``hal.clock.VirtualClock``), never a private
attribute of a backend or a guess by ``hasattr``/``getattr``."""

from __future__ import annotations

import ast

from .scan import attribute_calls, private_attributes, python_files

SCANNED = ("firmware", "sim", "tools")
#: Names that hold a HAL or its clock in the scanned code.
HELD = {"hal", "clock"}


def violations(source: str) -> list[tuple[int, str]]:
    tree = ast.parse(source)
    bad = [(node.lineno, f"reads the HAL's private {node.attr}")
           for node, owner in private_attributes(tree) if owner[-1:] == ["hal"]]  # fmt: skip
    bad += [(call.lineno, f"asks {ast.unparse(call.args[0])} by {ast.unparse(call.func)}")
            for call, owner, _ in attribute_calls(tree, ("hasattr", "getattr"))
            if set(owner[-1:]) & HELD]  # fmt: skip
    return sorted(bad, key=lambda found: found[0])


def test_the_checker_finds_what_it_forbids() -> None:
    source = "a = unit.hal._pin_factory\nb = hasattr(self.unit.clock, 'set')\n"
    source += "c = getattr(hal, '_edge', None)\nd = hal.test_input()\n"
    assert [line for line, _ in violations(source)] == [1, 2, 3]


def test_nothing_outside_hal_guesses_at_a_backend() -> None:
    bad = [
        f"{rel}:{line}: {what}"
        for rel, path in python_files(SCANNED)
        for line, what in violations(path.read_text(encoding="utf-8"))
    ]
    assert not bad, "\n".join(bad)
