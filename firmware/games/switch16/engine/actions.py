"""Actions: the moves a transcript records and the engine applies.

Every action is a small frozen value. ``Roll`` is a chance outcome (the dice come
from outside the engine); the rest are decisions of a seat, or of the unit for
``Discard`` (it discards one card after the blocking window).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction


class Face(StrEnum):
    """Faces of the switch die."""

    BLANK = "blank"
    GREEN = "green"
    RED = "red"
    BLOCK = "block"


#: Faces on the six sides of the switch die (2 blank, 2 block, 1 green, 1 red).
SWITCH_DIE: tuple[Face, ...] = (
    Face.BLANK,
    Face.BLANK,
    Face.BLOCK,
    Face.BLOCK,
    Face.GREEN,
    Face.RED,
)
#: Probability of each face of the switch die.
SWITCH_ODDS: dict[Face, Fraction] = {
    face: Fraction(n, len(SWITCH_DIE)) for face, n in Counter(SWITCH_DIE).items()
}


@dataclass(frozen=True, slots=True)
class Roll:
    """The roller's numbered dice and switch face (a chance outcome)."""

    dice: tuple[int, ...]
    switch: Face


@dataclass(frozen=True, slots=True)
class Discard:
    """Discard the top card of the rolling seat's deck (phase ``discard``)."""


@dataclass(frozen=True, slots=True)
class Risk:
    """Roll again this turn (phase ``decide``)."""


@dataclass(frozen=True, slots=True)
class Pass:
    """End the turn and keep the discards (phase ``decide``)."""


@dataclass(frozen=True, slots=True)
class Green:
    """Name a seat to exchange decks with on a green switch, or ``None`` to decline."""

    target: int | None


@dataclass(frozen=True, slots=True)
class Refuse:
    """The named seat's answer to a green switch while holding the chip: refuse it or not."""

    refuses: bool


@dataclass(frozen=True, slots=True)
class Red:
    """On a red switch, pick one of the seats tied for the lowest top card."""

    target: int


@dataclass(frozen=True, slots=True)
class Take:
    """On a rolled block, take the chip off another seat's deck (True) or leave it."""

    takes: bool


@dataclass(frozen=True, slots=True)
class Place:
    """The chip holder ``by`` lays the chip on the deck seat ``on`` controls."""

    by: int
    on: int


@dataclass(frozen=True, slots=True)
class NewRound:
    """Points game: start the next round; ``first`` won the roll-off (a chance outcome)."""

    first: int


Action = Roll | Discard | Risk | Pass | Green | Refuse | Red | Take | Place | NewRound

DISCARD = Discard()
RISK = Risk()
PASS = Pass()
REFUSE = Refuse(True)
ACCEPT = Refuse(False)
TAKE = Take(True)
LEAVE = Take(False)
DECLINE = Green(None)
