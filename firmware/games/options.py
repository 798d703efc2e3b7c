"""A game's set-up options, declared once (OpenSpiel's ``parameter_specification``):
each :class:`Option` says its name, type, allowed values, default and label, and every
tool that starts a game (the link's ``newgame``, a ``.hil`` script's ``newgame`` line,
``sim --option``, ``switch16 selfplay``, a flag the option declares) reads values
through it, naming the option when one is wrong."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from firmware.jsonsafe import short_repr

_TRUE, _FALSE = ("true", "yes", "on", "1"), ("false", "no", "off", "0")


@dataclass(frozen=True, slots=True)
class Option:
    """One set-up option: ``values`` the allowed ones (a range for numbers; None: any
    value of ``kind``, which is ``bool``, ``int`` or ``str``); ``flag``: the tools that
    start a game also take it as ``--NAME VALUE`` (a bool: ``--NAME``), short for
    ``--option NAME=VALUE`` (:mod:`.command_line`)."""

    name: str
    kind: type
    default: Any
    label: str
    values: Sequence[Any] | None = None
    flag: bool = False

    def allowed_text(self) -> str:
        """The allowed values in words: "8..11", "tablier, pressman-2003", "true or false"."""
        if self.kind is bool:
            return "true or false"
        if isinstance(self.values, range):
            return f"{self.values.start}..{self.values.stop - 1}"
        if self.values is None:
            return f"a {self.kind.__name__}"
        return ", ".join(map(str, self.values))

    def check(self, value: Any) -> Any:
        """``value`` if this option takes it (a bool is not a number); else a ValueError
        naming the option and what it takes."""
        if type(value) is not self.kind or (self.values is not None and value not in self.values):
            raise ValueError(
                f"option {self.name!r} must be {self.allowed_text()}, got {short_repr(value)}"
            )
        return value

    def parse(self, text: str) -> Any:
        """A value written as a word (a command line, a script line): "9", "true", "tablier"."""
        value: Any = text
        if self.kind is bool and text.lower() in _TRUE + _FALSE:
            value = text.lower() in _TRUE
        elif self.kind is int:
            with contextlib.suppress(ValueError):  # check names a word that is no number
                value = int(text)
        return self.check(value)


def read_options(options: Sequence[Option], given: Mapping[str, Any], *,
                 words: bool = False) -> dict[str, Any]:  # fmt: skip
    """``given`` (name -> value; ``words``: written as words) checked against a game's
    ``options``; a ValueError names an unknown option (and the game's) or a bad value.
    Options not given are left out: the set-up they change keeps its own."""
    known = {o.name: o for o in options}
    out = {}
    for name, value in given.items():
        option = known.get(name)
        if option is None:
            names = ", ".join(known) or "none"
            raise ValueError(f"unknown option {short_repr(name)} (this game's: {names})")
        out[name] = option.parse(value) if words else option.check(value)
    return out


def option_values(options: Sequence[Option], name: str) -> tuple[Any, ...]:
    """The values option ``name`` of a game's ``options`` takes (none: no such option,
    or any value of its kind)."""
    return next((tuple(o.values) for o in options if o.name == name and o.values is not None), ())


def option_words(words: Sequence[str]) -> dict[str, str]:
    """``key=value`` words as a mapping; a bare word ``key`` means ``key=true`` (a flag)."""
    out = {}
    for word in words:
        key, sep, value = word.partition("=")
        out[key] = value if sep else "true"
    return out
