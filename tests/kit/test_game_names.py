"""Tools ask the game seam, never a game's name (docs/ARCHITECTURE.md): no module
outside a game's package compares a game's name with a literal or ``DEFAULT_GAME``, or
imports a game's package. An AST scan, so a comment or a docstring naming a game is
fine; each allowed line below says why it is there."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from firmware.games.registry import DEFAULT_GAME, game_names

from .scan import ROOT, imports, python_files

#: The rooms scanned: everything that is not a game.
ROOMS = ("firmware", "sim", "tools", "benchmarks", "hal")
#: A game's own package (a module path, or a folder): it may name itself.
GAME_PACKAGES = ("firmware/games/swytch/", "firmware/games/switch16/")
#: The game packages nothing else imports.
GAME_MODULES = ("firmware.games.swytch", "firmware.games.switch16")
#: (module, what it does) -> why it may.
ALLOWED = {
    # the registry lists the default game first (the set-up's game question asks it first)
    ("firmware/games/registry.py", "compares"): "orders the default game first",
    # Swytch's own benchmarks measure Swytch's engine and bots, not the unit
    ("benchmarks/swytch_bots.py", "imports"): "a benchmark of Swytch's bots",
    ("benchmarks/swytch_perft.py", "imports"): "a benchmark of Swytch's move generator",
    # Switch 16's own benchmarks and tools measure or fuzz Switch 16's engine, bots, screens
    ("benchmarks/bots.py", "imports"): "a benchmark of Switch 16's bots",
    ("benchmarks/engine.py", "imports"): "a benchmark of Switch 16's engine",
    ("benchmarks/odds.py", "imports"): "a benchmark of Switch 16's odds",
    ("benchmarks/replay.py", "imports"): "a benchmark of Switch 16's replay",
    ("benchmarks/screens.py", "imports"): "a benchmark of Switch 16's screens",
    ("benchmarks/press_latency.py", "imports"): "Switch 16's press-to-glass latency",
    ("benchmarks/unit_latency.py", "imports"): "Switch 16's controller latency",
    ("tools/link_fuzz.py", "imports"): "fuzzes the link with Switch 16's set-up",
    ("tools/reliability/faults.py", "imports"): "checks Switch 16's frames",
    ("tools/reliability/fuzz_transcripts.py", "imports"): "fuzzes Switch 16's transcripts",
}


def _is_game_name(node: ast.expr, names: frozenset[str]) -> bool:
    """A game's name as a literal (alone or among others) or ``DEFAULT_GAME``."""
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return any(_is_game_name(item, names) for item in node.elts)
    if isinstance(node, ast.Constant) and node.value in names:
        return True
    name = node.id if isinstance(node, ast.Name) else node.attr \
        if isinstance(node, ast.Attribute) else None  # fmt: skip
    return name == "DEFAULT_GAME"


def findings(path: Path, names: frozenset[str],
             root: Path = ROOT) -> Iterator[tuple[int, str, str]]:  # fmt: skip
    """(line, "compares" or "imports", the code) for each use of a game's name."""
    source = path.read_text(encoding="utf-8")
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(_is_game_name(side, names) for side in sides):
                yield node.lineno, "compares", ast.get_source_segment(source, node) or ""
    for found in imports(path, root):
        if found.module.startswith(GAME_MODULES):
            yield found.line, "imports", found.module


def scanned() -> Iterator[Path]:
    for rel, path in python_files(ROOMS):
        if not rel.startswith(GAME_PACKAGES):
            yield path


def test_no_module_outside_a_game_names_one() -> None:
    names = frozenset((*game_names(), DEFAULT_GAME))
    bad = [f"{path.relative_to(ROOT)}:{line}: {what} {code!r}"
           for path in scanned() for line, what, code in findings(path, names)
           if (path.relative_to(ROOT).as_posix(), what) not in ALLOWED]  # fmt: skip
    assert not bad, "a tool asks a game's name, not the seam:\n" + "\n".join(bad)


def test_the_scan_finds_what_it_forbids(tmp_path: Path) -> None:
    names = frozenset(("switch16", "swytch"))
    sample = tmp_path / "firmware" / "games" / "tool.py"
    sample.parent.mkdir(parents=True)
    sample.write_text(
        "from firmware.games.swytch.controls import presses_for\n"
        "import firmware.games.switch16\n"
        "if game.name != DEFAULT_GAME: pass\n"
        "if name == 'swytch': pass\n"
        "if header.game in ('switch16', 'nim'): pass\n"
        "game = obj.get('game', DEFAULT_GAME)\n"
        "if len(x) == 2: pass\n"
        "def f():\n    from .switch16.engine import State\n"
    )
    assert sorted((line, what) for line, what, _ in findings(sample, names, tmp_path)) == [
        (1, "imports"),
        (2, "imports"),
        (3, "compares"),
        (4, "compares"),
        (5, "compares"),
        (9, "imports"),
    ]


def test_every_allowed_line_is_still_needed() -> None:
    names = frozenset((*game_names(), DEFAULT_GAME))
    used = {(p.relative_to(ROOT).as_posix(), what) for p in scanned()
            for _, what, _ in findings(p, names)}  # fmt: skip
    assert set(ALLOWED) <= used, set(ALLOWED) - used
