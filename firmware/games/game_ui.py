"""A game's UI state as the unit's tools read it: the value its controller's ``ui()``
returns (what every seat's view is drawn from besides the position).

:class:`GameUi` declares what the link (its ``state`` and ``ui`` ops, the harness's glass
check), the simulator and a replay read of any game's UI state, with the defaults of a
game that has no dice, no roll-off and nothing on a display but its own views. A game's
UI state subclasses it (a frozen, slotted dataclass is the usual shape: its fields
override the defaults' properties) and writes :meth:`GameUi.to_json`; the game reads it
back with :meth:`~firmware.games.game.Game.ui_from_json`. Tools ask these, never
``getattr`` or a class's fields.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from firmware.unit.rolloff import RollOffShown
    from firmware.unit.shell import ShellView


class GameUi:
    """What every game's UI state says; see the module docstring."""

    __slots__ = ()

    #: What the unit as a whole does: "setup", "rolloff" or "play" (a game in play or
    #: just finished); :class:`firmware.unit.ui_state.Mode` names them.
    mode: str
    #: Who plays each seat of the game shown ("human" or a bot level; () before one).
    kinds: tuple[str, ...]
    #: The game's position shown (None before a game).
    state: Any
    #: The unit shell's part, the same in every game (:meth:`firmware.unit.shell.Shell.view`):
    #: a message, dimming, the screensaver, the burn-in shift, the end screen's reviews.
    shell: ShellView

    @property
    def rolloff(self) -> RollOffShown | None:
        """The roll-off on the displays, if one is (a game whose controller shows the
        unit's roll-off keeps it; none by default)."""
        return None

    @property
    def roll_shown(self) -> Any:
        """A roll kept on the displays after the turn it ended, the game's own value (the
        simulator's dice table shows it; none by default)."""
        return None

    @property
    def tumble(self) -> tuple[int, int] | None:
        """(seat, animation frame) while dice tumble on a display (none by default)."""
        return None

    def seat_kinds(self) -> tuple[str, ...]:
        """The seat kinds of the game shown, or of the one a roll-off is starting."""
        ro = self.rolloff
        if not self.kinds and ro is not None and ro.seats is not None:
            return ro.seats
        return self.kinds

    def extras(self, seat: int) -> list[str]:
        """What ``seat`` shows besides the position, in words, for a failure message
        (by default the shell's: a message, the screensaver, a review)."""
        return self.shell.extras(seat)

    def plain(self, seat: int) -> bool:
        """``seat`` shows nothing but the position: its display must then equal the view of
        :meth:`bare` too (a game that does not say: never)."""
        return False

    def bare(self) -> GameUi:
        """This UI state with nothing up but the position (compared where :meth:`plain`)."""
        return self

    def to_json(self) -> dict[str, Any]:
        """The link's ``ui`` fields (docs/LINK.md): ``mode``, ``kinds``, ``state`` (the
        position's JSON) and the shell's (:meth:`ShellView.to_json`) here; a game adds its
        own and reads them all back in :meth:`~firmware.games.game.Game.ui_from_json`
        (the shell's with :meth:`ShellView.from_json`)."""
        return {"mode": str(self.mode), "kinds": list(self.kinds),
                "state": None if self.state is None else self.state.to_json(),
                **self.shell.to_json()}  # fmt: skip
