"""Positions as JSON: the replay STATE object plus what rebuilds the exact state.

:meth:`State.to_json` with ``full=True`` writes it and :meth:`State.from_json` reads
it back (like a chess FEN): tests and tools build any position from it instead of
playing to it. The plain STATE object of a replay is accepted too; the fields it
lacks take the values of the first roll of a turn.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import SimpleNamespace
from typing import Any, Protocol

from .actions import Face
from .dice import MAKEABLE
from .errors import PositionError, RulesError
from .phase import BLOCK, DECIDE, DISCARD_PHASE, GREEN, GREEN_REFUSAL, OVER, RED, Phase
from .rules import CARDS, COLOURS, MAX_PLAYERS, MIN_PLAYERS, Rules, make_rules

#: Keys of the plain STATE object, then the ones ``full=True`` adds.
STATE_KEYS = ("seats", "chip", "turn", "phase", "winner", "round", "scores", "match_winner")
FULL_KEYS = ("rules", "options", "first", "risk", "dice", "switch", "rolled_discards",
             "refused", "target", "red_choices")  # fmt: skip
_FACES = {f.value: f for f in Face}


class TurnSoFar(Protocol):
    """What :func:`full_fields` reads of a state: its rules and the turn so far."""

    rules: Rules
    players: int
    first: int
    risk: bool
    dice: tuple[int, ...]
    switch: Face | None
    rolled_discards: int
    refused_mask: int
    target: int | None
    red_choices: tuple[int, ...]


def full_fields(state: TurnSoFar) -> dict[str, Any]:
    """What ``to_json(full=True)`` adds to the STATE object."""
    out: dict[str, Any] = {"rules": state.rules.name}
    options = state.rules.options()
    if options:
        out["options"] = options
    out.update(
        first=state.first,
        risk=state.risk,
        dice=list(state.dice),
        switch=None if state.switch is None else state.switch.value,
        rolled_discards=state.rolled_discards,
        refused=[s for s in range(state.players) if state.refused_mask >> s & 1],
        target=state.target,
        red_choices=list(state.red_choices),
    )
    return out


class _Reader:
    """Typed access to one position object; every error names the key."""

    def __init__(self, obj: Mapping[str, Any], players: int) -> None:
        self.obj = obj
        self.players = players

    def fail(self, key: str, why: str) -> PositionError:
        return PositionError(f"position: {key!r} {why}, got {self.obj.get(key)!r}")

    def seat(self, key: str, default: Any = ..., *, optional: bool = False) -> int | None:
        value = self.obj.get(key, default)
        if value is ...:
            raise PositionError(f"position: missing {key!r}")
        if value is None and optional:
            return None
        if type(value) is not int or not 0 <= value < self.players:
            raise self.fail(key, f"must be a seat 0..{self.players - 1}")
        return value

    def seats(self, key: str) -> tuple[int, ...]:
        value = self.obj.get(key, [])
        if type(value) is not list or not all(
            type(s) is int and 0 <= s < self.players for s in value
        ):
            raise self.fail(key, f"must list seats 0..{self.players - 1}")
        return tuple(value)

    def whole(self, key: str, low: int, default: int) -> int:
        value = self.obj.get(key, default)
        if type(value) is not int or value < low:
            raise self.fail(key, f"must be a whole number >= {low}")
        return value


def position_fields(obj: Any, rules: Rules | None = None) -> dict[str, Any]:
    """Every field of the State a position object describes, by name; PositionError
    names what is wrong."""
    if not isinstance(obj, Mapping):
        raise PositionError(f"a position must be a JSON object, got {type(obj).__name__}")
    unknown = sorted(set(obj) - set(STATE_KEYS) - set(FULL_KEYS))
    if unknown:
        raise PositionError(f"position: unknown key {unknown[0]!r}")
    if rules is None:
        try:
            rules = make_rules(obj.get("rules", Rules().name), obj.get("options"))
        except RulesError as exc:
            raise PositionError(f"position: {exc}") from None

    seats = obj.get("seats")
    if type(seats) is not list or not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
        raise PositionError(
            f"position: 'seats' must list {MIN_PLAYERS}..{MAX_PLAYERS} seats, got {seats!r}"
        )
    players = len(seats)
    read = _Reader(obj, players)
    control: list[int] = []
    discarded = [0] * players
    for i, seat in enumerate(seats):
        if not isinstance(seat, Mapping) or set(seat) != {"deck", "discarded"}:
            raise PositionError(f"position: seats[{i}] must have 'deck' and 'discarded'")
        deck = seat["deck"]
        if deck not in COLOURS[:players] or COLOURS.index(deck) in control:
            raise PositionError(
                f"position: seats[{i}].deck must be one of {list(COLOURS[:players])}, "
                f"each once, got {deck!r}"
            )
        gone = seat["discarded"]
        if type(gone) is not int or not 0 <= gone <= CARDS:
            raise PositionError(f"position: seats[{i}].discarded must be 0..{CARDS}, got {gone!r}")
        control.append(COLOURS.index(deck))
        discarded[control[-1]] = gone

    phases = {p.value: p for p in Phase}
    name = obj.get("phase")
    phase = phases.get(name) if isinstance(name, str) else None
    if phase is None:
        raise read.fail("phase", f"must be one of {list(phases)}")

    s = SimpleNamespace()
    s.rules = rules
    s.players = players
    s.control = tuple(control)
    s.discarded = tuple(discarded)
    s.turn = read.seat("turn")
    s.phase = phase
    s.winner = read.seat("winner", None, optional=True)
    s.first = read.seat("first", s.turn)
    _read_chip(s, obj.get("chip"), players)
    _read_roll(s, read, phase)
    _read_points(s, read, rules)
    if (phase is OVER) != (s.winner is not None):
        raise read.fail("winner", "must be a seat exactly when the phase is 'over'")
    return vars(s)


def _read_chip(s: SimpleNamespace, chip: Any, players: int) -> None:
    s.chip_holder = s.chip_deck = None
    if chip == "table":
        return
    if isinstance(chip, Mapping) and set(chip) == {"held_by"}:
        seat = chip["held_by"]
        if type(seat) is int and 0 <= seat < players:
            s.chip_holder = seat
            return
    if isinstance(chip, Mapping) and set(chip) == {"on_deck"} and chip["on_deck"] in COLOURS:
        deck = COLOURS.index(chip["on_deck"])
        if deck < players:
            s.chip_deck = deck
            return
    raise PositionError(
        f'position: \'chip\' must be "table", {{"held_by": seat}} or '
        f'{{"on_deck": colour}}, got {chip!r}'
    )


def _read_roll(s: SimpleNamespace, read: _Reader, phase: Phase) -> None:
    obj = read.obj
    risk = obj.get("risk", False)
    if type(risk) is not bool:
        raise read.fail("risk", "must be true or false")
    s.risk = risk
    dice = obj.get("dice", [])
    if type(dice) is not list or (dice and tuple(dice) not in MAKEABLE):
        raise read.fail("dice", "must list 1..5 dice of 1..6 (or none)")
    s.dice = tuple(dice)
    s.makeable_mask = MAKEABLE[s.dice] if dice else 0
    switch = obj.get("switch")
    if switch is not None and switch not in _FACES:
        raise read.fail("switch", f"must be one of {list(_FACES)} or null")
    s.switch = None if switch is None else _FACES[switch]
    if phase in (DISCARD_PHASE, DECIDE, GREEN, GREEN_REFUSAL, RED, BLOCK) and (
        not dice or switch is None
    ):
        raise PositionError(f"position: phase {phase.value!r} needs the roll's 'dice' and 'switch'")
    s.rolled_discards = read.whole("rolled_discards", 0, 0)
    refused = read.seats("refused")
    s.refused_mask = sum(1 << seat for seat in set(refused))
    s.target = read.seat("target", None, optional=True)
    if (phase is GREEN_REFUSAL) != (s.target is not None):
        raise read.fail("target", "must be a seat exactly in phase 'green_refusal'")
    s.red_choices = read.seats("red_choices")
    if (phase is RED) != bool(s.red_choices):
        raise read.fail("red_choices", "must list the tied seats exactly in phase 'red'")


def _read_points(s: SimpleNamespace, read: _Reader, rules: Rules) -> None:
    obj = read.obj
    if not rules.points:
        for key in ("round", "scores", "match_winner"):
            if key in obj:
                raise PositionError(f"position: {key!r} belongs to a points game only")
        s.scores = None
        s.round = 1
        s.match_winners = None
        return
    s.round = read.whole("round", 1, 1)
    scores = obj.get("scores", [0] * s.players)
    if (
        type(scores) is not list
        or len(scores) != s.players
        or not all(type(x) is int and x >= 0 for x in scores)
    ):
        raise read.fail("scores", f"must list {s.players} whole numbers")
    s.scores = tuple(scores)
    winners = obj.get("match_winner")
    s.match_winners = None if winners is None else read.seats("match_winner") or None
