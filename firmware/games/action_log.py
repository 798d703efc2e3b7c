"""The log a game's actions print in a headless demo (``sim --headless``), and the
pictures it calls for: by default one numbered line per action (a game may bring its
own, :meth:`~firmware.games.game.Game.turn_log`: Switch 16's one line per turn)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from firmware.kernel.seats import seat_name


class TurnLogger(Protocol):
    """Lines of a game as it is played, and the moments worth a picture."""

    #: Turns logged so far (a picture every few).
    turns: int

    def step(self, before: Any, action: Any, after: Any) -> list[str]:
        """Record one committed action; the lines it finishes."""
        ...

    def picture(self, before: Any, after: Any) -> str | None:
        """The picture this action calls for: "end" (the game is over), "start-roll"
        (the table's first roll), or None."""
        ...

    def moment(self, state: Any) -> bool:
        """A good moment for a mid-game picture (a decision pending...)."""
        ...


class ActionLog:
    """One line per action: its number, the seat that took it, the game's words for it
    (``action_text``)."""

    def __init__(self, action_text: Callable[[Any], str]) -> None:
        self.action_text = action_text
        self.turns = 0

    def step(self, before: Any, action: Any, after: Any) -> list[str]:
        self.turns += 1
        return [f"{self.turns:3d}. {seat_name(before.actor(action))}: "
                f"{self.action_text(action)}"]  # fmt: skip

    def picture(self, before: Any, after: Any) -> str | None:
        return "end" if after.game_over else None

    def moment(self, state: Any) -> bool:
        return True
