"""Who starts: every player rolls one die, the highest starts, ties roll again (every
game's; the caller passes the random source, as the engines take their dice)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from firmware.kernel.seats import seat_name


def roll_off_leaders(rolls: Mapping[int, int]) -> tuple[int, ...]:
    """Seats that rolled the highest value, ascending.

    One seat: it starts. Several: they roll again among themselves (call again
    with only their new rolls).
    """
    if not rolls:
        raise ValueError("a roll-off needs at least one roll")
    for seat, value in rolls.items():
        if type(value) is not int or not 1 <= value <= 6:
            raise ValueError(f"{seat_name(seat)} rolled {value!r}; a die shows 1..6")
    best = max(rolls.values())
    return tuple(sorted(s for s, v in rolls.items() if v == best))


def roll_off(rng: random.Random, seats: Sequence[int]) -> tuple[int, list[dict[int, int]]]:
    """Every seat rolls one die; tied leaders roll again. Returns (first, rounds rolled)."""
    rounds: list[dict[int, int]] = []
    contenders = tuple(seats)
    while True:
        rolls = {s: rng.randint(1, 6) for s in contenders}
        rounds.append(rolls)
        contenders = roll_off_leaders(rolls)
        if len(contenders) == 1:
            return contenders[0], rounds
