"""Who plays each seat is asked by the platform's set-up (:mod:`firmware.unit.setup`) for
every game: a question a seat, "human" then the game's bot levels, CHIP the next kind."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from firmware.games.registry import get_game
from firmware.kernel.players import HUMAN
from firmware.unit.setup import Question, QuestionMenu, check_seats, seat_kinds
from hal.events import Button

KINDS = seat_kinds(("easy", "hard"))


@dataclass(frozen=True, slots=True)
class Seats:
    seats: tuple[str, ...]
    size: int = 1


class Menu(QuestionMenu):
    """A set-up of two seats and one question of its own."""

    kinds = KINDS

    def __init__(self) -> None:
        self.setup, self.index = Seats((HUMAN, "hard")), 0

    def questions(self) -> list[Question]:
        size = Question("size", "SIZE", ("1", "2"), self.setup.size - 1)
        return [*self.seat_questions(["west", "east"]), size]

    def change(self) -> None:
        self.setup = Seats(self.setup.seats, 3 - self.setup.size)


def test_a_seat_question_offers_human_then_the_levels_and_chip_steps_round() -> None:
    menu = Menu()
    assert menu.question == Question("seat0", "WEST PLAYER", ("human", "bot: easy", "bot: hard"), 0)
    seen = []
    for _ in range(3):
        assert menu.press(Button.CHIP, "test") == []
        seen.append(menu.setup.seats[0])
    assert seen == ["easy", "hard", HUMAN] and menu.setup.seats[1] == "hard"
    menu.press(Button.YES, "test")
    assert menu.question.title == "EAST PLAYER" and menu.question.value == 2
    menu.press(Button.CHIP, "test")
    assert menu.setup.seats == (HUMAN, HUMAN)
    menu.press(Button.YES, "test")
    menu.press(Button.CHIP, "test")  # the game's own question: its change()
    assert menu.setup == Seats((HUMAN, HUMAN), 2)


def test_a_seat_kind_not_offered_is_named() -> None:
    check_seats((HUMAN, "easy"), KINDS)
    with pytest.raises(
        ValueError, match=r"unknown seat kind 'master' \(one of human, easy, hard\)"
    ):
        check_seats((HUMAN, "master"), KINDS)


@pytest.mark.parametrize("name", ["switch16", "swytch"])
def test_each_game_s_set_up_offers_its_levels(name: str) -> None:
    game = get_game(name)
    with pytest.raises(ValueError, match="unknown seat kind 'nobody'"):
        game.setup_for(["nobody"] * game.seats.start)
    for level in game.levels:
        game.setup_for([level] * game.seats.start)  # every level is a seat kind
