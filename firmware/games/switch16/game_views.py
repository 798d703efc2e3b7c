"""Building what a seat shows: the engine state plus the seat's UI state -> a view.

The unit keeps a :class:`SeatUi` per seat (highlight, banner, animation frame, odds
toggle, burn-in counter, an open menu) and calls :func:`view_for` once per refresh.
Menu phases (green, red tie, laying the chip) list their options with :func:`choices`,
so the controller maps the highlighted index back to an engine action. The set-up
menus (:mod:`firmware.unit.menus`) and the roll-off (:mod:`firmware.unit.rolloff`) are
the platform's; :mod:`.screens` draws them all.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from firmware.kernel.seats import seat_name
from firmware.screens import MenuView, Prompt, pixel_shift
from firmware.unit.controls import THINKING

from .banners import RollShown
from .controls import legend, row
from .engine import (
    COLOURS,
    DECLINE,
    Act,
    Action,
    Green,
    Phase,
    Place,
    Red,
    State,
)
from .engine.notation import Header
from .engine.rules import CARDS
from .screens import OddsHint, PlayView, ScoresView, SeatView, WinView

#: Phases in which ``state.dice``/``state.switch`` belong to the current turn's roll.
ROLLED_PHASES = frozenset(
    {Phase.DISCARD, Phase.DECIDE, Phase.GREEN, Phase.GREEN_REFUSAL, Phase.RED, Phase.BLOCK}
)


@dataclass(frozen=True, slots=True)
class SeatUi:
    """What the unit knows about one seat and the engine does not.

    - ``highlight``: highlighted option of the open menu.
    - ``placing``: the chip holder opened the "lay chip on" menu.
    - ``menu``: any other menu to show instead (set-up, settings); wins over the rest.
    - ``banner``: 1–2 lines of a transient event ("PENALTY", "back to 1").
    - ``tumble``: animation frame while the shaker shakes, None when still.
    - ``odds``: show the odds hint on the decide screen.
    - ``shift_counter``: burn-in counter (see :func:`pixel_shift`).
    - ``name``: the seat's name or bot level, ``labels``: every seat's name for tables.
    - ``bot``: a bot plays this seat: its prompt names no buttons (they do nothing).
    - ``review``: the end screen's short review of this seat's play (see :func:`short_review`).
    - ``roll``: a roll that ended its turn, shown instead of the next turn until read.
    """

    highlight: int = 0
    placing: bool = False
    menu: MenuView | None = None
    banner: tuple[str, ...] = ()
    tumble: int | None = None
    odds: bool = False
    shift_counter: int = 0
    name: str = ""
    labels: tuple[str, ...] = ()
    bot: bool = False
    review: str = ""
    roll: RollShown | None = None


DEFAULT_UI = SeatUi()


def seat_labels(state: State, ui: SeatUi = DEFAULT_UI) -> tuple[str, ...]:
    """Names of the seats for tables: ``ui.labels``, else "seat 1".."seat 4"."""
    if len(ui.labels) == state.players:
        return ui.labels
    return tuple(seat_name(s) for s in range(state.players))


def _deck_label(state: State, seat: int) -> str:
    top = state.top_card(seat)
    return f"{state.colour_of(seat).upper()} {min(top, CARDS)}"  # its top card


def choices(
    state: State, seat: int, placing: bool = False
) -> tuple[tuple[str, Action | None], ...]:
    """The menu ``seat`` chooses from now: (label, action) pairs, None = back/cancel.

    Green switch (turn seat): the seats it may name, then "no switch". Red tie: the
    tied seats. ``placing`` (chip holder): the other seats' decks to lay the chip on.
    Empty when the seat has no menu.
    """
    if placing:
        if not state.may(seat, Act.PLACE):
            return ()
        others = [s for s in range(state.players) if s != seat]
        return (*((_deck_label(state, s), Place(seat, s)) for s in others), ("cancel", None))
    if seat != state.turn:
        return ()
    if state.phase is Phase.GREEN:
        legal = state.legal_actions()
        named = [
            (_deck_label(state, a.target), a)
            for a in legal
            if type(a) is Green and a.target is not None
        ]
        return (*named, ("no switch", DECLINE))
    if state.phase is Phase.RED:
        return tuple((_deck_label(state, s), Red(s)) for s in state.red_choices)
    return ()


def _menu_title(state: State, placing: bool) -> str:
    if placing:
        return "LAY CHIP ON"
    return "SWITCH WITH"


def prompt_for(state: State, seat: int) -> Prompt:
    """The button line for ``seat`` in the current phase, from :data:`.controls.CONTROLS`."""
    return legend(row(state, seat), state)


def _bot_prompt(state: State, seat: int) -> Prompt:
    """A bot seat's bottom line: what it is doing, never a button to press."""
    if state.phase is Phase.DISCARD and seat == state.turn:
        return (("", "discarding..."),)
    if seat == state.turn or (state.phase is Phase.GREEN_REFUSAL and seat == state.target):
        return legend(THINKING)  # the unit's, as in every game
    return (("", f"{COLOURS[state.control[state.turn]].upper()}'s turn"),)


