"""luma is used through its public API: no module reads or writes a ``_``-private
attribute of a luma object (a device, its serial interface) except
:mod:`hal.luma_private`, the one adapter for what luma has no public API for."""

from __future__ import annotations

import ast

from .scan import attribute_calls, is_private, private_attributes, python_files

SCANNED = ("hal", "firmware", "sim", "tools", "benchmarks", "tests")
#: The adapter, and this room (its checks spell out what they forbid).
ALLOWED = ("hal/luma_private.py", "tests/kit/")
#: Names that hold a luma device or serial interface in the scanned code.
HELD = {"device", "twin", "serial", "_serial_interface"}


def violations(source: str) -> list[tuple[int, str]]:
    """(line, what) for each private attribute of a luma object named in ``source``:
    ``device._x`` (read or written), ``getattr``/``hasattr``/``setattr(device, "_x")``."""
    tree = ast.parse(source)
    bad = [(node.lineno, f"{ast.unparse(node)} is luma's private")
           for node, owner in private_attributes(tree) if set(owner[-1:]) & HELD]  # fmt: skip
    bad += [(call.lineno, f"{ast.unparse(call)} asks luma's private")
            for call, owner, name in attribute_calls(tree)
            if name is not None and is_private(name) and set(owner[-1:]) & HELD]  # fmt: skip
    return sorted(bad, key=lambda found: found[0])


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
        for rel, path in python_files(SCANNED)
        if not rel.startswith(ALLOWED)
        for line, what in violations(path.read_text(encoding="utf-8"))
    ]
    assert not bad, "\n".join(bad)
