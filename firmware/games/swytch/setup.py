"""A Swytch set-up (who plays South and North, the board's ranks) and its set-up menu."""

from __future__ import annotations

from dataclasses import dataclass, replace

from firmware.games.registry import game_question
from firmware.jsonsafe import short_repr
from firmware.kernel.players import HUMAN
from firmware.unit.setup import GAME_KEY, Question, QuestionMenu

from .board import DEFAULT_RANKS, MAX_RANKS, MIN_RANKS, SIDE_NAMES

NAME = "swytch"
#: The bot levels the set-up menu offers, weakest first (:mod:`.game` maps them to
#: :data:`.bots.LEVELS`, which also has ``random`` for tests and benchmarks).
LEVELS = ("easy", "medium", "hard")
SEAT_KINDS = (HUMAN, *LEVELS)


@dataclass(frozen=True, slots=True)
class SwytchSetup:
    """A new Swytch game: ``seats[s]`` is "human" or a bot level; ``ranks`` the board's."""

    seats: tuple[str, ...] = (HUMAN, HUMAN)
    ranks: int = DEFAULT_RANKS

    def __post_init__(self) -> None:
        if len(self.seats) != 2:
            raise ValueError(f"Swytch is played by 2 seats, got {short_repr(self.seats)}")
        for kind in self.seats:
            if kind not in SEAT_KINDS:
                raise ValueError(
                    f"unknown seat kind {short_repr(kind)} (one of {', '.join(SEAT_KINDS)})"
                )
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

    def __init__(self, setup: SwytchSetup) -> None:
        self.setup = setup
        self.index = 0

    def questions(self) -> list[Question]:
        s = self.setup
        out = []
        if (games := game_question(NAME)) is not None:
            out.append(Question(GAME_KEY, "GAME", *games))
        kinds = tuple(k if k == HUMAN else f"bot: {k}" for k in SEAT_KINDS)
        out += [
            Question(f"seat{i}", f"{SIDE_NAMES[i].upper()} PLAYER", kinds, SEAT_KINDS.index(k))
            for i, k in enumerate(s.seats)
        ]
        ranks = tuple(f"{n} ranks" for n in range(MIN_RANKS, MAX_RANKS + 1))
        out.append(Question("ranks", "BOARD", ranks, s.ranks - MIN_RANKS))
        return out

    def change(self) -> None:
        """Show the next answer of the current question (CHIP; not the game question)."""
        q = self.question
        value = (q.value + 1) % len(q.options)
        if q.key.startswith("seat"):
            kinds = list(self.setup.seats)
            kinds[int(q.key[4:])] = SEAT_KINDS[value]
            self.setup = replace(self.setup, seats=tuple(kinds))
        elif q.key == "ranks":
            self.setup = replace(self.setup, ranks=MIN_RANKS + value)
