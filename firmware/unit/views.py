"""What each seat's display shows now: the controller's state -> a screens view.

Game screens come from :mod:`firmware.unit.game_views`; this adds the rest (set-up,
roll-off, messages, the screensaver) and picks the one on top.
"""

from __future__ import annotations

from firmware.engine import seat_name
from firmware.engine.rules import CARDS
from firmware.screens import BlankView, MenuView, NotPlayingView, SaverView, SeatView, pixel_shift

from .controller import Controller, Mode
from .game_views import SeatUi, rolloff_views, setup_menu, view_for
from .setup import HUMAN

MESSAGE_LEGEND = (("", "any key"),)


def seat_names(kinds: tuple[str, ...]) -> tuple[str, ...]:
    """Names for tables and the end screens: the seat ("seat 2", as the players know
    it: its deck changes with every switch), with the bot level for bots."""
    return tuple(
        seat_name(s) if kind == HUMAN else f"{seat_name(s)}·{kind}" for s, kind in enumerate(kinds)
    )


def seat_view(ctl: Controller, seat: int) -> SeatView:
    """The view ``seat`` shows for the controller's current state."""
    shift = pixel_shift(ctl.shift_counter)
    st = ctl.state
    playing = ctl.mode is Mode.PLAY and st is not None
    if ctl.saver:
        text = str(CARDS)
        if st is not None and playing and seat < st.players:
            text = str(min(st.top_card(seat), CARDS))
        return SaverView(ctl.saver_counter * 5 + seat * 17, text)
    if ctl.message is not None:
        title, *lines = ctl.message
        return MenuView(title, tuple(lines), 0, MESSAGE_LEGEND, False, shift)
    if ctl.mode is Mode.SETUP:
        q = ctl.menu.question
        view = setup_menu(q.title, q.options, q.value, can_back=ctl.menu.index > 0)
        return MenuView(view.title, view.options, view.highlight, view.legend, view.back, shift)
    if ctl.mode is Mode.ROLLOFF and ctl.rolloff is not None:
        show = ctl.rolloff
        kinds = show.setup.seats if show.setup is not None else ctl.kinds
        if seat >= len(kinds):
            return NotPlayingView(shift)
        views = rolloff_views(seat, seat_names(kinds), show.rounds)
        v = views[min(show.shown, len(views) - 1)]
        return type(v)(v.seat, v.rolls, v.labels, v.starter, v.attempt, shift)
    if not playing:
        return BlankView()
    assert st is not None
    if seat >= st.players:
        return NotPlayingView(shift)
    menu = ctl.menus.get(seat)
    tumble = ctl.tumble
    kind = ctl.kinds[seat] if seat < len(ctl.kinds) else HUMAN
    ui = SeatUi(
        highlight=menu.highlight if menu is not None else 0,
        placing=menu is not None and menu.placing,
        banner=ctl.banners.get(seat, ()),
        tumble=tumble.frame if tumble is not None and tumble.seat == seat else None,
        odds=seat in ctl.hints,
        shift_counter=ctl.shift_counter,
        name="" if kind == HUMAN else f"bot {kind}",
        labels=seat_names(ctl.kinds),
        bot=kind != HUMAN,
        review=ctl.reviews.get(seat, ""),
        roll=ctl.roll_shown,
    )
    return view_for(st, seat, ui)
