""":class:`~firmware.unit.loop.Unit` is composed of parts, not mixins sharing privates:
it inherits from nothing, every class of its modules reads only the fields it sets
(a mixin reads the ones another class sets), and no part reads another's private
fields (``self.rolls._ahead``): they talk through their typed public interfaces."""

from __future__ import annotations

import ast

from .scan import ROOT, attribute_calls, is_private, owner_chain, private_attributes

#: The unit's loop and its parts.
PARTS = ("loop", "execute", "rolls", "reviews", "thinking", "refresh", "table")


def _is_dataclass_or_protocol(cls: ast.ClassDef) -> bool:
    decorated = any("dataclass" in ast.unparse(d) for d in cls.decorator_list)
    return decorated or any(ast.unparse(b) == "Protocol" for b in cls.bases)


def _own(cls: ast.ClassDef) -> set[str]:
    """What a class sets itself: its methods and class attributes (a dataclass's or
    protocol's fields), and every ``self.x = ...`` of its methods."""
    names = set()
    for node in cls.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        elif (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Name)
            and (node.value is not None or _is_dataclass_or_protocol(cls))
        ):  # (a bare annotation declares a field another class sets: a mixin's)
            names.add(node.target.id)
    stored = (n for n in ast.walk(cls) if isinstance(n, ast.Attribute)
              and isinstance(n.ctx, ast.Store))  # fmt: skip
    return names | {n.attr for n in stored if owner_chain(n.value) == ["self"]}


def violations(source: str) -> list[tuple[int, str]]:
    """(line, what) for each thing the module docstring forbids in ``source``."""
    bad = []
    tree = ast.parse(source)
    for cls in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)):
        if cls.name == "Unit" and cls.bases:
            bases = ", ".join(map(ast.unparse, cls.bases))
            bad.append((cls.lineno, f"Unit inherits ({bases}): compose parts instead"))
        own = _own(cls)
        loaded = (n for n in ast.walk(cls) if isinstance(n, ast.Attribute)
                  and isinstance(n.ctx, ast.Load) and owner_chain(n.value) == ["self"])  # fmt: skip
        bad += [(n.lineno, f"{cls.name} reads self.{n.attr}, not its own")
                for n in loaded if n.attr not in own]  # fmt: skip
    bad += [(node.lineno, f"{ast.unparse(node)} is another's private")
            for node, owner in private_attributes(tree)
            if owner not in (["self"], ["cls"])]  # fmt: skip
    bad += [(call.lineno, f"{ast.unparse(call)} asks another's private")
            for call, _, name in attribute_calls(tree)
            if name is not None and is_private(name)]  # fmt: skip
    return sorted(bad, key=lambda found: found[0])


def test_the_check_sees_mixins_and_cross_part_reads() -> None:
    mixin = "class Rolls:\n    game: Game\n    def roll(self):\n        return self.game\n"
    unit = "class Unit(Rolls, Refresh):\n    pass\n"
    cross = "class Unit:\n    def f(self):\n        self.x = 1\n        return self.rolls._ahead\n"
    asked = "def f(part):\n    return getattr(part, '_ahead')\n"
    assert [line for line, _ in violations(mixin)] == [4]
    assert [line for line, _ in violations(unit)] == [1]
    assert [what for _, what in violations(cross)] == [
        "Unit reads self.rolls, not its own", "self.rolls._ahead is another's private"
    ]  # fmt: skip
    assert [line for line, _ in violations(asked)] == [2]
    part = "class Rolls:\n    def __init__(self):\n        self._ahead = None\n"
    part += "    @property\n    def ahead(self):\n        return self._ahead\n"
    assert violations(part) == []


def test_the_unit_is_composed_of_parts() -> None:
    bad = []
    for name in PARTS:
        path = ROOT / "firmware" / "unit" / f"{name}.py"
        bad += [f"{path.relative_to(ROOT)}:{line}: {what}"
                for line, what in violations(path.read_text(encoding="utf-8"))]  # fmt: skip
    assert not bad, "\n".join(bad)
