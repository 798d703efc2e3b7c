"""Banners for what just happened, found by comparing the state before and after an action.

The unit loop shows the banner for a few seconds (``SeatUi.banner``) and then clears it.
The engine's :func:`~.engine.exchanged` and :func:`~.engine.penalised`
classify the transition; the sound cues (:mod:`firmware.unit.sounds`) use them too.
"""

from __future__ import annotations

from dataclasses import dataclass

from .engine import (
    COLOURS,
    Action,
    Face,
    Pass,
    Place,
    Roll,
    State,
    exchanged,
    penalised,
)


def banners(before: State, action: Action, after: State) -> dict[int, tuple[str, ...]]:
    """Every seat's banner lines for one transition (seats with none left out)."""
    if (
        type(action) is not Place
        and not before.risk  # no penalty
        and before.control == after.control  # no switch
        and before.chip_holder == after.chip_holder
    ):
        return {}  # the common case (a roll, a discard, a pass), decided once for all seats
    return {s: b for s in range(after.players) if (b := banner_for(before, action, after, s))}


def banner_for(before: State, action: Action, after: State, seat: int) -> tuple[str, ...]:
    """1–2 banner lines for ``seat`` after ``action`` turned ``before`` into ``after``."""
    if type(action) is Place:
        if action.on == seat:
            return ("BLOCKED!", f"by {before.colour_of(action.by).upper()}")
        return ("CHIP LAID", f"on {before.colour_of(action.on).upper()}")
    if moved := exchanged(before, after):
        a, b = (COLOURS[before.control[s]] for s in moved)
        if seat in moved:
            return ("SWITCH!", f"now {after.colour_of(seat).upper()}")
        return ("SWITCH", f"{a}↔{b}")
    deck = penalised(before, action, after)
    if deck is not None:
        top = after.discarded[deck] + 1
        if seat == before.turn:
            return ("PENALTY", f"back to {top}")
        return ("PENALTY", f"{COLOURS[deck]} → {top}")
    if before.chip_holder != after.chip_holder and after.chip_holder == seat:
        return ("GOT CHIP",)
    return ()


@dataclass(frozen=True, slots=True)
class RollShown:
    """A roll that ended its turn, kept on every display until it is read: the roller,
    the roll (dice, switch face) and what came of it, one line for every display
    ("BLUE: no match", "BLUE: penalty to 1", "RED: takes BLUE", "BLUE: blocked"); plain
    words, no arrows: the simulator's centre shows it too."""

    seat: int
    dice: tuple[int, ...]
    switch: str | None
    outcome: str


def turn_end(before: State, action: Action, after: State) -> RollShown | None:
    """The roll to keep showing when ``action`` ended a turn that rolled (a roll that made
    no card, a penalty, a switch, a chip laid on the roller), else None (a pass, the
    game's end, a turn still going)."""
    if after.turn == before.turn or after.game_over or type(action) is Pass:
        return None
    if type(action) is Roll:
        dice, face = action.dice, action.switch
    elif before.switch is not None:
        dice, face = before.dice, before.switch
    else:
        return None
    who = before.colour_of(before.turn).upper()
    if moved := exchanged(before, after):
        other = next(s for s in moved if s != before.turn)
        outcome = f"{who}: takes {before.colour_of(other).upper()}"
    elif (deck := penalised(before, action, after)) is not None:
        outcome = f"{who}: penalty to {after.discarded[deck] + 1}"
    elif type(action) is Place:
        outcome = f"{who}: blocked"
    elif face is Face.RED:
        outcome = f"{who}: no switch"
    else:
        outcome = f"{who}: no match"
    return RollShown(before.turn, tuple(dice), str(face), outcome)
