"""Actions in words for people: the one phrasing of every action, used by the game
review (``switch16 review``, the end screen) and the simulator's turn log.

A seat is named by a function the caller picks (its deck's colour, ``seat 2``…):
:func:`action_text` says what was done (``risk at 12``, ``green: take BLUE``,
``chip on RED``), :func:`outcome_text` what it led to (`` → switch with seat 2``,
`` → penalty, top 1``), from the engine's facts about the transition.
"""

from __future__ import annotations

from collections.abc import Callable

from .engine import (
    COLOURS,
    Action,
    Discard,
    Face,
    Green,
    NewRound,
    Pass,
    Phase,
    Place,
    Red,
    Refuse,
    Risk,
    Roll,
    State,
    Take,
    exchanged,
    penalised,
)

#: How a text names a seat.
Name = Callable[[int], str]


def deck_names(state: State) -> Name:
    """Seats named by the colour of the deck they control in ``state`` (``BLUE``)."""
    return lambda seat: COLOURS[state.control[seat]].upper()


def action_text(before: State, action: Action, name: Name) -> str:
    """What ``action`` does in ``before``, e.g. ``risk at 12`` or ``red: take BLUE``."""
    top = before.top_card(before.turn)
    if type(action) is Roll:
        return f"roll {' '.join(map(str, action.dice))} +{action.switch}"
    if type(action) is Discard:
        return f"discard {top}"
    if type(action) is Risk:
        return f"risk at {top}"
    if type(action) is Pass:
        return f"pass at {top}"
    if type(action) is Green:
        return "no switch" if action.target is None else f"green: take {name(action.target)}"
    if type(action) is Refuse:
        return "refuse green" if action.refuses else "accept green"
    if type(action) is Red:
        return f"red: take {name(action.target)}"
    if type(action) is Take:
        return "take chip" if action.takes else "leave chip"
    if type(action) is Place:
        return f"chip on {name(action.on)}"
    if type(action) is NewRound:
        return f"new round: {name(action.first)} starts"
    raise TypeError(f"not an action: {action!r}")


def outcome_text(before: State, action: Action, after: State, name: Name) -> str:
    """What ``action`` led to, each part as `` → …`` ('' when nothing to tell): a
    switch, a red roll without one, the chip taken by a rolled block, a penalty."""
    roller = before.turn
    parts = []
    moved = exchanged(before, after)
    if roller in moved:
        parts.append(f"switch with {name(next(s for s in moved if s != roller))}")
    elif type(action) is Roll and action.switch is Face.RED and after.phase is not Phase.RED:
        parts.append("no switch")
    if type(action) is Roll and before.chip_holder != after.chip_holder == roller:
        parts.append("takes the chip")  # a rolled block (a Take says so itself)
    deck = penalised(before, action, after)
    if deck is not None:
        parts.append(f"penalty, top {after.discarded[deck] + 1}")
    return "".join(f" → {part}" for part in parts)
