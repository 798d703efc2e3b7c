"""Who acts in every game: a seat (0-based), chance, or nobody any more (OpenSpiel's
player ids), and who plays a seat: a human or a bot level."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .errors import MalformedActionError

__all__ = ["CHANCE", "HUMAN", "TERMINAL", "answers_the_end", "is_human", "seats_from_json"]

#: ``current_player()`` when chance acts next (OpenSpiel's kChancePlayerId).
CHANCE = -1
#: ``current_player()`` once nothing more can be played (kTerminalPlayerId).
TERMINAL = -4
#: A seat a person plays (the others name a bot level).
HUMAN = "human"


def is_human(kinds: Sequence[str], seat: int) -> bool:
    """Whether a person plays ``seat`` of a table of these ``kinds`` (none past them)."""
    return seat < len(kinds) and kinds[seat] == HUMAN


def answers_the_end(kinds: Sequence[str], seat: int) -> bool:
    """Whether ``seat``'s buttons answer a finished game's screen (every game's rule):
    a seat a person played, or any seat at all when bots played every one."""
    return is_human(kinds, seat) or HUMAN not in kinds


def seats_from_json(seats: Any, players: int) -> tuple[str, ...] | None:
    """A header's optional ``seats`` (any game's): a name per seat, "human" or a bot
    level. A level this unit lacks is no error here: the unit plays that seat as human
    when it resumes the game (:func:`firmware.unit.setup.saved_kinds`)."""
    if seats is None:
        return None
    if (
        type(seats) is not list
        or len(seats) != players
        or not all(isinstance(x, str) and x for x in seats)
    ):
        raise MalformedActionError(
            f"header: 'seats' must list {players} names (\"human\" or a bot level)"
        )
    return tuple(seats)
