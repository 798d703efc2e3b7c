"""docs/ARCHITECTURE.md's picture of the layers is true: every module of the house sits
in one of its rooms, and a room imports at run time only rooms on its own row and the
rows below (imports for type checking aside)."""

from __future__ import annotations

import re
from pathlib import Path

from .scan import ROOT, imports, modules

DOC = ROOT / "docs" / "ARCHITECTURE.md"
#: A room in the picture: a folder (``sim/``), a module (``firmware/api.py``) or some
#: modules of a folder (``firmware/unit/{loop,journal}``).
ROOM = re.compile(r"(?<![\w/.])((?:[a-z0-9_]+/)+(?:\{[a-z0-9_, ]+\}|[a-z0-9_]+\.py)?)")
TOPS = ("firmware", "hal", "sim", "hardware")


def picture() -> list[list[str]]:
    """The picture's rows, top first: each row's rooms (``{…}`` kept as written)."""
    text = DOC.read_text(encoding="utf-8")
    block = text.split("```\n", 2)[1]
    rows = []
    for line in block.splitlines():
        rooms = ROOM.findall(line)
        if rooms:
            rows.append(rooms)
    return rows


def imported(path: Path, known: dict[str, Path]) -> set[str]:
    """The modules of the house ``path`` imports at run time (at the top or lazily, not
    for type checking; relative imports resolved; ``from pkg import mod`` names the module)."""
    found = set()
    for i in imports(path):
        if i.typing_only:
            continue
        if not i.names:
            found.add(i.module)
        found |= {sub if sub in known else i.module for sub in i.submodules()}
    return found


def holds(room: str, path: str) -> int:
    """How specifically ``room`` holds the module ``path`` (0: not at all)."""
    if "{" in room:
        folder, _, names = room.partition("{")
        inside = {f"{folder}{name.strip()}.py" for name in names.rstrip("}").split(",")}
        return len(folder) + 1 if path in inside else 0
    if path == room or (room.endswith("/") and path.startswith(room)):
        return len(room)
    return 0


def where(path: str, rows: list[list[str]]) -> tuple[int, str] | None:
    """The row and room of a module path: its most specific room."""
    best, fit = None, 0
    for index, row in enumerate(rows):
        for room in row:
            if (score := holds(room, path)) > fit:
                best, fit = (index, room), score
    return best


def test_every_module_is_in_the_picture() -> None:
    rows = picture()
    missing = sorted(
        path.relative_to(ROOT).as_posix()
        for path in modules(TOPS).values()
        if where(path.relative_to(ROOT).as_posix(), rows) is None
    )
    assert not missing, "docs/ARCHITECTURE.md's picture has no room for: " + ", ".join(missing)


def test_a_room_imports_only_rooms_below_it() -> None:
    rows = picture()
    known = modules(TOPS)
    bad = []
    for _, path in sorted(known.items()):
        source = path.relative_to(ROOT).as_posix()
        home = where(source, rows)
        for target_name in imported(path, known):
            if target_name not in known:
                continue
            target = known[target_name].relative_to(ROOT).as_posix()
            there = where(target, rows)
            if home is None or there is None or there[0] >= home[0]:
                continue
            bad.append(f"{source} ({home[1]}, row {home[0] + 1}) imports {target} "
                       f"({there[1]}, row {there[0] + 1})")  # fmt: skip
    assert not bad, "\n".join(bad)


def test_the_picture_names_only_what_exists() -> None:
    """A room drawn that holds no module is a picture of another house."""
    paths = [p.relative_to(ROOT).as_posix() for p in modules(TOPS).values()]
    ghosts = [room for row in picture() for room in row if not any(holds(room, p) for p in paths)]
    assert not ghosts, f"rooms with no module: {ghosts}"
