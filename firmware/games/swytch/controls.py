"""Swytch's controls, once: what YES, NO and CHIP do for a seat now, and its legend.

The same table shape as Switch 16's (:mod:`firmware.unit.controls`: a situation →
a row of :class:`Key`), so one legend renderer and one test rig read both. A player's
situation is its picker's stage; the keys' ``does`` are picker steps. Held, CHIP asks
for the bot's hint (:data:`HOLD`, :func:`hold`; the unit answers with ``Picker.hinted``).
"""

from __future__ import annotations

from collections import deque

from firmware.unit.controls import Do, Key, Part, Row, Screen, does
from hal.events import Button

from .actions import Action
from .picker import Picker, Stage, Step

YES, NO, CHIP = Button.YES, Button.NO, Button.CHIP

Situation = tuple[Stage | Screen, Part]

_BACK = Key(NO, "", Step.BACK)

#: The one table of Swytch's controls: situation -> keys, in legend order.
CONTROLS: dict[Situation, Row] = {
    (Stage.STACK, Part.TURN): (Key(CHIP, "next", Step.NEXT), Key(YES, "pick", Step.CHOOSE), _BACK),
    (Stage.OPTION, Part.TURN): (Key(CHIP, "next", Step.NEXT), Key(YES, "ok", Step.CHOOSE), _BACK),
    (Stage.DESTINATION, Part.TURN): (
        Key(CHIP, "next", Step.NEXT),
        Key(YES, "move", Step.CHOOSE),
        _BACK,
    ),
    (Stage.STACK, Part.OTHER): (Key(None, "opponent's turn"),),
    (Stage.STACK, Part.BOT): (Key(None, "thinking…"),),
    (Screen.GAME_OVER, Part.ANY): (Key(YES, "rematch", Do.GO_ON), Key(NO, "new", Do.BACK)),
}

#: What a button held down (a long press) does on the player's turn.
HOLD: dict[Button, Step] = {CHIP: Step.HINT}


def row(picker: Picker | None, game_over: bool = False, bot: bool = False) -> Row:
    """The keys of a seat: ``picker`` None when it is not its turn, or (``bot``) when a
    bot plays its turn."""
    if game_over:
        return CONTROLS[Screen.GAME_OVER, Part.ANY]
    if bot:
        return CONTROLS[Stage.STACK, Part.BOT]
    if picker is None:
        return CONTROLS[Stage.STACK, Part.OTHER]
    return CONTROLS[picker.stage, Part.TURN]


def press(picker: Picker, button: Button) -> Picker:
    """``picker`` after ``button`` is pressed (unchanged for a button that does nothing)."""
    step = does(row(picker), button)
    return picker.step(step) if isinstance(step, Step) else picker


def hold(picker: Picker, button: Button) -> Picker:
    """``picker`` after ``button`` is held (a long press)."""
    step = HOLD.get(button)
    return picker.step(step) if step is not None else picker


def presses_for(picker: Picker, action: Action) -> tuple[Button, ...]:
    """The shortest button presses that make ``picker`` yield ``action`` (a test rig's
    way to play a chosen action through the table); LookupError if none does."""
    seen = {picker}
    todo: deque[tuple[Picker, tuple[Button, ...]]] = deque([(picker, ())])
    while todo:
        p, done = todo.popleft()
        for button in (YES, CHIP, NO):
            q = press(p, button)
            if q.chosen is not None:
                if q.chosen == action:
                    return (*done, button)
            elif q not in seen:
                seen.add(q)
                todo.append((q, (*done, button)))
    raise LookupError(f"no presses pick {action!r} here")
