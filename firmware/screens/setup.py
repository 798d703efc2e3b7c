"""Views for before a game: set-up menus and the roll-off."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .from_state import MENU_LEGEND
from .views import MenuView, RollOffView

#: The set-up questions, in order, with their options (the loop may use its own).
SETUP_MENUS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("PLAYERS", ("2 players", "3 players", "4 players")),
    ("SEAT PLAYER", ("human", "bot: easy", "bot: rulebook", "bot: expert")),
    ("RULES", ("pressman-2003", "playmonster-2022", "tablier")),
    ("GAME", ("plain", "points to 100")),
)


def setup_menu(
    title: str, options: Sequence[str], highlight: int = 0, can_back: bool = True
) -> MenuView:
    """A set-up menu (players, bots and levels, rules preset, plain/points)."""
    return MenuView(title, tuple(options), highlight, MENU_LEGEND, can_back)


def rolloff_views(
    seat: int, labels: Sequence[str], rounds: Sequence[Mapping[int, int]]
) -> tuple[RollOffView, ...]:
    """One roll-off view per round rolled (``firmware.chance.roll_off``'s rounds).

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
