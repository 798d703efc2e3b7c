"""Switch 16's controls: the rows of its phases and screens (:data:`CONTROLS`); the
set-up's, a message's and the end screen's (a single game's, a whole match's) are the
platform's (:data:`firmware.unit.controls.CONTROLS`).
CHIP opens the "lay chip on" menu whenever the engine lets the seat lay the chip (a key
with no label: it acts but is not shown)."""

from __future__ import annotations

from firmware.screens import Prompt
from firmware.unit.controls import CHIP, NO, YES, Do, Key, Part, Row, Screen, Situation
from firmware.unit.controls import CONTROLS as UNIT_CONTROLS
from firmware.unit.controls import does as does  # the controller asks its rows here
from firmware.unit.controls import legend as unit_legend

from .engine import ACCEPT, COLOURS, LEAVE, PASS, REFUSE, RISK, TAKE, Phase, State

_LAY = Key(CHIP, "", Do.LAY)
_WAIT = Key(None, "{turn}'s turn")

#: Switch 16's table of the controls: situation -> keys, in legend order.
CONTROLS: dict[Situation, Row] = {
    (Screen.MENU, Part.ANY): (
        Key(CHIP, "next", Do.NEXT),
        Key(YES, "ok", Do.OK),
        Key(NO, "", Do.PREV),
    ),
    (Screen.PLACE, Part.ANY): (
        Key(CHIP, "next", Do.NEXT),
        Key(YES, "lay", Do.OK),
        Key(NO, "", Do.CANCEL),
    ),
    (Screen.ROUND_OVER, Part.ANY): (Key(YES, "continue", Do.GO_ON),),
    (Phase.ROLL, Part.TURN): (Key(None, "Shake or"), Key(YES, "roll", Do.ROLL), _LAY),
    (Phase.DISCARD, Part.TURN): (Key(None, "discarding..."),),
    (Phase.DECIDE, Part.TURN): (Key(YES, "risk", RISK), Key(NO, "pass", PASS), _LAY),
    (Phase.BLOCK, Part.TURN): (Key(YES, "take", TAKE), Key(NO, "leave", LEAVE), _LAY),
    (Phase.GREEN_REFUSAL, Part.TURN): (Key(None, "{answers} answers"), _LAY),
    (Phase.GREEN, Part.TURN): (Key(None, "pick a deck"), _LAY),
    (Phase.RED, Part.TURN): (Key(None, "pick a deck"), _LAY),
    (Phase.GREEN_REFUSAL, Part.NAMED): (
        Key(YES, "refuse", REFUSE),
        Key(NO, "accept", ACCEPT),
        _LAY,
    ),
    (Phase.DISCARD, Part.HOLDER): (Key(CHIP, "block!", Do.BLOCK), Key(None, "{turn}")),
    (Phase.DISCARD, Part.OTHER): (_WAIT,),
    (Phase.GREEN_REFUSAL, Part.HOLDER): (_WAIT, _LAY),
    **{
        (p, Part.HOLDER): (Key(CHIP, "lay chip", Do.LAY),)
        for p in (Phase.ROLL, Phase.DECIDE, Phase.BLOCK, Phase.GREEN, Phase.RED)
    },
    **{
        (p, Part.OTHER): (_WAIT, _LAY)
        for p in (
            Phase.ROLL,
            Phase.DECIDE,
            Phase.BLOCK,
            Phase.GREEN,
            Phase.RED,
            Phase.GREEN_REFUSAL,
        )
    },
}


def situation(state: State, seat: int, menu: bool | None = None) -> Situation:
    """Where ``seat`` is: ``menu`` None when it has no menu up, else whether the menu up
    is the "lay chip on" one."""
    phase = state.phase
    if phase is Phase.OVER:  # a round's end, or the end screen (the unit's keys)
        return (Screen.ROUND_OVER if state.round_pending else Screen.GAME_OVER), Part.ANY
    if menu is not None:
        return (Screen.PLACE if menu else Screen.MENU), Part.ANY
    if seat == state.turn:
        return phase, Part.TURN
    if phase is Phase.GREEN_REFUSAL and seat == state.target:
        return phase, Part.NAMED
    return phase, Part.HOLDER if state.chip_holder == seat else Part.OTHER


def row(state: State, seat: int, menu: bool | None = None) -> Row:
    """The keys of ``seat`` now (see :func:`situation`): Switch 16's row, or the
    platform's (the end screen's)."""
    where = situation(state, seat, menu)
    return CONTROLS.get(where) or UNIT_CONTROLS[where]


def legend(keys: Row, state: State | None = None) -> Prompt:
    """The button line of ``keys``: (button name, label) for each labelled key, the turn's
    colours named from ``state``."""
    if state is None:
        return unit_legend(keys)
    answers = state.phase is Phase.GREEN_REFUSAL
    answering = COLOURS[state.control[state.current_player()]].upper() if answers else ""
    return unit_legend(keys, COLOURS[state.control[state.turn]].upper(), answering)
