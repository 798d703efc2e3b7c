"""What the controller asks the loop to do (it never touches hardware, dice or disk)."""

from __future__ import annotations

from dataclasses import dataclass

from firmware.engine import Action

from .setup import GameSetup


@dataclass(frozen=True, slots=True)
class Commit:
    """Journal and apply ``action`` (a decision of a seat or the unit's discard)."""

    action: Action


@dataclass(frozen=True, slots=True)
class RollDice:
    """``seat`` rolls now: draw the dice from the loop's rng and commit the Roll."""

    seat: int


@dataclass(frozen=True, slots=True)
class RollOff:
    """Roll off for the first player: of a new game (``setup``) or of the next round."""

    setup: GameSetup | None


@dataclass(frozen=True, slots=True)
class StartGame:
    """The roll-off was shown: create the journal and start playing."""

    setup: GameSetup
    first: int


@dataclass(frozen=True, slots=True)
class AskBot:
    """Ask the bot of ``seat`` for the decision the game waits for."""

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


Command = Commit | RollDice | RollOff | StartGame | AskBot | AskInterject | NewGame | ChooseGame
