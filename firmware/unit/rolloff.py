"""Who starts, on the displays: a roll-off's rounds shown one after the other (any game).

The loop rolls the dice (the game's roll-off) and hands the rounds to the
game's controller, which keeps a :class:`RollOffShow`, steps it on its timer and puts a
:class:`RollOffShown` in its UI state; :func:`rolloff_view` draws a seat's screen of it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from firmware.screens import NotPlayingView, RollOffView
from firmware.settings import Timing


@dataclass(frozen=True, slots=True)
class RollOffShown:
    """A roll-off on the displays: ``rounds`` of dice, round ``shown`` on screen; ``seats``
    the new game's seat kinds (None: the next round of a match)."""

    rounds: tuple[tuple[tuple[int, int], ...], ...]  #: per round, sorted (seat, die)
    first: int
    shown: int
    seats: tuple[str, ...] | None

    def to_json(self) -> dict[str, Any]:
        """The link's ``rolloff`` field (docs/LINK.md)."""
        seats = None if self.seats is None else list(self.seats)
        rounds = [[list(p) for p in r] for r in self.rounds]
        return {"rounds": rounds, "first": self.first, "shown": self.shown, "seats": seats}

    @classmethod
    def from_json(cls, ro: dict[str, Any]) -> RollOffShown:
        return cls(
            tuple(tuple((int(a), int(b)) for a, b in pairs) for pairs in ro["rounds"]),
            int(ro["first"]), int(ro["shown"]),
            None if ro["seats"] is None else tuple(ro["seats"]),
        )  # fmt: skip


@dataclass(slots=True)
class RollOffShow:
    """A roll-off on the displays: ``rounds`` of dice, ``shown`` = round on screen;
    ``setup`` the new game's (None: the next round of a match)."""

    rounds: tuple[dict[int, int], ...]
    first: int
    setup: Any
    shown: int = 0

    def seconds(self, timing: Timing) -> float:
        """How long the round on screen stays up (the last one, naming the starter, longest)."""
        last = self.shown == len(self.rounds) - 1
        return timing.rolloff_show if last else timing.rolloff_show / 2

    def advance(self) -> bool:
        """Show the next round; False when the last one was shown (the game starts)."""
        if self.shown < len(self.rounds) - 1:
            self.shown += 1
            return True
        return False

    def shown_value(self) -> RollOffShown:
        seats = None if self.setup is None else tuple(self.setup.seats)
        rounds = tuple(tuple(sorted(r.items())) for r in self.rounds)
        return RollOffShown(rounds, self.first, self.shown, seats)


def rolloff_view(show: RollOffShown, seat: int, names: Sequence[str],
                 shift: tuple[int, int]) -> RollOffView | NotPlayingView:  # fmt: skip
    """``seat``'s screen of the roll-off ``show`` (``names``: the players' labels)."""
    if seat >= len(names):
        return NotPlayingView(shift)
    views = rolloff_views(seat, names, [dict(r) for r in show.rounds])
    v = views[min(show.shown, len(views) - 1)]
    return RollOffView(v.seat, v.rolls, v.labels, v.starter, v.attempt, shift)


def rolloff_views(
    seat: int, labels: Sequence[str], rounds: Sequence[Mapping[int, int]]
) -> tuple[RollOffView, ...]:
    """One roll-off view per round rolled (``firmware.games.switch16.chance.roll_off``'s rounds).

    Seats out of a re-roll show no die; the last view names the starter.
    """
    views = []
    for i, rolls in enumerate(rounds):
        row = tuple(rolls.get(s) for s in range(len(labels)))
        best = max(rolls.values())
        leaders = [s for s, r in rolls.items() if r == best]
        starter = leaders[0] if len(leaders) == 1 else None
        views.append(RollOffView(seat, row, tuple(labels), starter, i + 1))
    return tuple(views)
