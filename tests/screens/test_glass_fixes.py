"""What players saw wrong on the glass (issue 10), each pinned down."""

from __future__ import annotations

from firmware.games.switch16.engine import RISK, Face, Roll, State, make_rules
from firmware.games.switch16.samples import samples
from firmware.games.switch16.screens import draw, render_seat
from firmware.games.switch16.seat_views import seat_names
from firmware.screens import MenuView
from firmware.screens import text as tx
from firmware.unit.rolloff import rolloff_views


def texts(view) -> list[str]:
    return [t for t, _ in draw(view).texts]


def test_long_names_are_cut_with_an_ellipsis_and_keep_their_words() -> None:
    names = seat_names(("human", "rulebook", "expert", "rulebook"))
    assert names[1] == "seat 2·rulebook"  # not "seat 2·rule": the level is not clipped
    last = rolloff_views(0, names, [{0: 1, 1: 2, 2: 3, 3: 6}])[-1]
    (bottom,) = [t for t in texts(last) if t.endswith(" starts")]
    assert bottom.startswith("seat 4·") and (bottom == "seat 4·rulebook starts" or "…" in bottom)
    assert tx.fit("YELLOW·rulebook wins match", tx.TEXT, 80).endswith("…")


def test_menu_scroll_hints_stay_out_of_the_options() -> None:
    menu = MenuView("SEAT PLAYER", ("human", "bot: easy", "bot: rulebook", "bot: expert"), 3)
    image = render_seat(menu)
    left_margin = [image.getpixel((x, y)) for x in range(6) for y in range(13, 50)]
    assert not any(left_margin)  # nothing beside an option looks like a marker
    right_margin = [image.getpixel((x, y)) for x in range(122, 128) for y in range(13, 50)]
    assert any(right_margin)  # the hint is there, at the right


def test_title_letters_are_spaced_by_their_own_widths() -> None:
    """No fractional kerning: at 1 bit it made letters collide ("PL AYERS") or gape
    ("SE AT"), and raqm, which applies it, is not on every Pi."""
    font = tx.font(tx.TEXT)
    for title in ("PLAYERS", "SEAT PLAYER", "WHO STARTS?"):
        assert font.getlength(title) == sum(font.getlength(ch) for ch in title)


def test_the_table_shows_no_dice_while_a_risk_is_to_be_rolled() -> None:
    from sim.tableview import game_table_view

    state = State.new(2, 0, make_rules())
    state = state.apply(Roll((1, 2, 4), Face.BLANK))
    while state.phase.value == "discard":
        state = state.apply(state.legal_actions()[0])
    state = state.apply(RISK)
    assert state.phase.value == "roll"
    assert game_table_view("switch16", state, ("human", "easy")).dice == ()


def test_the_end_screen_counts_discarded_cards_for_everyone() -> None:
    shown = texts(samples()["win_other"])
    assert "16/16" in shown and "0/16" in shown
    assert "16" not in shown and "1" not in shown  # no unlabelled top card


def test_seats_out_of_the_game_say_so() -> None:
    from firmware.screens import NotPlayingView

    assert texts(NotPlayingView()) == ["not playing"]
    from firmware.games.switch16.controller import Controller
    from firmware.games.switch16.seat_views import seat_view
    from firmware.games.switch16.setup import GameSetup
    from firmware.settings import Timing

    ctl = Controller(4, Timing(), GameSetup())
    ctl.begin(State.new(2, 0, make_rules()), ("human", "easy"), 0.0)
    assert isinstance(seat_view(ctl.ui(), 3), NotPlayingView)
