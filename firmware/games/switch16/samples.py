"""Typical views of every screen, built from real engine states (goldens, sheet, benchmark).

Run ``python -m firmware.games.switch16.samples [OUT.png] [--scale N]`` for a contact sheet of them.
"""

from __future__ import annotations

import argparse

from firmware.games.switch16.setup import GameSetup, SetupMenu
from firmware.screens import BlankView, NotPlayingView, SaverView
from firmware.screens.contact_sheet import contact_sheet
from firmware.unit.menus import setup_menu
from firmware.unit.rolloff import rolloff_views

from .banners import turn_end
from .engine import (
    DEFAULT_PRESET,
    DISCARD,
    RISK,
    Face,
    NewRound,
    Place,
    Roll,
    State,
    make_rules,
)
from .game_views import SeatUi, view_for
from .screens import SeatView, render_seat
from .seat_views import seat_names


def samples() -> dict[str, SeatView]:
    """Named sample views covering every screen and the main phases."""
    out: dict[str, SeatView] = {}
    questions = SetupMenu(GameSetup.of(["human", "human", "expert"]), 4).questions()
    by_key = {q.key: q for q in questions}
    players, bot = by_key["players"], by_key["seat2"]  # 3 players; seat 3 is an expert bot
    out["setup_players"] = setup_menu(players.title, players.options, players.value, can_back=False)
    out["setup_bot"] = setup_menu(bot.title, bot.options, bot.value)
    four = seat_names(("human",) * 4)
    out["rolloff_tie"] = rolloff_views(0, four, [{0: 5, 1: 5, 2: 2, 3: 1}])[0]
    out["rolloff_start"] = rolloff_views(1, four, [{0: 5, 1: 5, 2: 2, 3: 1}, {0: 2, 1: 6}])[1]

    s = State.new(3, 0)
    out["roll_mine"] = view_for(s, 0)
    out["roll_other"] = view_for(s, 1, SeatUi(name="bot: expert"))
    out["shaking"] = view_for(s, 0, SeatUi(tumble=4))
    s = s.apply(Roll((1, 2, 4), Face.BLANK))
    out["discard_first"] = view_for(s, 0)
    for _ in range(7):
        s = s.apply(DISCARD)
    out["decide"] = view_for(s, 0)
    out["decide_odds"] = view_for(s, 0, SeatUi(odds=True))
    s = s.apply(RISK)
    s = s.apply(Roll((6, 2, 1, 5), Face.BLOCK))
    out["block_rolled"] = view_for(s, 0)
    out["chip_watch"] = view_for(s, 1)
    s = s.apply(DISCARD)
    s = s.apply(DISCARD)
    out["decide_chip"] = view_for(s, 0)
    t = s.apply(Place(0, 1))
    out["blocked"] = view_for(t, 1)
    out["banner_blocked"] = view_for(t, 1, SeatUi(banner=("BLOCKED!", "by RED")))
    out["banner_penalty"] = view_for(t, 0, SeatUi(banner=("PENALTY", "back to 9")))
    out["banner_switch"] = view_for(t, 2, SeatUi(banner=("SWITCH", "red↔blue")))
    c = State.new(3, 1).apply(Roll((6, 6, 6), Face.BLOCK)).apply(Roll((5, 5, 5), Face.BLANK))
    c = c.apply(Roll((1, 2, 4), Face.BLANK)).apply(DISCARD)
    out["chip_can_block"] = view_for(c, 1, SeatUi(name="P2"))
    out["place_menu"] = view_for(s, 0, SeatUi(placing=True, highlight=1))
    g = s.apply(RISK).apply(Roll((6, 6, 6, 6), Face.GREEN))
    out["green_menu"] = view_for(g, 0, SeatUi(highlight=0))
    r = State.new(4, 0).apply(Roll((1, 2, 3), Face.BLANK))
    for _ in range(6):
        r = r.apply(DISCARD)
    r = r.apply(RISK).apply(Roll((1, 1, 1, 1), Face.RED))
    out["red_menu"] = view_for(r, 0, SeatUi(highlight=2))
    roll, before = Roll((6, 6, 6), Face.BLANK), State.new(2, 1)
    ended = before.apply(roll)  # blue made nothing: red to roll, the roll still shown
    out["roll_shown"] = view_for(ended, 0, SeatUi(roll=turn_end(before, roll, ended)))

    out["win_other"] = view_for(_play_to_win(2, points=False), 1)
    out["win_mine"] = view_for(_play_to_win(2, points=False), 0)
    out["win_review"] = view_for(
        _play_to_win(3, points=False), 1, SeatUi(review="costliest: green: take YELLOW, -12 %")
    )
    out["scores_round"] = view_for(_play_to_win(4, points=True), 2)
    out["rolloff_bot_starts"] = rolloff_views(
        0, seat_names(("human", "rulebook", "expert")), [{0: 2, 1: 6, 2: 3}]
    )[-1]
    out["saver"] = SaverView(37, "12")
    out["not_playing"] = NotPlayingView()
    out["blank"] = BlankView()
    return out


def _play_to_win(players: int, points: bool) -> State:
    """The first seat wins at once (in a points game: after a first round won by seat 0)."""
    s = State.new(players, 0, make_rules(DEFAULT_PRESET, {"points": points}))
    if points:
        s = _play_round(s).apply(NewRound(1))
    return _play_round(s)


def _play_round(s: State) -> State:
    """The seat to move rolls 1,2,4,6,3 (every card makeable) and risks until it wins."""
    while s.phase.value != "over":
        n = s.dice_count()
        s = s.apply(Roll((1, 2, 4, 6, 3)[:n], Face.BLANK))
        while s.phase.value == "discard":
            s = s.apply(DISCARD)
        if s.phase.value == "decide":
            s = s.apply(RISK)
    return s


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", default="screens-contact-sheet.png")
    parser.add_argument("--scale", type=int, default=3)
    args = parser.parse_args()
    contact_sheet(samples(), args.scale, render_seat).save(args.out)  # Switch 16's screens
    print(args.out)


if __name__ == "__main__":
    main()
