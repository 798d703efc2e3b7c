"""Game set-up, for every game: who plays a saved game's seats, and the set-up menu
asked one question per screen (:class:`QuestionMenu`; each game says its questions)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from firmware.games.registry import next_game
from firmware.jsonsafe import short_repr
from firmware.kernel.players import HUMAN
from firmware.kernel.seats import seat_name
from hal.events import Button

from . import controls
from .commands import ChooseGame, Command, RollOff

#: The set-up's question that names the game.
GAME_KEY = "game"

log = logging.getLogger(__name__)


def saved_kinds(header: Any, levels: Sequence[str]) -> tuple[str, ...]:
    """Who plays each seat of a saved game (its header's ``seats``, else all human) on
    this firmware, whose game has bot ``levels``: for every game, a level it lacks (an
    older or newer unit's) is played as human."""
    kinds = header.seats or (HUMAN,) * header.players
    out = []
    for seat, kind in enumerate(kinds):
        if kind != HUMAN and kind not in levels:
            log.warning("the journal names %s %s (unknown): playing it as human",
                        seat_name(seat), short_repr(kind))  # fmt: skip
            kind = HUMAN
        out.append(kind)
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Question:
    """One screen of the set-up: ``options[value]`` is the current answer."""

    key: str
    title: str
    options: tuple[str, ...]
    value: int


class QuestionMenu:
    """A set-up asked one question per screen on every display; any seat answers: CHIP
    the next answer (on the game question: the next game's set-up), YES keeps it and goes
    on (after the last question the game's roll-off), NO the question before. A game's
    menu says its :meth:`questions` and how CHIP :meth:`change` s an answer."""

    setup: Any
    index: int

    def questions(self) -> list[Question]:
        raise NotImplementedError

    def change(self) -> None:
        raise NotImplementedError

    @property
    def question(self) -> Question:
        return self.questions()[self.index]

    def next(self) -> bool:
        """Keep the answer (YES): True when it was the last question."""
        if self.index >= len(self.questions()) - 1:
            return True
        self.index += 1
        return False

    def back(self) -> None:
        """Previous question (NO)."""
        self.index = max(0, self.index - 1)

    def press(self, button: Button, game: str) -> list[Command]:
        """What ``button`` does to the set-up of ``game`` (its registry name)."""
        does = controls.does(controls.CONTROLS[controls.Screen.SETUP, controls.Part.ANY], button)
        if does is controls.Do.NEXT and self.question.key == GAME_KEY:
            return [ChooseGame(next_game(game))]
        if does is controls.Do.NEXT:
            self.change()
        elif does is controls.Do.BACK:
            self.back()
        elif does is controls.Do.OK and self.next():
            return [RollOff(self.setup)]
        return []
