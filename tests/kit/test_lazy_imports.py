"""Imports sit at the top of their module, where the real graph shows; an import inside
a function stays only with a one-line ``# lazy: <reason>`` (start-up on the Zero, an
optional dependency such as pygame, numpy, pyserial, labgrid or matplotlib)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("firmware", "hal", "sim")
MARK = "# lazy:"


def lazy_import_runs(path: Path) -> Iterator[tuple[int, str]]:
    """(line, source) of the first import of every run of imports inside a function or
    class body of ``path`` (a run: import statements one after another)."""
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    for scope in ast.walk(ast.parse(text)):
        if not isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue
        for node in ast.walk(scope):
            for field in ("body", "orelse", "finalbody"):
                previous_import = False
                body = getattr(node, field, None)
                for stmt in body if isinstance(body, list) else []:
                    is_import = isinstance(stmt, ast.Import | ast.ImportFrom)
                    if is_import and not previous_import:
                        yield stmt.lineno, lines[stmt.lineno - 1]
                    previous_import = is_import


def unexplained() -> list[str]:
    """Runs of function-level imports with no ``# lazy:`` on their first line or above it."""
    found = set()
    for top in PACKAGES:
        for path in sorted((ROOT / top).rglob("*.py")):
            lines = path.read_text(encoding="utf-8").splitlines()
            for lineno, source in lazy_import_runs(path):
                above = lines[lineno - 2].strip() if lineno > 1 else ""
                if MARK not in source and not above.startswith(MARK):
                    found.add(f"{path.relative_to(ROOT)}:{lineno}: {source.strip()}")
    return sorted(found)


def test_every_function_level_import_says_why_it_is_lazy() -> None:
    bad = unexplained()
    assert not bad, f"{len(bad)} imports inside functions without '{MARK} <reason>':\n" + "\n".join(
        bad
    )


if __name__ == "__main__":  # the list, to work through
    print("\n".join(unexplained()))
