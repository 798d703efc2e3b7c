"""luma is used through its public API: no module reads or writes a ``_``-private
attribute of a luma object (a device, its serial interface) except
:mod:`hal.luma_private`, the one adapter for what luma has no public API for."""

from __future__ import annotations

import ast
from pathlib import Path

from .test_private_reads import _names as chain

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("hal", "firmware", "sim", "tools", "benchmarks", "tests")
#: The adapter, and this room (its checks spell out what they forbid).
ALLOWED = ("hal/luma_private.py", "tests/kit/")
#: Names that hold a luma device or serial interface in the scanned code.
HELD = {"device", "twin", "serial", "_serial_interface"}


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def violations(source: str) -> list[tuple[int, str]]:
    """(line, what) for each private attribute of a luma object named in ``source``:
    ``device._x`` (read or written), ``getattr``/``hasattr``/``setattr(device, "_x")``."""
    bad = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and _private(node.attr):
            if set(chain(node.value)[-1:]) & HELD:
                bad.append((node.lineno, f"{ast.unparse(node)} is luma's private"))
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "hasattr", "setattr")
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
            and isinstance(node.args[1].value, str)
            and _private(node.args[1].value)
            and set(chain(node.args[0])[-1:]) & HELD
        ):
            bad.append((node.lineno, f"{ast.unparse(node)} asks luma's private"))
    return bad


def test_the_check_sees_luma_privates() -> None:
    source = "\n".join((
        "device._serial_interface = serial",  # 1: written
        "x = self.device._const.DISPLAYON",  # 2
        "batch = getattr(self.device._serial_interface, 'write_windows', None)",  # 3
        "if hasattr(device, '_page_address_offset'): pass",  # 4
        "w = twin._w",  # 5
        "self._const = controller.luma_const()",  # fine: self's own
        "device.command(1)\nserial.data([1])\nd.device.width",  # fine: public
    ))  # fmt: skip
    assert sorted(line for line, _ in violations(source)) == [1, 2, 3, 4, 5]


def test_nothing_but_the_adapter_reads_luma_privates() -> None:
    bad = [
        f"{rel}:{line}: {what}"
        for top in SCANNED
        for path in sorted((ROOT / top).rglob("*.py"))
        if not (rel := path.relative_to(ROOT).as_posix()).startswith(ALLOWED)
        for line, what in violations(path.read_text(encoding="utf-8"))
    ]
    assert not bad, "\n".join(bad)
