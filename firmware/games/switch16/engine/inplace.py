"""Stepping one private State in place, through the very handlers :meth:`State.apply` uses.

The public engine stays immutable: :meth:`State.apply` copies, then steps the copy.
Replay (the unit's journal at boot, ``switch16 replay``) and self-play
(:func:`firmware.games.switch16.driver.steps`) keep no intermediate state, so they move one private
copy along instead (:func:`thaw`, :func:`apply_in_place`) and hand out a copy at
the end (:func:`freeze`). There is no second rulebook here: each step is the
handler ``apply`` runs.

A handler checks everything before it changes anything, so a step that raises
leaves the private state exactly as it was (the position before the bad action).
"""

from __future__ import annotations

from collections.abc import Callable

from .actions import Action
from .errors import IllegalActionError
from .state import _HANDLERS, State

#: One in-place step: ``step(state, action)`` (the handler of the action's kind).
Step = Callable[[State, Action], None]


def thaw(state: State) -> State:
    """A private copy to change in place (the caller's state is never touched)."""
    return state._copy()


def freeze(state: State) -> State:
    """An immutable copy of a private state, safe to hand out."""
    return state._copy()


def apply_in_place(state: State, action: Action) -> None:
    """``state.apply(action)`` without the copy: a :func:`thaw`-ed state becomes the next
    state (for a driver that keeps no earlier state). An illegal action raises as
    ``apply`` does and leaves ``state`` as it was."""
    step_for(action)(state, action)


def step_for(action: Action) -> Step:
    """The in-place step for ``action``'s kind, to keep beside an action used many times
    (replay's parsed lines); IllegalActionError for a non-action."""
    try:
        step: Step = _HANDLERS[type(action)]
    except KeyError:
        raise IllegalActionError(f"not an action: {action!r}") from None
    return step
