"""Switch 16's view models: frozen values holding exactly what one seat's screen shows
(the play screen, the win screen, the points table), besides the platform's
(:mod:`firmware.screens.views`). Every view has ``shift``: the burn-in pixel offset.
"""

from __future__ import annotations

from dataclasses import dataclass

from firmware.screens.views import Prompt, Shift
from firmware.screens.views import SeatView as PlatformView


@dataclass(frozen=True, slots=True)
class OddsHint:
    """Odds of a risk roll now (numbered dice only) and the solitaire-optimal advice."""

    p_success: float
    expected_cards: float
    risk: bool


@dataclass(frozen=True, slots=True)
class PlayView:
    """The main play screen of one seat: the deck it controls and the current turn.

    - ``colour``/``top``/``dice_count``: the seat's deck, its top card (17 = finished)
      and the dice it would roll now; ``holds_chip``/``blocked``: chip in hand / on deck.
    - ``my_turn``, ``turn_colour``: whose turn (the turn seat's deck colour).
    - ``dice``/``switch``: the turn's current roll (empty / None when there is none);
      ``rolling``: dice still to roll (empty outlines) when nothing is rolled yet.
    - ``just_discarded``: cards the seat's deck lost in the current roll (highlighted).
    - ``prompt``: the button line; ``banner``: 1–2 transient lines (penalty, switch…).
    - ``tumble``: animation frame while the shaker shakes (None when still).
    - ``odds``: the odds hint (decide screen), ``name``: seat name / bot level.
    - ``options``/``highlight``/``title``: a menu of the game (green or red switch,
      laying the chip) open in the right panel, its title in the header; the top card,
      the bar and the header stay, so opening and closing it changes few bytes.
    """

    colour: str
    top: int
    dice_count: int
    holds_chip: bool = False
    blocked: bool = False
    my_turn: bool = False
    turn_colour: str = ""
    dice: tuple[int, ...] = ()
    switch: str | None = None
    rolling: int = 0
    just_discarded: int = 0
    prompt: Prompt = ()
    banner: tuple[str, ...] = ()
    tumble: int | None = None
    odds: OddsHint | None = None
    name: str = ""
    options: tuple[str, ...] = ()
    highlight: int = 0
    title: str = ""
    shift: Shift = (0, 0)


@dataclass(frozen=True, slots=True)
class WinView:
    """A single game is over: who won and every seat's discarded cards, each seat named
    as the players know it (``labels``: "seat 2", "seat 2·easy"; this seat is "YOU")."""

    seat: int
    winner: int
    labels: tuple[str, ...]
    discarded: tuple[int, ...]
    prompt: Prompt = ()
    shift: Shift = (0, 0)
    #: The master's short review of this seat's game ("costliest: risk at 12, -9 %").
    review: str = ""


@dataclass(frozen=True, slots=True)
class ScoresView:
    """The points table after a round: totals, this round's points, the match result."""

    seat: int
    round: int
    labels: tuple[str, ...]
    scores: tuple[int, ...]
    gained: tuple[int, ...]
    round_winner: int | None
    match_winners: tuple[int, ...] | None = None
    prompt: Prompt = ()
    shift: Shift = (0, 0)
    #: The master's short review once the match is over (drawn with 2–3 seats only).
    review: str = ""


#: Every view a Switch 16 seat shows: its own and the platform's.
SeatView = PlayView | WinView | ScoresView | PlatformView
