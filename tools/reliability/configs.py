"""Generated unit configs for checking that ``check-config`` and ``run`` agree.

:func:`mutated_configs` derives configs from the reference build by one to three
random edits each (a key removed or added, a value of the wrong type or out of range,
an unknown preset, an empty seat list, a NUL in a path, bytes that are not UTF-8…).
The suite checks a few hundred; ``python3 -m tools.reliability.fuzz_configs`` is the
long form.
"""

from __future__ import annotations

import copy
import random
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import tomli_w

from hal.config import REFERENCE_CONFIG

#: Values a mutation may put anywhere.
ODD_VALUES: tuple[Any, ...] = (
    -1, 0, 1, 2, 3, 5, 27, 28, 255, 256, 10**9, 0.5, -0.5, 1e300, True, False, "", "x",
    "nope", "pressman-2003", "tablier", "a\0b", [], [1], {}, {"a": 1},
)  # fmt: skip


def reference_document() -> dict[str, Any]:
    """The reference build with every game timing key written out (its default), so
    mutations reach those keys too."""
    from firmware.settings import timing_keys

    doc = tomllib.loads(REFERENCE_CONFIG.read_text(encoding="utf-8"))
    timing = _section(doc, "timing")
    for key, spec in timing_keys().items():
        timing.setdefault(key, spec.default)
    return doc


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every key path of a parsed TOML document (dict keys and list indices)."""
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(
        node, list) else ()  # fmt: skip
    for key, value in items:
        path = (*prefix, key)
        yield path
        yield from _paths(value, path)


def _parent(doc: Any, path: tuple[Any, ...]) -> Any:
    for key in path[:-1]:
        doc = doc[key]
    return doc


def _section(doc: dict[str, Any], name: str) -> dict[str, Any]:
    """``doc[name]`` as a table (made one if an earlier edit replaced it)."""
    if not isinstance(doc.get(name), dict):
        doc[name] = {}
    return doc[name]


def mutate(doc: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """One random edit of ``doc`` (a deep copy is changed and returned)."""
    doc = copy.deepcopy(doc)
    paths = list(_paths(doc))
    path = rng.choice(paths)
    parent = _parent(doc, path)
    kind = rng.randrange(8)
    if kind == 0 and isinstance(parent, dict):
        del parent[path[-1]]
    elif kind == 1 and isinstance(parent, dict):
        parent[rng.choice(["extra", "pin", "port", "preset", "dir", "seats"])] = rng.choice(
            ODD_VALUES)  # fmt: skip
    elif kind == 2:
        _section(doc, "rules")["preset"] = rng.choice(
            ["pressman-2003", "playmonster-2022", "tablier", "nope", "pressman-2004", ""]
        )
    elif kind == 3 and isinstance(doc.get("seats"), list):
        doc["seats"] = doc["seats"][: rng.randrange(0, len(doc["seats"]) + 1)]
    elif kind == 4:
        _section(doc, "state")["dir"] = rng.choice(["", " ", "a\0b", "/tmp/\0", "rel/dir"])
    elif kind == 5:
        _section(doc, "unit")["seats"] = rng.choice([0, 1, 2, 3, 4, 5, "4"])
    else:
        parent[path[-1]] = rng.choice(ODD_VALUES)
    return doc


def mutated_configs(seed: int, count: int, state_dir: Path) -> Iterator[bytes]:
    """``count`` config files (as bytes) derived from the reference build.

    Every config's ``[state] dir`` is ``state_dir`` unless a mutation changed it; about
    one in twenty has bytes that are not UTF-8.
    """
    rng = random.Random(seed)
    base = reference_document()
    base["state"] = {"dir": str(state_dir)}
    for _ in range(count):
        doc = base
        for _ in range(rng.randint(1, 3)):
            doc = mutate(doc, rng)
        try:
            data = tomli_w.dumps(doc).encode("utf-8")
        except (TypeError, ValueError):  # e.g. a NUL tomli-w will not write: keep it raw
            data = tomli_w.dumps(base).encode("utf-8").replace(b"preset", b"pre\x00set")
        if rng.random() < 0.05:
            at = rng.randrange(len(data))
            data = data[:at] + bytes([rng.randrange(0x80, 0x100)]) + data[at:]
        yield data
