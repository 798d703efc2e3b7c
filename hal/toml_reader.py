"""A TOML file read key by key: the generic reader under the unit's config.

Each layer reads its own keys from one :class:`ConfigDocument` through typed getters
(:class:`Section`); a bad value is an error line naming its full key (``seat 2.buttons.yes:
expected an integer, got a string ('x')``), and :meth:`ConfigDocument.check` names every
key nobody read (a typo). The schemas live with their layers: the hardware's in
:mod:`hal.config`, the game's in :mod:`firmware.settings`.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: A getter's default meaning "the key is required".
MISSING: Any = object()


class ConfigError(ValueError):
    """Invalid configuration; ``errors`` holds one ``key: message`` line per problem."""

    def __init__(self, errors: list[str], source: Path | None = None) -> None:
        self.errors = errors
        self.source = source
        where = f"{source}: " if source else ""
        super().__init__(f"{where}invalid configuration:\n  " + "\n  ".join(errors))


@dataclass
class ConfigDocument:
    """A parsed config file that each layer reads its own keys from."""

    root: Section
    source: Path | None

    @property
    def errors(self) -> list[str]:
        return self.root.errors

    def check(self, *, complete: bool = True) -> None:
        """Raise :class:`ConfigError` with every error so far. ``complete``: the whole
        file has been read, so every key nobody read is an error too (a typo)."""
        if complete:
            self.root.finish_all()
        if self.errors:
            raise ConfigError(self.errors, self.source)


def read_document(source: Path) -> ConfigDocument:
    """Read and parse the TOML file ``source`` (unreadable, not UTF-8 or bad TOML:
    :class:`ConfigError` naming the line)."""
    try:
        raw = source.read_bytes()
    except OSError as exc:
        raise ConfigError([f"cannot read the file: {exc.strerror or exc}"], source) from exc
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise ConfigError(
            [f"line {line}: not UTF-8 text (byte {exc.start}: 0x{raw[exc.start]:02X})"], source
        ) from None
    return parse_document(text, source)


def parse_document(text: str, source: Path | None = None) -> ConfigDocument:
    """Parse TOML text into a document (syntax errors raise :class:`ConfigError`)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError([f"TOML syntax error: {exc}"], source) from exc
    return ConfigDocument(Section(data, "", []), source)


class Section:
    """A TOML table being validated; records errors with the full key path.

    Typed getters read a key (recording it as read); :meth:`finish` names the keys
    nobody read. A table shared by two layers (the root, ``[timing]``) is finished
    once both have read it, by :meth:`ConfigDocument.check`.
    """

    def __init__(self, data: dict[str, Any], path: str, errors: list[str]) -> None:
        self.data = data
        self.path = path
        self.errors = errors
        self.seen: set[str] = set()
        self.finished = False
        self.children: dict[str, Section] = {}

    def key(self, name: str) -> str:
        return f"{self.path}.{name}" if self.path else name

    def error(self, name: str | None, message: str) -> None:
        self.errors.append(f"{self.key(name) if name else self.path or '(top level)'}: {message}")

    def typed(self, name: str, default: Any, kind: str, check: Callable[[Any], bool]) -> Any:
        """The value of ``name`` if ``check`` passes (else an error naming ``kind``), or
        ``default`` when absent (:data:`MISSING`: the key is required)."""
        self.seen.add(name)
        if name not in self.data:
            if default is MISSING:
                self.error(name, f"missing (expected {kind})")
                return None
            return default
        value = self.data[name]
        if not check(value):
            self.error(name, f"expected {kind}, got {_show(value)}")
            return None
        return value

    def integer(
        self,
        name: str,
        default: Any = MISSING,
        lo: int | None = None,
        hi: int | None = None,
        *,
        hexadecimal: bool = False,
    ) -> Any:
        """``hexadecimal``: the value is an address, written 0x70 in the files and the
        datasheets, and so in the messages."""
        value = self.typed(name, default, "an integer", is_int)
        if value is not None and value is not default and not _in(value, lo, hi):
            show = _hex if hexadecimal else str
            span = _range(*(None if v is None else show(v) for v in (lo, hi)))
            self.error(name, f"{show(value)} is out of range {span}")
            return None
        return value

    def number(
        self, name: str, default: Any = MISSING, lo: float | None = None, hi: float | None = None
    ) -> Any:
        value = self.typed(name, default, "a number", lambda v: is_int(v) or isinstance(v, float))
        if value is not None and value is not default and not _in(value, lo, hi):
            self.error(name, f"{value} is out of range {_range(lo, hi)}")
            return None
        return None if value is None else float(value)

    def boolean(self, name: str, default: Any = MISSING) -> Any:
        return self.typed(name, default, "true or false", lambda v: isinstance(v, bool))

    def string(self, name: str, default: Any = MISSING, choices: tuple[str, ...] = ()) -> Any:
        value = self.typed(name, default, "a string", lambda v: isinstance(v, str))
        if choices and value is not None and value not in choices:
            self.error(name, f"{value!r} is not one of {', '.join(choices)}")
            return None
        return value

    def table(self, name: str, required: bool = True) -> Section | None:
        """The sub-table ``name`` (the same object for every reader of it)."""
        if name in self.children:
            return self.children[name]
        value = self.typed(
            name, MISSING if required else None, "a table", lambda v: isinstance(v, dict)
        )
        if value is None:
            return None
        child = self.children[name] = Section(value, self.key(name), self.errors)
        return child

    def tables(self, name: str, label: Callable[[int], str] | None = None) -> list[Section]:
        """The array of tables ``name``; ``label`` names each in messages (default
        ``name[i]``)."""
        value = self.typed(
            name,
            MISSING,
            "an array of tables ([[seats]])",
            lambda v: isinstance(v, list) and all(isinstance(i, dict) for i in v),
        )
        if value is None:
            return []
        return [
            Section(item, label(i) if label else f"{self.key(name)}[{i}]", self.errors)
            for i, item in enumerate(value)
        ]

    def finish(self) -> None:
        """Every key of this table has been read: name the others as unknown."""
        if self.finished:
            return
        self.finished = True
        for name in self.data:
            if name not in self.seen:
                self.error(name, "unknown key")

    def finish_all(self) -> None:
        """Finish this table and every sub-table read through it."""
        self.finish()
        for child in self.children.values():
            child.finish_all()


def is_int(value: Any) -> bool:
    """An integer (TOML's true and false are not)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _in(value: float, lo: float | None, hi: float | None) -> bool:
    return (lo is None or value >= lo) and (hi is None or value <= hi)


def _hex(value: int) -> str:
    return f"0x{value:02X}" if value >= 0 else f"-0x{-value:02X}"


def _range(lo: object, hi: object) -> str:
    return f"{'' if lo is None else lo}–{'' if hi is None else hi}"


def _show(value: Any) -> str:
    kind = {
        bool: "a boolean",
        int: "an integer",
        float: "a number",
        str: "a string",
        list: "an array",
        dict: "a table",
    }.get(type(value), type(value).__name__)
    return f"{kind} ({value!r})" if not isinstance(value, dict | list) else kind
