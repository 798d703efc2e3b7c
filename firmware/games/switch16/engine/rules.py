"""Rule presets and options (docs/RULES.md, "Presets")."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any, Literal

from .errors import RulesError

DiceFrom = Literal["top", "discarded"]
BlockTake = Literal["choose", "must"]
RefusedChip = Literal["keep", "table", "attacker"]

CARDS = 16
MILESTONE = 8  # card 8 stays discarded in the high penalty band
COLOURS = ("red", "blue", "green", "yellow")
MIN_PLAYERS = 2
MAX_PLAYERS = 4
POINTS_TARGET = 100
DEFAULT_PRESET = "pressman-2003"


@dataclass(frozen=True, slots=True)
class Rules:
    """One preset, possibly with single options overridden.

    - ``dice_from``: ``top`` counts dice from the top card, ``discarded`` from the
      number of discarded cards (tablier).
    - ``penalty_low_max``: a failed risk roll with top card 2..this returns every
      card (top card 1); a higher top card returns down to the milestone (top 9).
    - ``block_take``: with the chip on another seat's deck, a rolled block lets the
      roller ``choose`` to take it, or it ``must``.
    - ``refused_chip``: where a chip used to refuse a green switch goes.
    - ``points``: play the points game to 100 instead of a single round.
    """

    name: str = DEFAULT_PRESET
    dice_from: DiceFrom = "top"
    penalty_low_max: int = 8
    block_take: BlockTake = "choose"
    refused_chip: RefusedChip = "keep"
    points: bool = False

    def dice_count(self, discarded: int) -> int:
        """Numbered dice rolled by a seat whose deck has ``discarded`` cards gone."""
        n = discarded + 1 if self.dice_from == "top" else discarded
        return 3 if n <= 6 else 4 if n <= 11 else 5

    def after_penalty(self, discarded: int) -> int:
        """Discarded count after a failed risk roll (top card = discarded + 1)."""
        if discarded + 1 <= self.penalty_low_max:
            return 0
        return MILESTONE

    def options(self) -> dict[str, Any]:
        """Options that differ from the named preset (for a transcript header)."""
        base = PRESETS[self.name]
        return {
            f.name: getattr(self, f.name)
            for f in fields(self)
            if f.name != "name" and getattr(self, f.name) != getattr(base, f.name)
        }


PRESETS: dict[str, Rules] = {
    rules.name: rules
    for rules in (
        Rules(),
        Rules("playmonster-2022", penalty_low_max=11, block_take="must"),
        Rules("tablier", dice_from="discarded", refused_chip="table"),
    )
}

_CHOICES: dict[str, tuple[Any, ...]] = {
    "dice_from": ("top", "discarded"),
    "penalty_low_max": tuple(range(1, CARDS + 1)),
    "block_take": ("choose", "must"),
    "refused_chip": ("keep", "table", "attacker"),
    "points": (False, True),
}


def make_rules(preset: str = DEFAULT_PRESET, options: Mapping[str, Any] | None = None) -> Rules:
    """The named preset with ``options`` overriding single fields; RulesError names a bad key."""
    try:
        rules = PRESETS[preset]
    except (KeyError, TypeError):
        raise RulesError(
            f"unknown rules preset {preset!r} (expected one of {', '.join(PRESETS)})"
        ) from None
    if options is None:
        return rules
    if not isinstance(options, Mapping):
        raise RulesError(f"rule options must be an object, got {type(options).__name__}")
    for key, value in options.items():
        if key not in _CHOICES:
            raise RulesError(f"unknown rule option {key!r} (known: {', '.join(_CHOICES)})")
        allowed = _CHOICES[key]
        if type(value) is not type(allowed[0]) or value not in allowed:
            raise RulesError(f"rule option {key!r}: {value!r} is not one of {list(allowed)}")
    return replace(rules, **dict(options))
