"""Game set-up, for every game: who plays a saved game's seats, who may play a seat
(:func:`seat_kinds`, :func:`check_seats`), and the set-up menu asked one question per
screen (:class:`QuestionMenu`: the seat questions its own, each game says the rest)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from firmware.games.registry import game_question, next_game
from firmware.jsonsafe import short_repr
from firmware.kernel.players import HUMAN
from firmware.kernel.seats import seat_name
from hal.events import Button

from . import controls
from .commands import ChooseGame, Command, RollOff

#: The set-up's question that names the game.
GAME_KEY = "game"
#: A seat question's key: this and the seat's number ("seat0").
SEAT_KEY = "seat"

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


def seat_kinds(levels: Sequence[str]) -> tuple[str, ...]:
    """Who may play a seat of a game with bot ``levels`` (weakest first): human, then
    the levels, in the set-up's order."""
    return (HUMAN, *levels)


def check_seats(seats: Sequence[Any], kinds: Sequence[str]) -> None:
    """ValueError naming a seat kind of ``seats`` that is none of ``kinds``."""
    for kind in seats:
        if kind not in kinds:
            raise ValueError(f"unknown seat kind {short_repr(kind)} (one of {', '.join(kinds)})")


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
    menu says its :meth:`questions` (the game's: :meth:`game_questions`; who plays each
    seat: :meth:`seat_questions`, its ``setup`` a dataclass with ``seats``) and how CHIP
    :meth:`change` s its own answers."""

    setup: Any
    index: int
    #: Who may play a seat (:func:`seat_kinds`).
    kinds: tuple[str, ...] = (HUMAN,)

    def questions(self) -> list[Question]:
        raise NotImplementedError

    def change(self) -> None:
        """CHIP on one of the game's own questions (not the game's, nor a seat's)."""
        raise NotImplementedError

    def game_questions(self, game: str) -> list[Question]:
        """The question that names the game (``game``, its registry name) when more than
        one is installed (CHIP: the next game's set-up)."""
        games = game_question(game)
        return [] if games is None else [Question(GAME_KEY, "GAME", *games)]

    def seat_questions(self, names: Sequence[str]) -> list[Question]:
        """Who plays each seat of the set-up (``names[i]``: seat i's name), one question
        a seat: human or a bot level."""
        options = tuple(k if k == HUMAN else f"bot: {k}" for k in self.kinds)
        seats = enumerate(zip(names, self.setup.seats, strict=True))
        return [Question(f"{SEAT_KEY}{i}", f"{name.upper()} PLAYER", options,
                         self.kinds.index(kind)) for i, (name, kind) in seats]  # fmt: skip

    def _next_kind(self) -> bool:
        """CHIP on a seat question: the seat's next kind. False: not a seat question."""
        q = self.question
        if not q.key.startswith(SEAT_KEY):
            return False
        seats = list(self.setup.seats)
        seats[int(q.key.removeprefix(SEAT_KEY))] = self.kinds[(q.value + 1) % len(self.kinds)]
        self.setup = replace(self.setup, seats=tuple(seats))
        return True

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
            if not self._next_kind():
                self.change()
        elif does is controls.Do.BACK:
            self.back()
        elif does is controls.Do.OK and self.next():
            return [RollOff(self.setup)]
        return []
