"""Views built from engine states: prompts per phase, menus, banners, whole random games."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from firmware.games.switch16.banners import banner_for
from firmware.games.switch16.bots import random_bots
from firmware.games.switch16.driver import play
from firmware.games.switch16.engine import (
    DISCARD,
    PRESETS,
    RISK,
    Face,
    Green,
    Phase,
    Place,
    Red,
    Roll,
    State,
    make_rules,
)
from firmware.games.switch16.engine.notation import Header
from firmware.games.switch16.game_views import SeatUi, choices, prompt_for, view_for
from firmware.games.switch16.screens import PlayView, ScoresView, WinView, draw, render_seat


def _decide() -> State:
    s = State.new(3, 0).apply(Roll((1, 2, 4), Face.BLANK))
    while s.phase is Phase.DISCARD:
        s = s.apply(DISCARD)
    return s


def test_whose_turn_changes_the_screen() -> None:
    s = State.new(3, 0)
    mine, other = view_for(s, 0), view_for(s, 1)
    assert isinstance(mine, PlayView) and isinstance(other, PlayView)
    assert mine.my_turn and not other.my_turn and other.turn_colour == "red"
    s1 = State.new(3, 1)
    assert render_seat(view_for(s, 2)).tobytes() != render_seat(view_for(s1, 2)).tobytes()


def test_prompts_differ_per_phase_for_the_turn_seat() -> None:
    roll = State.new(3, 0)
    discard = roll.apply(Roll((1, 2, 4), Face.BLANK))
    decide = _decide()
    block = State.new(2, 0).apply(Roll((6, 6, 6), Face.BLOCK)).apply(Place(0, 1))
    block = block.apply(Roll((6, 6, 6), Face.BLANK)).apply(Roll((6, 6, 6), Face.BLOCK))
    assert block.phase is Phase.BLOCK
    prompts = [prompt_for(s, s.turn) for s in (roll, discard, decide, block)]
    assert len(set(prompts)) == 4
    assert ("YES", "risk") in prompt_for(decide, 0) and ("NO", "pass") in prompt_for(decide, 0)
    assert ("YES", "take") in prompt_for(block, 0)


def test_chip_holder_is_prompted_to_block_during_another_seats_discards() -> None:
    s = State.new(3, 1).apply(Roll((6, 6, 6), Face.BLOCK)).apply(Roll((5, 5, 5), Face.BLANK))
    s = s.apply(Roll((1, 2, 4), Face.BLANK))
    assert s.phase is Phase.DISCARD and s.chip_holder == 1
    assert ("CHIP", "block!") in prompt_for(s, 1)
    assert ("CHIP", "block!") not in prompt_for(s, 2)
    view = view_for(s, 1)
    assert isinstance(view, PlayView) and view.holds_chip


def test_green_refusal_asks_the_named_seat() -> None:
    s = State.new(3, 1).apply(Roll((6, 6, 6), Face.BLOCK)).apply(Roll((5, 5, 5), Face.BLANK))
    s = s.apply(Roll((6, 6, 6), Face.GREEN)).apply(Green(1))
    assert s.phase is Phase.GREEN_REFUSAL
    assert prompt_for(s, 1) == (("YES", "refuse"), ("NO", "accept"))
    view = view_for(s, 1)
    assert isinstance(view, PlayView) and view.banner[0] == "SWITCH?"


def test_bot_seats_are_never_told_to_press_buttons() -> None:
    s = State.new(3, 1).apply(Roll((6, 6, 6), Face.BLOCK)).apply(Roll((5, 5, 5), Face.BLANK))
    refusal = s.apply(Roll((6, 6, 6), Face.GREEN)).apply(Green(1))
    discard = s.apply(Roll((1, 2, 4), Face.BLANK))
    for state in (State.new(3, 0), discard, _decide(), refusal):
        for seat in range(3):
            view = view_for(state, seat, SeatUi(bot=True))
            assert isinstance(view, PlayView)
            assert all(key == "" for key, _ in view.prompt), (state.phase, seat, view.prompt)
    decide = view_for(_decide(), 0, SeatUi(bot=True))
    assert isinstance(decide, PlayView) and decide.prompt == (("", "thinking..."),)


def test_green_menu_lists_the_legal_targets_and_maps_back_to_actions() -> None:
    s = State.new(3, 0).apply(Roll((6, 6, 6), Face.GREEN))
    options = choices(s, 0)
    assert [a for _, a in options] == [Green(1), Green(2), Green(None)]
    view = view_for(s, 0, SeatUi(highlight=4))
    assert isinstance(view, PlayView)  # the menu opens in the play screen's right panel
    assert view.options == tuple(label for label, _ in options)
    assert view.title == "SWITCH WITH" and view.prompt == (("CHIP", "next"), ("YES", "ok"))
    assert view.highlight == 4 % 3
    assert isinstance(view_for(s, 1), PlayView) and choices(s, 1) == ()


def test_red_tie_menu() -> None:
    s = State.new(4, 0).apply(Roll((1, 2, 3), Face.BLANK))
    while s.phase is Phase.DISCARD:
        s = s.apply(DISCARD)
    s = s.apply(RISK).apply(Roll((1, 1, 1, 1), Face.RED))
    assert [a for _, a in choices(s, 0)] == [Red(1), Red(2), Red(3)]
    view = view_for(s, 0)
    assert isinstance(view, PlayView) and view.options == ("BLUE 1", "GREEN 1", "YELLOW 1")


def test_place_menu_for_the_chip_holder_only() -> None:
    s = State.new(3, 0).apply(Roll((1, 2, 4), Face.BLOCK))
    assert s.chip_holder == 0
    acts = [a for _, a in choices(s, 0, placing=True)]
    assert acts == [Place(0, 1), Place(0, 2), None]
    assert choices(s, 1, placing=True) == ()


def test_odds_hint_only_on_the_deciding_seat() -> None:
    s = _decide()
    mine = view_for(s, 0, SeatUi(odds=True))
    assert isinstance(mine, PlayView) and mine.odds is not None
    assert 0 < mine.odds.p_success < 1
    other = view_for(s, 1, SeatUi(odds=True))
    assert isinstance(other, PlayView) and other.odds is None
    off = view_for(s, 0)
    assert isinstance(off, PlayView) and off.odds is None


def test_banners_for_penalty_switch_and_block() -> None:
    s = _decide().apply(RISK)
    after = s.apply(Roll((6, 6, 6, 6), Face.BLANK))
    assert banner_for(s, Roll((6, 6, 6, 6), Face.BLANK), after, 0) == ("PENALTY", "back to 1")
    assert banner_for(s, Roll((6, 6, 6, 6), Face.BLANK), after, 1)[0] == "PENALTY"
    g = State.new(3, 0).apply(Roll((6, 6, 6), Face.GREEN))
    switched = g.apply(Green(2))
    assert banner_for(g, Green(2), switched, 0) == ("SWITCH!", "now GREEN")
    assert banner_for(g, Green(2), switched, 1) == ("SWITCH", "red↔green")
    c = State.new(3, 0).apply(Roll((1, 2, 4), Face.BLOCK))
    assert banner_for(c, Place(0, 2), c.apply(Place(0, 2)), 2)[0] == "BLOCKED!"


def play_to_the_end(s: State) -> State:
    """The seat to move rolls dice that make every card and risks until the game ends."""
    while s.phase is not Phase.OVER:
        s = s.apply(Roll((1, 2, 4, 6, 3)[: s.dice_count()], Face.BLANK))
        while s.phase is Phase.DISCARD:
            s = s.apply(DISCARD)
        if s.phase is Phase.DECIDE:
            s = s.apply(RISK)
    return s


def test_end_views() -> None:
    s = play_to_the_end(State.new(2, 0, make_rules()))
    win = view_for(s, 1)
    assert isinstance(win, WinView) and win.winner == 0 and win.labels == ("seat 1", "seat 2")
    assert render_seat(view_for(s, 0)).tobytes() != render_seat(win).tobytes()


def test_the_end_screen_names_the_winner_by_seat_after_a_switch() -> None:
    """Seat 1 started red and switched to blue; seat 2 wins on the red deck: seat 1's
    screen says "SEAT 2 WINS", not "RED WINS" (issue 22, item 2)."""
    s = State.new(2, 0, make_rules()).apply(Roll((1, 5, 5), Face.BLANK)).apply(DISCARD)
    s = s.apply(RISK).apply(Roll((1, 1, 1), Face.RED))  # a red switch: seat 1 takes blue
    assert s.colour_of(0) == "blue" and s.turn == 1
    s = play_to_the_end(s)
    assert s.winner == 1 and s.colour_of(1) == "red"
    shown = [t for t, _ in draw(view_for(s, 0, SeatUi(labels=("seat 1", "seat 2·easy")))).texts]
    assert "SEAT 2 WINS" in shown and not any("RED" in t for t in shown)
    assert "YOU" in shown and "seat 2" in shown and "16/16" in shown
    mine = [t for t, _ in draw(view_for(s, 1)).texts]
    assert "YOU WIN!" in mine


def test_the_costliest_choice_fits_the_end_screen() -> None:
    from firmware.games.switch16.samples import samples

    review = samples()["win_review"]
    assert isinstance(review, WinView) and len(review.review) > 30
    shown = " ".join(t for t, _ in draw(review).texts)
    assert "costliest: green: take YELLOW, -12 %" in shown
    assert "…" not in shown


# ------------------------------------------------------------------ random games
def _states(seed: int, players: int, preset: str, points: bool) -> Iterator[State]:
    rng = random.Random(seed)
    rules = make_rules(preset, {"points": points})
    header = Header(players, rng.randrange(players), rules)
    _, actions = play(header.initial_state(), random_bots(players, rng), rng)
    s = header.initial_state()
    yield s
    for action in actions:
        s = s.apply(action)
        yield s


def _in_frame(view: object) -> None:
    for text, (x0, y0, x1, y1) in draw(view).texts:  # type: ignore[arg-type]
        assert x0 >= 0 and y0 >= 0 and x1 <= 128 and y1 <= 64, (text, (x0, y0, x1, y1), view)


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_state_of_random_games_renders_for_every_seat(preset: str, players: int) -> None:
    phases: set[Phase] = set()
    for points in (False, True):
        step = 5 if points else 1  # a points match is long: sample its states
        for i, s in enumerate(_states(players * 7 + len(preset), players, preset, points)):
            phases.add(s.phase)
            if i % step:
                continue
            for seat in range(players):
                ui = SeatUi(odds=True, placing=i % 5 == 0, highlight=i, shift_counter=i)
                view = view_for(s, seat, ui)
                image = render_seat(view)
                assert image.mode == "1" and image.size == (128, 64)
                if i % 3 == 0:
                    _in_frame(view)
    assert {Phase.ROLL, Phase.DISCARD, Phase.DECIDE, Phase.OVER} <= phases


def test_scores_table_fits_with_three_digit_scores() -> None:
    view = ScoresView(
        0, 12, ("WWWWWWWWWWWW",) * 4, (199, 188, 100, 99), (16, 15, 14, 0), 0, (0, 1), ()
    )
    _in_frame(view)
    render_seat(view)
