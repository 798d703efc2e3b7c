"""Switch 16's set-up: who plays which seat, which rules, plain or points; and its
set-up menu (the platform's :class:`~firmware.unit.setup.QuestionMenu`)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from firmware.kernel.players import HUMAN
from firmware.kernel.seats import seat_name
from firmware.unit.setup import Question, QuestionMenu, check_seats, seat_kinds

from .engine import DEFAULT_PRESET, PRESETS, Rules, make_rules
from .engine.notation import Header
from .engine.rules import MAX_PLAYERS, MIN_PLAYERS
from .levels import LEVELS

#: This set-up's game (its registry name) and the set-up's question that names it.
GAME_NAME = Header.game
#: Bot levels offered on the unit, weakest first (:data:`firmware.games.switch16.levels.LEVELS`).
BOT_LEVELS = tuple(LEVELS)
SEAT_KINDS = seat_kinds(BOT_LEVELS)


@dataclass(frozen=True, slots=True)
class GameSetup:
    """A new game: ``seats[s]`` is "human" or a bot level; ``preset`` names the rules."""

    players: int = 2
    seats: tuple[str, ...] = (HUMAN, HUMAN)
    preset: str = DEFAULT_PRESET
    points: bool = False

    def __post_init__(self) -> None:
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise ValueError(f"players must be {MIN_PLAYERS}..{MAX_PLAYERS}, got {self.players}")
        if len(self.seats) != self.players:
            raise ValueError(f"seats must name {self.players} players, got {self.seats!r}")
        check_seats(self.seats, SEAT_KINDS)
        make_rules(self.preset)  # RulesError (a ValueError) names an unknown preset

    @classmethod
    def of(cls, seats: tuple[str, ...] | list[str], preset: str = DEFAULT_PRESET,
           points: bool = False) -> GameSetup:  # fmt: skip
        """A set-up from the seat kinds alone (``players`` is their number)."""
        return cls(len(seats), tuple(seats), preset, points)

    def rules(self) -> Rules:
        return make_rules(self.preset, {"points": True} if self.points else None)

    def resized(self, players: int) -> GameSetup:
        """The same set-up for ``players`` seats (new seats are human)."""
        seats = (*self.seats, *(HUMAN,) * MAX_PLAYERS)[:players]
        return replace(self, players=players, seats=seats)

    @property
    def humans(self) -> int:
        return sum(kind == HUMAN for kind in self.seats)


class SetupMenu(QuestionMenu):
    """The set-up questions shown on every display; any seat answers them.

    One question per screen: the game (when more than one is registered), players,
    each seat's player (human or bot level),
    rules preset, plain or points game. CHIP shows the next option, YES keeps it
    and goes on (after the last question the game starts), NO goes back.
    """

    kinds = SEAT_KINDS

    def __init__(self, setup: GameSetup, max_players: int) -> None:
        self.max_players = max(MIN_PLAYERS, min(MAX_PLAYERS, max_players))
        if setup.players > self.max_players:
            setup = setup.resized(self.max_players)
        self.setup = setup
        self.index = 0

    def questions(self) -> list[Question]:
        s = self.setup
        counts = range(MIN_PLAYERS, self.max_players + 1)
        out = self.game_questions(GAME_NAME)
        out += [Question("players", "PLAYERS", tuple(f"{n} players" for n in counts),
                        s.players - MIN_PLAYERS)]  # fmt: skip
        out += self.seat_questions([seat_name(i) for i in range(s.players)])
        presets = tuple(PRESETS)
        out.append(Question("rules", "RULES", presets, presets.index(s.preset)))
        out.append(Question("points", "GAME", ("plain", "points to 100"), int(s.points)))
        return out

    def change(self) -> None:
        """Show the next option of the current question (CHIP; not the game's nor a seat's)."""
        q = self.question
        value = (q.value + 1) % len(q.options)
        s = self.setup
        if q.key == "players":
            self.setup = s.resized(MIN_PLAYERS + value)
        elif q.key == "rules":
            self.setup = replace(s, preset=q.options[value])
        else:
            self.setup = replace(s, points=bool(value))
