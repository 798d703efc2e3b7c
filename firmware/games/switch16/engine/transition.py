"""Facts about one transition ``before --action--> after`` that the state alone does not say.

The unit's banners and sound cues use them; so can any tool reading a transcript.
"""

from __future__ import annotations

from .actions import Action, NewRound
from .state import State


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
