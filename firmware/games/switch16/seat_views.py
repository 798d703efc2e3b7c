"""What each seat's display shows now: the controller's state -> a screens view.

Game screens come from :mod:`firmware.games.switch16.game_views`; this adds the rest
(set-up, roll-off; the unit shell's messages and screensaver,
:func:`firmware.unit.shell.shell_view`) and picks the one on top.
"""

from __future__ import annotations

import functools

from firmware.games.switch16.ui_state import UiState
from firmware.kernel.players import HUMAN
from firmware.kernel.seats import seat_name
from firmware.screens import BlankView, NotPlayingView, pixel_shift
from firmware.unit.menus import setup_menu
from firmware.unit.rolloff import rolloff_view
from firmware.unit.shell import shell_view
from firmware.unit.ui_state import Mode

from .engine.rules import CARDS
from .game_views import SeatUi, view_for
from .screens import SeatView


@functools.lru_cache(maxsize=32)  # every display's view names the seats, at every refresh
def seat_names(kinds: tuple[str, ...]) -> tuple[str, ...]:
    """Names for tables and the end screens: the seat ("seat 2", as the players know
    it: its deck changes with every switch), with the bot level for bots."""
    return tuple(
        seat_name(s) if kind == HUMAN else f"{seat_name(s)}·{kind}" for s, kind in enumerate(kinds)
    )


def seat_view(ui: UiState, seat: int) -> SeatView:
    """The view ``seat`` shows for the unit's UI state (:meth:`Controller.ui`)."""
    shift = pixel_shift(ui.shell.shift_counter)
    st = ui.state
    playing = ui.mode is Mode.PLAY and st is not None

    def saver_text() -> str:  # the seat's top card
        mine = st is not None and playing and seat < st.players
        return str(min(st.top_card(seat), CARDS) if st is not None and mine else CARDS)

    over = shell_view(ui.shell, seat, saver_text)
    if over is not None:
        return over
    if ui.mode is Mode.SETUP and ui.setup is not None:
        q = ui.setup.question
        return setup_menu(q.title, q.options, q.value, ui.setup.index > 0, shift)
    if ui.mode is Mode.ROLLOFF and ui.rolloff is not None:
        show = ui.rolloff
        kinds = show.seats if show.seats is not None else ui.kinds
        return rolloff_view(show, seat, seat_names(kinds), shift)
    if not playing:
        return BlankView()
    assert st is not None
    if seat >= st.players:
        return NotPlayingView(shift)
    menu = ui.menu(seat)
    tumble = ui.tumble
    kind = ui.kinds[seat] if seat < len(ui.kinds) else HUMAN
    seat_ui = SeatUi(
        highlight=menu.highlight if menu is not None else 0,
        placing=menu is not None and menu.placing,
        banner=ui.banner(seat),
        tumble=tumble[1] if tumble is not None and tumble[0] == seat else None,
        odds=seat in ui.hints,
        shift_counter=ui.shell.shift_counter,
        name="" if kind == HUMAN else f"bot {kind}",
        labels=seat_names(ui.kinds),
        bot=kind != HUMAN,
        review=ui.shell.review(seat),
        roll=ui.roll_shown,
    )
    return view_for(st, seat, seat_ui)
