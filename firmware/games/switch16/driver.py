"""The game driver: bots make the decisions, chance rolls the dice, to the end.

The loop of Switch 16's headless games: the transcript fuzzer, benchmarks and tests;
self-play is the seam's runner (:mod:`firmware.games.selfplay`), stepping in place by
:func:`steps` (:meth:`~firmware.games.switch16.game.Switch16.play_out`). The unit loop
takes the same steps, one at a time on its timers, asking whom :meth:`State.actors`
names: :meth:`Player.interject` for the chip holder, :meth:`Player.decide` for the seat
to move, :func:`~firmware.games.switch16.chance.chance_action` for chance.

    for before, action, after in moves(state, bots, rng):
        ...

:func:`steps` plays the same game without copying a state per action.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Protocol

from .chance import Rng, chance_action
from .engine import Act, Action, Place, State
from .engine.inplace import apply_in_place, thaw

_PLACE, _DECIDE = Act.PLACE, Act.DECIDE


class Player(Protocol):
    """What the driver asks of a seat's player (every bot of :mod:`.bots` is one)."""

    def interject(self, state: State) -> Place | None:
        """A chip placement now, or None (keep the chip); asked when it may lay it."""

    def decide(self, state: State) -> Action:
        """The decision the game waits for from this seat."""


def next_action(state: State, bots: Sequence[Player], rng: Rng) -> Action | None:
    """What happens next: each of :meth:`State.actors` in turn (the chip holder may lay
    the chip, the seat to move decides, chance acts). None once the game is over."""
    for seat, act in state.actors():
        if act is _PLACE:
            place = bots[seat].interject(state)
            if place is not None:
                return place
        elif act is _DECIDE:
            return bots[seat].decide(state)
        else:
            return chance_action(state, rng)
    return None


def moves(
    state: State, bots: Sequence[Player], rng: Rng, max_actions: int | None = None
) -> Iterator[tuple[State, Action, State]]:
    """Play from ``state`` (``bots[s]`` plays seat ``s``): each step as (before, action, after)."""
    count = 0
    while max_actions is None or count < max_actions:
        action = next_action(state, bots, rng)
        if action is None:
            return
        after = state.apply(action)
        yield state, action, after
        state = after
        count += 1


def steps(state: State, bots: Sequence[Player], rng: Rng) -> Iterator[tuple[Action, State]]:
    """The game :func:`moves` plays, action for action, on one private copy of ``state``
    changed in place (self-play's speed): each step as (action, state after it). The
    state yielded is the same object every time and changes on the next step: read what
    you need from it at once, and :func:`~.engine.inplace.freeze` it to keep it. Bots see
    that state too, so a bot must not keep a state between calls (none does; the tests
    play every level both ways)."""
    live = thaw(state)
    while (action := next_action(live, bots, rng)) is not None:
        apply_in_place(live, action)
        yield action, live


def play(
    state: State, bots: Sequence[Player], rng: Rng, max_actions: int | None = None
) -> tuple[State, list[Action]]:
    """Play from ``state`` to the end (or ``max_actions``): the last state and the actions."""
    actions: list[Action] = []
    for _, action, after in moves(state, bots, rng, max_actions):
        actions.append(action)
        state = after
    return state, actions
