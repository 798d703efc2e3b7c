"""Dice arithmetic: which card numbers a roll can make, from precomputed tables.

A card ``c`` can be discarded when ``c`` is the value of one die or the sum of
any set of the rolled dice. Every roll of 1..5 dice (ordered, as it comes off
the table) is looked up in a table built once at import, so the engine never
enumerates subsets while playing.

Masks are ints with bit ``c`` set when card ``c`` (1..16) can be made.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from itertools import product

from .rules import CARDS

MIN_DICE = 1
MAX_DICE = 5
FACES = (1, 2, 3, 4, 5, 6)
ALL_CARDS_MASK = ((1 << (CARDS + 1)) - 1) & ~1  # bits 1..16


def _subset_sum_mask(dice: tuple[int, ...]) -> int:
    reachable = 1  # bit 0: the empty set
    for die in dice:
        reachable |= reachable << die
    return reachable & ALL_CARDS_MASK


def _build() -> dict[tuple[int, ...], int]:
    table: dict[tuple[int, ...], int] = {}
    for n in range(MIN_DICE, MAX_DICE + 1):
        for roll in product(FACES, repeat=n):
            key = tuple(sorted(roll))
            mask = table.get(key)
            if mask is None:
                mask = _subset_sum_mask(key)
            table[roll] = mask
    return table


#: Every ordered roll of 1..5 dice -> mask of makeable cards.
MAKEABLE: dict[tuple[int, ...], int] = _build()


@cache
def roll_ways(n_dice: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Each distinct roll of ``n_dice`` (ascending) with how many of the ``6**n_dice``
    ordered rolls give it. The order of the dice never changes the game.

    >>> roll_ways(1)[:2]
    (((1,), 1), ((2,), 1))
    >>> sum(ways for _, ways in roll_ways(3)) == 6**3
    True
    """
    if not MIN_DICE <= n_dice <= MAX_DICE:
        raise ValueError(f"dice count must be {MIN_DICE}..{MAX_DICE}, got {n_dice!r}")
    counts = Counter(tuple(sorted(roll)) for roll in product(FACES, repeat=n_dice))
    return tuple(sorted(counts.items()))


def makeable_mask(dice: tuple[int, ...]) -> int:
    """Bit ``c`` is set when card ``c`` can be made from ``dice`` (a tuple of 1..5 faces)."""
    return MAKEABLE[dice]


def can_make(dice: tuple[int, ...], card: int) -> bool:
    """True when ``card`` is one die's value or the sum of some of ``dice``."""
    return bool(MAKEABLE[dice] >> card & 1)


def run_length(mask: int, top: int) -> int:
    """How many cards in a row, starting at ``top``, the mask lets a deck discard."""
    count = 0
    while top <= CARDS and mask >> top & 1:
        count += 1
        top += 1
    return count


def cards_in(mask: int) -> list[int]:
    """The card numbers set in ``mask``, ascending."""
    return [c for c in range(1, CARDS + 1) if mask >> c & 1]