def _odds_hint(state: State, seat: int) -> OddsHint | None:
    if state.phase is not Phase.DECIDE or seat != state.turn or state.top_card(seat) > CARDS:
        return None
    # lazy: the master's model, only for a hint (start-up on the Zero)
    from .bots.advice import master_advice

    a = master_advice(state, seat)
    return OddsHint(a.p_success, a.expected_cards, a.risk)


def short_review(header: Header, actions: Sequence[Action], seats: Sequence[int]) -> dict[int, str]:
    """The end screen's line for each of ``seats``: its costliest decision in the master's
    review ("costliest: risk at 12, -9 %"), or that it lost nothing worth a mention."""
    # lazy: the master's search, only at game over (start-up on the Zero)
    from .bots.review import review, short_text

    rev = review(header, actions, seats=frozenset(seats))
    return {s: short_text(rev, s) or "no costly choice" for s in seats}


def view_for(state: State, seat: int, ui: SeatUi = DEFAULT_UI) -> SeatView:
    """The view ``seat`` shows now: a menu, the play screen, the win screen or the table."""
    shift = pixel_shift(ui.shift_counter)
    if ui.menu is not None:
        return ui.menu
    if state.phase is Phase.OVER:
        return _end_view(state, seat, ui, shift)
    if ui.roll is not None:
        return _roll_shown_view(state, seat, ui, ui.roll, shift)
    options = choices(state, seat, ui.placing)
    rolled = state.phase in ROLLED_PHASES
    my_turn = seat == state.turn
    banner = ui.banner
    if not banner and state.phase is Phase.GREEN_REFUSAL and seat == state.target:
        banner = ("SWITCH?", f"{COLOURS[state.control[state.turn]].upper()} asks")
    return PlayView(
        *_deck(state, seat),
        my_turn=my_turn,
        turn_colour=state.colour_of(state.turn),
        dice=state.dice if rolled else (),
        switch=state.switch.value if rolled and state.switch is not None else None,
        rolling=state.dice_count(seat) if my_turn and state.phase is Phase.ROLL else 0,
        just_discarded=state.rolled_discards if my_turn and rolled else 0,
        prompt=legend(row(state, seat, ui.placing))
        if options
        else _bot_prompt(state, seat)
        if ui.bot
        else prompt_for(state, seat),
        banner=banner,
        tumble=ui.tumble,
        odds=_odds_hint(state, seat) if ui.odds else None,
        name=ui.name,
        # A game menu opens in the play screen's right panel (few bytes change).
        options=tuple(label for label, _ in options),
        highlight=ui.highlight % len(options) if options else 0,
        title=_menu_title(state, ui.placing) if options else "",
        shift=shift,
    )


def _deck(state: State, seat: int) -> tuple[str, int, int, bool, bool]:
    """A :class:`PlayView`'s first fields: the seat's deck (colour, top card, dice it
    would roll), the chip in its hand, the chip on its deck."""
    return (
        state.colour_of(seat),
        state.top_card(seat),
        state.dice_count(seat),
        state.chip_holder == seat,
        state.blocked(seat),
    )


def _roll_shown_view(
    state: State, seat: int, ui: SeatUi, roll: RollShown, shift: tuple[int, int]
) -> PlayView:
    """The roll that ended its turn: its dice and switch face, whose it was (YOUR TURN
    stays on the roller's display), what came of it; the decks as they are now (a
    penalty or a switch already done)."""
    return PlayView(
        *_deck(state, seat),
        my_turn=seat == roll.seat,
        turn_colour=state.colour_of(roll.seat),
        dice=roll.dice,
        switch=roll.switch,
        prompt=(("", roll.outcome),),
        name=ui.name,
        shift=shift,
    )


def _end_view(state: State, seat: int, ui: SeatUi, shift: tuple[int, int]) -> SeatView:
    winner = state.winner if state.winner is not None else 0
    if state.scores is None:
        gone = tuple(state.top_card(s) - 1 for s in range(state.players))
        labels = seat_labels(state, ui)
        return WinView(seat, winner, labels, gone, prompt_for(state, seat), shift, ui.review)
    gained = tuple(
        CARDS if s == state.winner else state.discarded_of(s) for s in range(state.players)
    )
    return ScoresView(
        seat,
        state.round,
        seat_labels(state, ui),
        state.scores,
        gained,
        state.winner,
        state.match_winners,
        prompt_for(state, seat),
        shift,
        ui.review if state.match_winners else "",
    )
