"""A Swytch set-up (who plays South and North, the board's ranks) and its set-up menu."""

from __future__ import annotations

from dataclasses import dataclass, replace

from firmware.jsonsafe import short_repr
from firmware.kernel.players import HUMAN
from firmware.unit.setup import Question, QuestionMenu, check_seats, seat_kinds

from .board import DEFAULT_RANKS, MAX_RANKS, MIN_RANKS, SIDE_NAMES

NAME = "swytch"
#: The bot levels the set-up menu offers, weakest first (:mod:`.game` maps them to
#: :data:`.bots.LEVELS`, which also has ``random`` for tests and benchmarks).
LEVELS = ("easy", "medium", "hard")
SEAT_KINDS = seat_kinds(LEVELS)


@dataclass(frozen=True, slots=True)
class SwytchSetup:
    """A new Swytch game: ``seats[s]`` is "human" or a bot level; ``ranks`` the board's."""

    seats: tuple[str, ...] = (HUMAN, HUMAN)
    ranks: int = DEFAULT_RANKS

    def __post_init__(self) -> None:
        if len(self.seats) != 2:
            raise ValueError(f"Swytch is played by 2 seats, got {short_repr(self.seats)}")
        check_seats(self.seats, SEAT_KINDS)
        if type(self.ranks) is not int or not MIN_RANKS <= self.ranks <= MAX_RANKS:
            raise ValueError(
                f"ranks must be {MIN_RANKS}..{MAX_RANKS}, got {short_repr(self.ranks)}"
            )

    @property
    def players(self) -> int:
        return 2


class SwytchSetupMenu(QuestionMenu):
    """The set-up questions on every display (any seat answers): the game, South's and
    North's player, the ranks. CHIP the next answer, YES keep it, NO the question before."""

    kinds = SEAT_KINDS

    def __init__(self, setup: SwytchSetup) -> None:
        self.setup = setup
        self.index = 0

    def questions(self) -> list[Question]:
        s = self.setup
        out = self.game_questions(NAME)
        out += self.seat_questions(SIDE_NAMES)
        ranks = tuple(f"{n} ranks" for n in range(MIN_RANKS, MAX_RANKS + 1))
        out.append(Question("ranks", "BOARD", ranks, s.ranks - MIN_RANKS))
        return out

    def change(self) -> None:
        """Show the next answer of the current question (CHIP; not the game's nor a seat's)."""
        q = self.question
        if q.key == "ranks":
            self.setup = replace(self.setup, ranks=MIN_RANKS + (q.value + 1) % len(q.options))
