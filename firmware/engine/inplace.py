"""An internal fast path for walking a whole transcript: one private State changed in place.

The public engine stays immutable: :meth:`State.apply` copies. Replay (the unit's
journal at boot, ``switch16 replay``) keeps no intermediate state, so it may move one
private copy along instead (:func:`thaw`), through the same handlers ``apply`` uses,
and hand out a copy at the end (:func:`freeze`). :func:`handler_for` gives each
action its in-place step; a roll, the commonest action, is checked once per distinct
action object (the dice and the face) and only its state-dependent part per use.

The results are identical to ``apply`` (tests replay thousands of generated
transcripts both ways). A step that raises may leave the private state half-changed:
callers rebuild the state before the bad action with ``apply`` (the error path only).
"""

from __future__ import annotations

from collections.abc import Callable

from .actions import Action, Face, Roll
from .dice import MAKEABLE
from .errors import IllegalActionError
from .state import _HANDLERS, GREEN, ROLL, State

Step = Callable[[State, Action], None]


def thaw(state: State) -> State:
    """A private copy to change in place (the caller's state is never touched)."""
    return state._copy()


def freeze(state: State) -> State:
    """An immutable copy of a private state, safe to hand out."""
    return state._copy()


def handler_for(action: Action) -> Step:
    """The in-place step for ``action`` (raises IllegalActionError for a non-action)."""
    kind = type(action)
    if kind is Roll:
        return _roll_step(action)  # type: ignore[arg-type]
    handler = _HANDLERS.get(kind)
    if handler is None:
        raise IllegalActionError(f"not an action: {action!r}")
    step: Step = handler
    return step


def _roll_step(action: Roll) -> Step:
    """A roll whose dice and face are valid values gets a step that skips checking them
    again; anything odd goes through the full handler (which raises as ``apply`` does)."""
    dice = action.dice
    mask = MAKEABLE.get(dice) if type(dice) is tuple and all(type(d) is int for d in dice) else None
    face = action.switch
    if mask is None or type(face) is not Face or face is Face.RED:
        full: Step = _HANDLERS[Roll]
        return full
    count = len(dice)
    evaluate = State._evaluate
    rolled_block = State._rolled_block

    def roll(s: State, _: Action) -> None:
        if s.phase is not ROLL or count != s.rules.dice_count(s.discarded[s.control[s.turn]]):
            s._roll(action)  # raises exactly as apply() would
            return
        s.dice = dice
        s.switch = face
        s.makeable_mask = mask
        s.rolled_discards = 0
        if face is Face.BLANK:
            evaluate(s)
        elif face is Face.BLOCK:
            rolled_block(s)
        else:  # green
            s.phase = GREEN
            s.refused_mask = 0

    return roll
