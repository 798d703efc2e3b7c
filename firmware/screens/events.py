"""Banners for what just happened, found by comparing the state before and after an action.

The unit loop shows the banner for a few seconds (``SeatUi.banner``) and then clears it.
:func:`exchanged` and :func:`penalised` classify a transition; the unit's sound cues
(:mod:`firmware.unit.sounds`) use them too.
"""

from __future__ import annotations

from firmware.engine import COLOURS, Action, NewRound, Place, State


def exchanged(before: State, after: State) -> tuple[int, ...]:
    """The two seats whose decks were just exchanged (a switch), else ()."""
    moved = tuple(s for s in range(after.players) if after.control[s] != before.control[s])
    return moved if len(moved) == 2 else ()


def penalised(before: State, action: Action, after: State) -> int | None:
    """The deck that just lost its discards to a failed risk roll (the penalty), else None.

    The penalty ends a risky turn that discarded nothing: after the roll itself, or after
    declining a green switch, leaving a rolled block, or a block before the first discard.
    """
    if type(action) is NewRound or not before.risk:
        return None
    roller = before.turn
    deck = before.control[roller]
    if after.discarded[deck] < before.discarded[deck] and after.turn != roller:
        return deck
    return None


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
