"""Typical Swytch screens, built from real positions (goldens, the contact sheet).

Run ``python -m firmware.games.swytch.screens.samples [OUT.png] [--scale N]`` for a
contact sheet of them.
"""

from __future__ import annotations

import argparse

from firmware.screens.contact_sheet import contact_sheet
from hal.events import Button

from ..board import Board, Cell, Counter, Shape, Stack
from ..controls import hold, press
from ..picker import Picker
from ..state import State
from .build import end_view, last_turn, onlooker_view, player_view
from .render import render
from .views import SwytchView

YES, NO, CHIP = Button.YES, Button.NO, Button.CHIP
P = Cell.parse
UP, DOWN = Counter(True), Counter(False)
UP_A, DOWN_A = Counter(True, True), Counter(False, True)


def _hex(owner: int, *counters: Counter) -> Stack:
    return Stack(owner, Shape.HEX, counters)


def _round(owner: int, height: int) -> Stack:
    return Stack(owner, Shape.ROUND, (Counter(),) * height)


def midgame() -> State:
    """A position with tall, angled, swytched and round stacks of both sides near d4."""
    return State.from_board(
        Board.of(
            9,
            {
                P("a1"): _hex(0, UP, UP),
                P("b2"): _hex(0, UP, UP),
                P("c3"): _hex(0, UP, DOWN, UP_A),
                P("d3"): _round(0, 3),
                P("d4"): _hex(0, DOWN, UP),
                P("e3"): _hex(0, UP, UP, UP, UP_A),
                P("c5"): _hex(1, DOWN, DOWN, DOWN),
                P("d6"): _round(1, 2),
                P("e5"): _hex(1, UP_A),
                P("f6"): _hex(1, DOWN, DOWN),
                P("g8"): _hex(1, DOWN, DOWN_A),
                P("h9"): _round(1, 1),
            },
        ),
        0,
    )


def _presses(picker: Picker, *buttons: Button) -> Picker:
    for b in buttons:
        picker = press(picker, b)
    return picker


def _option(picker: Picker, label: str) -> Picker:
    """The picker's stack chosen (YES) and its option ``label`` reached with CHIP."""
    picker = press(picker, YES)
    while picker.current_option.label != label:
        picker = press(picker, CHIP)
    return picker


def samples() -> dict[str, SwytchView]:
    """Named sample views covering every Swytch screen and the picker's stages."""
    out: dict[str, SwytchView] = {}
    s = State.new()
    out["setup_south"] = player_view(s, 0, Picker.new(s, 0, near=P("d2")))
    out["setup_north_waits"] = player_view(s, 1)
    n = State.new(first=1)
    out["setup_north_turn"] = player_view(n, 1, Picker.new(n, 1, near=P("e8")))
    m = midgame()
    pick = Picker.new(m, 0, near=P("c3"))
    out["stack_angled"] = player_view(m, 0, pick)
    out["options"] = player_view(m, 0, _presses(pick, YES, CHIP))
    dest = press(_option(pick, "move 2"), YES)  # move 2 from c3
    by_outcome: dict[str, int] = {}
    for i, t in enumerate(dest.current_option.targets):
        by_outcome.setdefault(t.outcome, i)
    for outcome, i in sorted(by_outcome.items()):
        out[f"dest_{outcome.replace(' ', '_')}"] = player_view(m, 0, _presses(dest, *[CHIP] * i))
    attack = press(_option(Picker.new(m, 0, near=P("e3")), "move 2"), YES)
    for i, t in enumerate(attack.current_option.targets):
        if t.outcome == "attack won":
            out["dest_attack_won"] = player_view(m, 0, _presses(attack, *[CHIP] * i))
            break
    out["hint_asked"] = player_view(m, 0, hold(pick, CHIP))
    bent = Picker.new(m, 0, near=P("e3"))
    labelled = press(_option(bent, "move 4"), YES)
    for i, t in enumerate(labelled.current_option.targets):
        if t.label == "bent":
            out["dest_bent"] = player_view(m, 0, _presses(labelled, *[CHIP] * i))
            break
    move = dest.current_option.targets[by_outcome["attack lost"]].move
    after = m.apply(move)
    out["last_turn"] = player_view(after, 1, Picker.new(after, 1), last_turn(m, move))
    out["last_marked"] = player_view(
        after, 1, Picker.new(after, 1, near=P("e5")), last_turn(m, move), reading=False
    )
    out["hint_shown"] = player_view(m, 0, hold(pick, CHIP).hinted(move))
    out["onlooker"] = onlooker_view(after, last_turn(m, move))
    tall = State.new(11)
    out["eleven_ranks"] = player_view(tall, 0, Picker.new(tall, 0, near=P("h2")))
    won = State.from_board(Board.of(9, {P("d4"): _hex(0, UP, UP)}), 1)
    out["end_win"] = end_view(won, 0)
    out["end_lost"] = end_view(won, 1)
    out["end_draw"] = end_view(State.from_board(m.board, 0, quiet=100), 1)
    out["end_review"] = end_view(won, 1, review="costliest: a6 4 b5-c5-d4, -1.0")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", default="swytch-contact-sheet.png")
    parser.add_argument("--scale", type=int, default=3)
    args = parser.parse_args()
    contact_sheet(samples(), args.scale, render).save(args.out)
    print(args.out)


if __name__ == "__main__":
    main()
