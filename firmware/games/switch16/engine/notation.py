"""Transcript notation: the header and action objects of docs/TRANSCRIPTS.md <-> engine values.

Pure conversion between already-parsed JSON values (dicts, lists, ints…) and
engine objects. Reading and writing files is :mod:`firmware.transcript`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from firmware.jsonsafe import short_repr
from firmware.kernel.players import seats_from_json

from .actions import (
    DECLINE,
    DISCARD,
    PASS,
    RISK,
    Action,
    Discard,
    Face,
    Green,
    NewRound,
    Pass,
    Place,
    Red,
    Refuse,
    Risk,
    Roll,
    Take,
)
from .errors import MalformedActionError, RulesError
from .rules import DEFAULT_PRESET, MAX_PLAYERS, MIN_PLAYERS, Rules, make_rules
from .state import State

FORMAT_VERSION = 1
_FACES = {f.value: f for f in Face}


@dataclass(frozen=True, slots=True)
class Header:
    """Line 1 of a transcript: who plays, who starts, which rules."""

    players: int
    first: int
    rules: Rules
    #: Optional, for the unit's journal: who plays each seat ("human" or a bot level).
    #: The engine ignores it; a resumed game gets its bots back from it.
    seats: tuple[str, ...] | None = None
    #: The game's name in a transcript's ``game`` key (absent from Switch 16's lines).
    game: ClassVar[str] = "switch16"

    def initial_state(self) -> State:
        return State.new(self.players, self.first, self.rules)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "switch16": FORMAT_VERSION,
            "players": self.players,
            "first": self.first,
            "rules": self.rules.name,
        }
        options = self.rules.options()
        if options:
            out["options"] = options
        if self.seats is not None:
            out["seats"] = list(self.seats)
        return out


def _int(obj: dict[str, Any], key: str, what: str) -> int:
    value = obj.get(key)
    if type(value) is not int:
        raise MalformedActionError(
            f"{what}: {key!r} must be a whole number, got {short_repr(value)}"
        )
    return value


def _bool(obj: dict[str, Any], key: str, what: str) -> bool:
    value = obj.get(key)
    if type(value) is not bool:
        raise MalformedActionError(
            f"{what}: {key!r} must be true or false, got {short_repr(value)}"
        )
    return value


def header_from_json(obj: Any) -> Header:
    """Validate a parsed header line; MalformedActionError names the bad key."""
    if not isinstance(obj, dict):
        raise MalformedActionError(f"header must be a JSON object, got {type(obj).__name__}")
    known = {"game", "switch16", "players", "first", "rules", "options", "seats"}
    extra = sorted(set(obj) - known)
    if extra:
        raise MalformedActionError(f"header: unknown key {short_repr(extra[0])}")
    if obj.get("game", Header.game) != Header.game:
        raise MalformedActionError(
            f"header: 'game' is {short_repr(obj['game'])}, not {Header.game!r}"
        )
    if "switch16" not in obj:
        raise MalformedActionError("header: missing 'switch16' (is this a Switch 16 transcript?)")
    if obj["switch16"] != FORMAT_VERSION or type(obj["switch16"]) is not int:
        raise MalformedActionError(
            f"header: 'switch16' is {short_repr(obj['switch16'])}; "
            f"this unit reads format {FORMAT_VERSION}"
        )
    players = _int(obj, "players", "header")
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise MalformedActionError(f"header: 'players' must be {MIN_PLAYERS}..{MAX_PLAYERS}")
    first = _int(obj, "first", "header")
    if not 0 <= first < players:
        raise MalformedActionError(f"header: 'first' must be a seat 0..{players - 1}")
    preset = obj.get("rules", DEFAULT_PRESET)
    try:
        rules = make_rules(preset, obj.get("options"))
    except RulesError as exc:
        raise MalformedActionError(f"header: {exc}") from None
    return Header(players, first, rules, seats_from_json(obj.get("seats"), players))


def _keys(obj: dict[str, Any], name: str, *keys: str) -> None:
    expected = {"action", *keys}
    if obj.keys() != expected:
        missing = sorted(expected - obj.keys())
        if missing:
            raise MalformedActionError(f"{name}: missing key {missing[0]!r}")
        raise MalformedActionError(
            f"{name}: unknown key {short_repr(sorted(obj.keys() - expected)[0])}"
        )


def action_from_json(obj: Any) -> Action:
    """Validate a parsed action line (shape and types only; legality is the engine's)."""
    if not isinstance(obj, dict):
        raise MalformedActionError(f"an action must be a JSON object, got {type(obj).__name__}")
    name = obj.get("action")
    if name == "roll":
        _keys(obj, "roll", "dice", "switch")
        dice = obj["dice"]
        if type(dice) is not list or not all(type(d) is int for d in dice):
            raise MalformedActionError(
                f"roll: 'dice' must be a list of whole numbers, got {short_repr(dice)}"
            )
        face = _FACES.get(obj["switch"]) if isinstance(obj["switch"], str) else None
        if face is None:
            raise MalformedActionError(
                f"roll: 'switch' must be one of {list(_FACES)}, got {short_repr(obj['switch'])}"
            )
        return Roll(tuple(dice), face)
    if name == "discard":
        _keys(obj, name)
        return DISCARD
    if name == "risk":
        _keys(obj, name)
        return RISK
    if name == "pass":
        _keys(obj, name)
        return PASS
    if name == "green":
        _keys(obj, name, "target")
        return DECLINE if obj["target"] is None else Green(_int(obj, "target", name))
    if name == "refuse":
        _keys(obj, name, "value")
        return Refuse(_bool(obj, "value", name))
    if name == "red":
        _keys(obj, name, "target")
        return Red(_int(obj, "target", name))
    if name == "take":
        _keys(obj, name, "value")
        return Take(_bool(obj, "value", name))
    if name == "place":
        _keys(obj, name, "by", "on")
        return Place(_int(obj, "by", name), _int(obj, "on", name))
    if name == "round":
        _keys(obj, name, "first")
        return NewRound(_int(obj, "first", name))
    raise MalformedActionError(f"unknown action {short_repr(name)}")


def action_to_json(action: Action) -> dict[str, Any]:
    """The transcript object for ``action`` (key order as in docs/TRANSCRIPTS.md)."""
    # Exact types (actions are never subclassed); mypy narrows `type(action) is X`.
    if type(action) is Roll:
        return {"action": "roll", "dice": list(action.dice), "switch": action.switch.value}
    if type(action) is Discard:
        return {"action": "discard"}
    if type(action) is Risk:
        return {"action": "risk"}
    if type(action) is Pass:
        return {"action": "pass"}
    if type(action) is Green:
        return {"action": "green", "target": action.target}
    if type(action) is Refuse:
        return {"action": "refuse", "value": action.refuses}
    if type(action) is Red:
        return {"action": "red", "target": action.target}
    if type(action) is Take:
        return {"action": "take", "value": action.takes}
    if type(action) is Place:
        return {"action": "place", "by": action.by, "on": action.on}
    if type(action) is NewRound:
        return {"action": "round", "first": action.first}
    raise TypeError(f"not an action: {short_repr(action)}")
