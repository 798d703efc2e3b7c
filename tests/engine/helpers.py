"""Shared helpers for the engine tests.

``position`` builds a mid-game State directly (deck counts, who controls which deck,
where the chip is) so a test can start right at the rule it checks instead of
playing dozens of rolls to get there. It goes through ``State.from_json``, the
public way to set up a position.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations_with_replacement

from firmware.games.switch16.engine import COLOURS, DISCARD, Face, Roll, State, make_rules
from firmware.games.switch16.engine.dice import can_make

BLANK, GREEN, RED, BLOCK = Face.BLANK, Face.GREEN, Face.RED, Face.BLOCK


def position(
    players: int = 2,
    preset: str = "pressman-2003",
    *,
    options: dict | None = None,
    discarded: Sequence[int] | None = None,
    control: Sequence[int] | None = None,
    turn: int = 0,
    held_by: int | None = None,
    on_deck: int | None = None,
    scores: Sequence[int] | None = None,
) -> State:
    """A position in phase ``roll`` with ``turn`` to move (first roll of its turn).

    ``discarded[d]`` is the count for deck ``d`` (colour ``COLOURS[d]``);
    ``control[s]`` the deck seat ``s`` controls (default: seat s controls deck s).
    The chip is on the table unless ``held_by`` (a seat) or ``on_deck`` (a deck) is set.
    """
    assert held_by is None or on_deck is None
    rules = make_rules(preset, options)
    discarded = list(discarded) if discarded is not None else [0] * players
    control = list(control) if control is not None else list(range(players))
    chip: object = "table"
    if held_by is not None:
        chip = {"held_by": held_by}
    elif on_deck is not None:
        chip = {"on_deck": COLOURS[on_deck]}
    obj = {
        "seats": [{"deck": COLOURS[d], "discarded": discarded[d]} for d in control],
        "chip": chip,
        "turn": turn,
        "phase": "roll",
        "winner": None,
    }
    if scores is not None:
        assert rules.points
        obj["scores"] = list(scores)
    return State.from_json(obj, rules)


def tops(state: State) -> list[int]:
    """Top card of the deck each seat controls, by seat."""
    return [state.top_card(s) for s in range(state.players)]


def decks(state: State) -> list[str]:
    """Colour of the deck each seat controls, by seat."""
    return [COLOURS[state.deck_of(s)] for s in range(state.players)]


def roll(*dice: int, switch: Face = BLANK) -> Roll:
    return Roll(tuple(dice), switch)


def play(state: State, *actions) -> State:
    for action in actions:
        state = state.apply(action)
    return state


def discard_all(state: State) -> State:
    """Apply DISCARD while the engine is in phase ``discard``."""
    while state.phase == "discard":
        state = state.apply(DISCARD)
    return state


def dice_for(n: int, makes: int | None, not_makes: int | None) -> tuple[int, ...]:
    """Some roll of ``n`` dice that makes card ``makes`` but not ``not_makes`` (None: no
    condition)."""
    for dice in combinations_with_replacement(range(1, 7), n):
        if (makes is None or can_make(dice, makes)) and (
            not_makes is None or not can_make(dice, not_makes)
        ):
            return dice
    raise AssertionError(f"no {n}-dice roll makes {makes} without {not_makes}")
