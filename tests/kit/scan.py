"""The one AST scan of the house's source the kit's checks share: its Python files and
module names, the modules each file imports, and the attributes it reaches (a private
one read, written or asked by ``getattr``/``hasattr``/``setattr``)."""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def python_files(rooms: Iterable[str], root: Path = ROOT) -> Iterator[tuple[str, Path]]:
    """(path relative to ``root``, path) of every Python file in ``rooms`` (folders or
    files), each room's sorted."""
    for room in rooms:
        where = root / room
        for path in [where] if where.is_file() else sorted(where.rglob("*.py")):
            yield path.relative_to(root).as_posix(), path


def module_name(path: Path, root: Path = ROOT) -> str:
    """The dotted name of the module at ``path`` (a package's ``__init__`` by the package's)."""
    return ".".join(path.relative_to(root).with_suffix("").parts).removesuffix(".__init__")


def modules(tops: Iterable[str], root: Path = ROOT) -> dict[str, Path]:
    """Every module under the folders ``tops`` by its dotted name."""
    return {module_name(path, root): path for _, path in python_files(tops, root)}


@dataclass(frozen=True, slots=True)
class Import:
    """One module an import statement names: ``module`` (a relative one resolved; of
    ``from m import a, b`` the ``m``), the ``names`` taken from it, and whether it is
    relative or inside an ``if TYPE_CHECKING:`` block."""

    line: int
    module: str
    names: tuple[str, ...] = ()
    relative: bool = False
    typing_only: bool = False

    def submodules(self) -> tuple[str, ...]:
        """The modules ``from m import a`` may name: ``m.a`` for each name taken."""
        return tuple(f"{self.module}.{name}" for name in self.names)


def imports_in(source: str, package: str) -> list[Import]:
    """The imports of ``source``, a module of ``package`` (dotted), in the order of an
    AST walk: at the top, lazily inside functions or for type checking alike."""
    tree = ast.parse(source)
    typing_only = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        for inner in ast.walk(node)
    }
    parts = package.split(".") if package else []
    found = []
    for node in ast.walk(tree):
        typing = id(node) in typing_only
        if isinstance(node, ast.Import):
            found += [Import(node.lineno, alias.name, typing_only=typing) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                base = parts[: len(parts) - node.level + 1]
                module = ".".join([*base, *([node.module] if node.module else [])])
            names = tuple(alias.name for alias in node.names)
            found.append(Import(node.lineno, module, names, bool(node.level), typing))
    return found


def imports(path: Path, root: Path = ROOT) -> list[Import]:
    """The imports of the module at ``path`` under ``root`` (:func:`imports_in`)."""
    name = module_name(path, root)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    return imports_in(path.read_text(encoding="utf-8"), package)


def is_private(name: str) -> bool:
    """``_name``, not ``__dunder__``."""
    return name.startswith("_") and not name.startswith("__")


def owner_chain(node: ast.expr) -> list[str]:
    """The names along an attribute chain (``self.unit.controller`` -> self, unit, controller)."""
    out = []
    while isinstance(node, ast.Attribute):
        out.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        out.append(node.id)
    return out[::-1]


def attributes(tree: ast.AST) -> Iterator[tuple[ast.Attribute, list[str]]]:
    """Every ``owner.attr`` in ``tree`` (read or written) with its owner's chain."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            yield node, owner_chain(node.value)


def private_attributes(tree: ast.AST) -> Iterator[tuple[ast.Attribute, list[str]]]:
    """Every ``owner._private`` in ``tree`` (read or written) with its owner's chain."""
    return ((node, owner) for node, owner in attributes(tree) if is_private(node.attr))


def attribute_calls(tree: ast.AST, functions: Iterable[str] = ("getattr", "hasattr", "setattr"),
                    ) -> Iterator[tuple[ast.Call, list[str], str | None]]:  # fmt: skip
    """Each call of one of ``functions`` (``getattr(owner, "name")``): the call, its
    owner's chain and the attribute it names (None: not a string written out)."""
    wanted = set(functions)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id in wanted and node.args:  # fmt: skip
            named = node.args[1] if len(node.args) > 1 else None
            text = named.value if isinstance(named, ast.Constant) else None
            yield node, owner_chain(node.args[0]), text if isinstance(text, str) else None
