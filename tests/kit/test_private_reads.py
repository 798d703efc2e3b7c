"""Nothing outside the unit and the games reads a unit's controller beyond the seam.

A tool (the link, the simulator, ``firmware.api``, tools/) asks the controller only what
:class:`firmware.games.game.GameController` declares (``ui()`` gives the game's public
UI state), and reads no private (``_name``) attribute of a unit or its controller: any
game's controller then serves it, not only Switch 16's.
"""

from __future__ import annotations

import ast

from .scan import ROOT, attributes, is_private, owner_chain, python_files

#: The rooms that own controllers (their own fields are theirs to read).
OWNERS = ("firmware/unit/", "firmware/games/")
SCANNED = ("firmware", "sim", "tools")
#: Names that hold a unit's controller in the scanned code.
CONTROLLER_NAMES = {"controller", "ctl"}
UNIT_NAMES = {"unit", "controller", "ctl"}


def declared() -> set[str]:
    """The members :class:`GameController` declares."""
    tree = ast.parse((ROOT / "firmware/games/game.py").read_text(encoding="utf-8"))
    proto = next(n for n in tree.body if isinstance(n, ast.ClassDef)
                 and n.name == "GameController")  # fmt: skip
    names = set()
    for node in proto.body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.FunctionDef):
            names.add(node.name)
    return names


def _is_controller(node: ast.expr) -> bool:
    chain = owner_chain(node)
    return bool(chain) and chain[-1] in CONTROLLER_NAMES


def violations(source: str) -> list[tuple[int, str]]:
    """(line, what) for each read the module docstring forbids in ``source``."""
    bad = []
    public = declared()
    for node, chain in attributes(ast.parse(source)):
        if _is_controller(node.value) and node.attr not in public:
            bad.append((node.lineno, f"{'.'.join(chain)}.{node.attr} is not GameController's"))
        elif is_private(node.attr):
            owners = chain[1:] if chain[:1] == ["self"] else chain  # self's own: fine
            if UNIT_NAMES & set(owners):
                bad.append((node.lineno, f"{'.'.join(chain)}.{node.attr} is private"))
    return bad


def test_the_check_sees_a_private_read() -> None:
    assert violations("self.unit.controller.mode.value")
    assert violations("ctl = x\nctl.roll_shown")
    assert violations("self.unit._defaults")
    assert not violations("self.unit.controller.ui().to_json()\nself._later")


def test_nothing_outside_the_unit_reads_its_controller_privately() -> None:
    bad = [f"{rel}:{line}: {what}"
           for rel, path in python_files(SCANNED) if not rel.startswith(OWNERS)
           for line, what in violations(path.read_text(encoding="utf-8"))]  # fmt: skip
    assert not bad, "\n".join(bad)
