"""Swytch's controls, once: what YES, NO and CHIP do for a seat now, and its legend.

The same table shape as Switch 16's (:mod:`firmware.unit.controls`: a situation →
a row of :class:`Key`), so one legend renderer and one test rig read both. A player's
situation is its picker's stage; the keys' ``does`` are picker steps. A button held
down (:data:`HOLD`, :func:`hold`) does its held step instead of its press: CHIP asks for
the bot's hint (the unit answers with ``Picker.hinted``), NO jumps a rank of stacks.
"""

from __future__ import annotations

from collections import deque
from enum import StrEnum

from firmware.unit.controls import CONTROLS as UNIT_CONTROLS
from firmware.unit.controls import END, THINKING, Key, Part, Row, Screen, does
from hal.events import Button

from .actions import Action
from .picker import Picker, Stage, Step

YES, NO, CHIP = Button.YES, Button.NO, Button.CHIP


class Glance(StrEnum):
    """A player's screen that is no stage of its picker."""

    LAST_TURN = "last turn"  #: the opponent's turn shown in full: any press reads it


Situation = tuple[Stage | Screen | Glance, Part]

_BACK = Key(NO, "", Step.BACK)

#: The one table of Swytch's controls: situation -> keys, in legend order.
CONTROLS: dict[Situation, Row] = {
    (Stage.STACK, Part.TURN): (
        Key(CHIP, "▸", Step.NEXT),
        Key(NO, "◂", Step.BACK),
        Key(YES, "pick", Step.CHOOSE),
    ),
    (Glance.LAST_TURN, Part.TURN): (Key(None, "hold"), Key(CHIP, "hint"), Key(NO, "↑")),
    (Stage.OPTION, Part.TURN): (Key(CHIP, "next", Step.NEXT), Key(YES, "ok", Step.CHOOSE), _BACK),
    (Stage.DESTINATION, Part.TURN): (
        Key(CHIP, "next", Step.NEXT),
        Key(YES, "move", Step.CHOOSE),
        _BACK,
    ),
    (Stage.STACK, Part.OTHER): (Key(None, "opponent's turn"),),
    (Stage.STACK, Part.BOT): THINKING,  # the unit's, as in every game
}

#: What a button held down (a long press) does on the player's turn, instead of its press
#: (the controller undoes the press the hold began with).
HOLD: dict[Button, Step] = {CHIP: Step.HINT, NO: Step.RANK}


def row(picker: Picker | None, game_over: bool = False, bot: bool = False,
        reading: bool = False) -> Row:  # fmt: skip
    """The keys of a seat: ``picker`` None when it is not its turn, or (``bot``) when a
    bot plays its turn; ``reading``: its board shows the opponent's last turn."""
    if game_over:
        return UNIT_CONTROLS[END]  # the unit's end screen
    if bot:
        return CONTROLS[Stage.STACK, Part.BOT]
    if picker is None:
        return CONTROLS[Stage.STACK, Part.OTHER]
    if reading and picker.stage is Stage.STACK:
        return CONTROLS[Glance.LAST_TURN, Part.TURN]
    return CONTROLS[picker.stage, Part.TURN]


def press(picker: Picker, button: Button) -> Picker:
    """``picker`` after ``button`` is pressed (unchanged for a button that does nothing)."""
    step = does(row(picker), button)
    return picker.step(step) if isinstance(step, Step) else picker


def hold(picker: Picker, button: Button) -> Picker:
    """``picker`` after ``button`` is held (a long press)."""
    step = HOLD.get(button)
    return picker.step(step) if step is not None else picker


#: A button pressed (False) or held down (True).
Use = tuple[Button, bool]


def presses_for(picker: Picker, action: Action) -> tuple[Button, ...]:
    """The shortest button presses that make ``picker`` yield ``action`` (a test rig's
    way to play a chosen action through the table); LookupError if none does."""
    return tuple(button for button, _ in uses_for(picker, action, holds=False))


def uses_for(picker: Picker, action: Action, holds: bool = True) -> tuple[Use, ...]:
    """The fewest presses and (``holds``) holds, the hint's hold aside, that make
    ``picker`` yield ``action``; LookupError if none do."""
    uses = [(b, False) for b in (YES, CHIP, NO)]
    uses += [(b, True) for b, step in HOLD.items() if holds and step is not Step.HINT]
    seen = {picker}
    todo: deque[tuple[Picker, tuple[Use, ...]]] = deque([(picker, ())])
    while todo:
        p, done = todo.popleft()
        for use in uses:
            q = hold(p, use[0]) if use[1] else press(p, use[0])
            if q.chosen is not None:
                if q.chosen == action:
                    return (*done, use)
            elif q not in seen:
                seen.add(q)
                todo.append((q, (*done, use)))
    raise LookupError(f"no presses pick {action!r} here")
