"""Controls, once: what YES, NO and CHIP do for a seat now, and what its legend says.

:data:`CONTROLS` maps a situation (a phase and the seat's part in it, or a screen: the
set-up, an open menu, the end of a game) to its :class:`Key` row. The controller acts on
the row (:func:`does`), the screens draw its labelled keys as the button line
(:func:`legend`) and a test rig finds the button for what it wants done
(:func:`button_for`). Keys with no label act but are not shown (CHIP opens the
"lay chip on" menu whenever the engine lets the seat lay the chip).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from enum import StrEnum

from firmware.games.switch16.engine import (
    ACCEPT,
    COLOURS,
    LEAVE,
    PASS,
    REFUSE,
    RISK,
    TAKE,
    Action,
    Phase,
    State,
)
from firmware.screens import Prompt
from hal.events import Button

YES, NO, CHIP = Button.YES, Button.NO, Button.CHIP


class Do(StrEnum):
    """What a press does besides committing an engine action."""

    ROLL = "roll"  #: start a timed roll (the turn's seat, dice still)
    BLOCK = "block"  #: lay the chip on the discarding seat's deck, now
    LAY = "lay"  #: open the "lay chip on" menu (when the engine lets the seat)
    NEXT = "next"  #: the menu's next option (set-up: the question's next answer)
    PREV = "prev"  #: the menu's option before
    OK = "ok"  #: take the highlighted option (set-up: keep the answer, go on)
    BACK = "back"  #: set-up: the question before
    CANCEL = "cancel"  #: close the "lay chip on" menu
    GO_ON = "continue"  #: end screen: the next round, or a new game
    DISMISS = "dismiss"  #: take a unit message off the displays


class Part(StrEnum):
    """A seat's part in the position."""

    TURN = "turn"  #: its turn
    NAMED = "named"  #: a green switch named it: it answers
    HOLDER = "holder"  #: it holds the chip
    OTHER = "other"
    BOT = "bot"  #: its turn, played by a bot: nobody presses
    ANY = "any"  #: screens every seat answers alike


class Screen(StrEnum):
    """Situations that are not a phase of play."""

    SETUP = "setup"
    MESSAGE = "message"  #: a unit message on every display
    MENU = "menu"  #: the green / red menu of the turn
    PLACE = "place"  #: the chip holder's "lay chip on" menu
    GAME_OVER = "game over"  #: a single game won
    ROUND_OVER = "round over"  #: a points round ended, the match goes on
    MATCH_OVER = "match over"


@dataclass(frozen=True, slots=True)
class Key:
    """One entry of a legend: ``button`` (None: words only) does ``does`` (a :class:`Do`,
    an engine action, or another game's step, e.g. Swytch's picker steps); ``label`` is
    what the button line says ("" : not shown; ``{turn}``, ``{answers}``: colours)."""

    button: Button | None
    label: str
    does: Do | Action | StrEnum | None = None


Situation = tuple[Phase | Screen, Part]
Row = tuple[Key, ...]

_LAY = Key(CHIP, "", Do.LAY)
_WAIT = Key(None, "{turn}'s turn")

#: The one table of the controls: situation -> keys, in legend order.
CONTROLS: dict[Situation, Row] = {
    (Screen.SETUP, Part.ANY): (
        Key(CHIP, "next", Do.NEXT),
        Key(YES, "ok", Do.OK),
        Key(NO, "", Do.BACK),
    ),
    (Screen.MESSAGE, Part.ANY): (
        Key(None, "any key"),
        *(Key(button, "", Do.DISMISS) for button in (YES, NO, CHIP)),
    ),
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
    (Screen.GAME_OVER, Part.ANY): (Key(YES, "continue", Do.GO_ON),),
    (Screen.ROUND_OVER, Part.ANY): (Key(YES, "continue", Do.GO_ON),),
    (Screen.MATCH_OVER, Part.ANY): (Key(YES, "new game", Do.GO_ON),),
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
    if phase is Phase.OVER:
        over = (
            Screen.GAME_OVER if state.scores is None
            else Screen.ROUND_OVER if state.round_pending
            else Screen.MATCH_OVER
        )  # fmt: skip
        return over, Part.ANY
    if menu is not None:
        return (Screen.PLACE if menu else Screen.MENU), Part.ANY
    if seat == state.turn:
        return phase, Part.TURN
    if phase is Phase.GREEN_REFUSAL and seat == state.target:
        return phase, Part.NAMED
    return phase, Part.HOLDER if state.chip_holder == seat else Part.OTHER


def row(state: State, seat: int, menu: bool | None = None) -> Row:
    """The keys of ``seat`` now (see :func:`situation`)."""
    return CONTROLS[situation(state, seat, menu)]


def does(keys: Row, button: Button) -> Do | Action | StrEnum | None:
    """What ``button`` does in ``keys`` (None: nothing)."""
    return next((k.does for k in keys if k.button is button), None)


def button_for(keys: Row, wanted: Do | Action | StrEnum) -> Button:
    """The button that does ``wanted`` in ``keys``."""
    for k in keys:
        if k.button is not None and k.does == wanted:
            return k.button
    raise LookupError(f"no button does {wanted!r} here")


def legend(keys: Row, state: State | None = None) -> Prompt:
    """The button line of ``keys``: (button name, label) for each labelled key."""
    if state is None:
        return _legend(keys, None, None)
    answers = state.phase is Phase.GREEN_REFUSAL
    answering = COLOURS[state.control[state.current_player()]].upper() if answers else ""
    return _legend(keys, COLOURS[state.control[state.turn]].upper(), answering)


@functools.lru_cache(maxsize=256)
def _legend(keys: Row, turn: str | None, answers: str | None) -> Prompt:
    """:func:`legend` for the words its labels may name (None: no state); drawn for
    every display at every refresh, so each line is built once."""
    words = {} if turn is None else {"turn": turn, "answers": answers}
    return tuple((k.button.name if k.button is not None else "", k.label.format(**words))
                 for k in keys if k.label)  # fmt: skip
