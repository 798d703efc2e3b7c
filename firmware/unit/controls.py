"""Controls, once: what YES, NO and CHIP do for a seat now, and what its legend says.

A game's table maps a situation (a phase and the seat's part in it, or a screen: the
set-up, an open menu) to its :class:`Key` row; :data:`CONTROLS` holds the rows every
game shares (the set-up, a unit message, the end screen: :data:`END`), :data:`THINKING`
a bot's seat's on its turn. The controller acts on
a row (:func:`does`), the screens draw its labelled keys as the button line
(:func:`legend`) and a test rig finds the button for what it wants done
(:func:`button_for`). Keys with no label act but are not shown.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

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
    GO_ON = "continue"  #: a round's end inside a match: the next round
    REMATCH = "rematch"  #: the end screen: the same set-up again
    NEW_GAME = "new game"  #: the end screen: back to the set-up
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
    GAME_OVER = "game over"  #: the end screen: a game (or a whole match) finished
    ROUND_OVER = "round over"  #: a points round ended, the match goes on


@dataclass(frozen=True, slots=True)
class Key:
    """One entry of a legend: ``button`` (None: words only) does ``does`` (a :class:`Do`,
    an engine action, or another game's step, e.g. Swytch's picker steps); ``label`` is
    what the button line says ("" : not shown; ``{turn}``, ``{answers}``: colours)."""

    button: Button | None
    label: str
    does: Any = None  #: a Do, a game's action or another game's step (hashable)


Situation = tuple[StrEnum, Part]  #: a game's phase or step, or a Screen; the seat's Part
Row = tuple[Key, ...]

#: The platform's rows: situations every game shows alike (a game's own table adds
#: its phases' rows to these, e.g. Switch 16's :mod:`firmware.games.switch16.controls`);
#: the end screen's keys are answered by the unit (:mod:`.end_screen`), in every game.
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
    (Screen.GAME_OVER, Part.ANY): (Key(YES, "rematch", Do.REMATCH), Key(NO, "new", Do.NEW_GAME)),
}

#: The end screen, in every game: its row of :data:`CONTROLS` is its keys and legend
#: (:mod:`.end_screen` answers them).
END: Situation = (Screen.GAME_OVER, Part.ANY)

#: A bot's seat on its turn, in every game: its button line says what the bot does
#: (nobody presses; a game names its own doing, e.g. Switch 16's "discarding...").
THINKING: Row = (Key(None, "thinking..."),)


def does(keys: Row, button: Button) -> Any:
    """What ``button`` does in ``keys`` (None: nothing)."""
    return next((k.does for k in keys if k.button is button), None)


def button_for(keys: Row, wanted: Any) -> Button:
    """The button that does ``wanted`` in ``keys``."""
    for k in keys:
        if k.button is not None and k.does == wanted:
            return k.button
    raise LookupError(f"no button does {wanted!r} here")


@functools.lru_cache(maxsize=256)
def legend(keys: Row, turn: str | None = None, answers: str | None = None) -> Prompt:
    """The button line of ``keys``: (button name, label) for each labelled key, with the
    words its labels may name (``{turn}``, ``{answers}``; None: no position); drawn for
    every display at every refresh, so each line is built once."""
    words = {} if turn is None else {"turn": turn, "answers": answers}
    return tuple((k.button.name if k.button is not None else "", k.label.format(**words))
                 for k in keys if k.label)  # fmt: skip
