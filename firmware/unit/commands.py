"""What the controller asks the loop to do (it never touches hardware, dice or disk).

Actions and set-ups are the game's own values (Switch 16's: :mod:`firmware.games.switch16.engine`'s
actions, :class:`~firmware.unit.setup.GameSetup`), opaque to the loop.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Commit:
    """Journal and apply ``action`` (a decision of a seat or the unit's discard)."""

    action: Any


@dataclass(frozen=True, slots=True)
class RollDice:
    """``seat`` rolls now: draw the dice from the loop's rng and commit the Roll."""

    seat: int


@dataclass(frozen=True, slots=True)
class RollOff:
    """Roll off for the first player: of a new game (``setup``) or of the next round."""

    setup: Any  #: the game's set-up (None: the next round)

    def players(self, state: Any) -> int:
        """How many roll off: the set-up's players, or the game in ``state``'s."""
        if self.setup is not None:
            return int(self.setup.players)
        return int(state.players) if state is not None else 0


@dataclass(frozen=True, slots=True)
class StartGame:
    """The roll-off was shown: create the journal and start playing."""

    setup: Any  #: the game's set-up
    first: int


@dataclass(frozen=True, slots=True)
class AskBot:
    """Ask the bot of ``seat`` for the decision the game waits for."""

    seat: int


@dataclass(frozen=True, slots=True)
class AskHint:
    """Ask the game's strongest bot what ``seat`` should do now; the controller's
    ``hinted(seat, action, now)`` shows it (Swytch's held CHIP)."""

    seat: int


@dataclass(frozen=True, slots=True)
class AskInterject:
    """Ask the chip-holding bot of ``seat`` whether it lays the chip now."""

    seat: int


@dataclass(frozen=True, slots=True)
class NewGame:
    """The finished game was acknowledged: go back to the set-up."""


@dataclass(frozen=True, slots=True)
class ChooseGame:
    """The set-up's first question moved on to another registered game: its set-up."""

    game: str


Command = (Commit | RollDice | RollOff | StartGame | AskBot | AskHint | AskInterject | NewGame
           | ChooseGame)  # fmt: skip
