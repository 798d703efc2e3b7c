"""The zoom window follows what a player's board looks at: it stays while the cursor
(or the move shown) lies inside it, so a step inside it changes only the cells it
leaves and reaches (few bytes to the panel), and a committed move pans nothing."""

from __future__ import annotations

import random

from PIL import ImageChops, ImageDraw

from firmware.games.swytch.controller import SwytchController
from firmware.games.swytch.controls import presses_for
from firmware.games.swytch.game import GAME
from firmware.games.swytch.screens import BoardView
from firmware.games.swytch.screens.render import HALF_H, HALF_W, ZOOM_H, ZOOM_W, centre
from firmware.games.swytch.setup import SwytchSetup
from firmware.games.swytch.state import State
from firmware.games.swytch.ui_state import SwytchUi
from firmware.settings import Timing
from hal.events import Button, ButtonDown


def _playing(seed: int) -> SwytchController:
    """Two humans, some turns into a game."""
    rng = random.Random(seed)
    st = State.new(9, 0)
    for _ in range(10):
        st = st.apply(rng.choice(st.legal_actions()))
    ctl = SwytchController(2, Timing(), SwytchSetup())
    ctl.begin(st, ("human", "human"), 0.0)
    return ctl


def _board(ctl: SwytchController, seat: int) -> BoardView:
    view = GAME.seat_view(ctl.ui(), seat)
    assert isinstance(view, BoardView)
    return view


def _inside(view: BoardView, corner: tuple[int, int]) -> bool:
    assert view.cursor is not None
    cx, cy = centre(view.cursor, view.seat, view.board.ranks)
    x, y = corner
    return x + HALF_W < cx < x + ZOOM_W - 1 - HALF_W and y + HALF_H < cy < y + ZOOM_H - 1 - HALF_H


def test_a_cursor_step_inside_the_window_changes_only_the_two_cells() -> None:
    kept = moved = 0
    for seed in range(6):
        ctl = _playing(seed)
        seat = ctl.state.to_move
        for _ in range(12):
            before = _board(ctl, seat)
            ctl.handle(ButtonDown(0.0, seat, Button.CHIP), 0.0)  # the next stack
            after = _board(ctl, seat)
            assert after.corner is not None and _inside(after, after.corner)
            if before.corner is None or not _inside(after, before.corner):
                moved += 1
                continue
            kept += 1
            assert after.corner == before.corner
            zoom = (0, 0, ZOOM_W, ZOOM_H)
            diff = ImageChops.logical_xor(
                GAME.render(before).convert("1").crop(zoom),
                GAME.render(after).convert("1").crop(zoom),
            )
            blank = ImageDraw.Draw(diff)
            for view in (before, after):
                assert view.cursor is not None
                cx, cy = centre(view.cursor, seat, view.board.ranks)
                x, y = view.corner or (0, 0)
                blank.rectangle(
                    (
                        cx - x - HALF_W - 1,
                        cy - y - HALF_H - 1,
                        cx - x + HALF_W + 1,
                        cy - y + HALF_H + 1,
                    ),
                    fill=0,
                )
            assert diff.getbbox() is None, f"seed {seed}: the board moved"
    assert kept > moved > 0  # most steps stay inside; some leave it (then it is centred)


def test_a_committed_move_leaves_the_window_where_it_was() -> None:
    for seed in range(6):
        ctl = _playing(seed)
        st, seat = ctl.state, ctl.state.to_move
        action = random.Random(seed).choice(st.legal_actions())
        buttons = presses_for(ctl.picker, action)
        for button in buttons[:-1]:
            ctl.handle(ButtonDown(0.0, seat, button), 0.0)
        corner = _board(ctl, seat).corner
        commands = ctl.handle(ButtonDown(0.0, seat, buttons[-1]), 0.0)
        assert [c.action for c in commands] == [action]  # type: ignore[attr-defined]
        ctl.committed(action, st.apply(action), 0.1)
        assert _board(ctl, seat).corner == corner  # the move made stays in view


def test_the_windows_travel_with_the_ui_state() -> None:
    ctl = _playing(1)
    seat = ctl.state.to_move
    for _ in range(5):
        ctl.handle(ButtonDown(0.0, seat, Button.CHIP), 0.0)
    ui = ctl.ui()
    assert ui.corners and ui.corner(seat) is not None
    again = SwytchUi.from_json(ui.to_json(), ctl.state)
    assert again.corners == ui.corners
    assert GAME.seat_view(again, seat) == GAME.seat_view(ui, seat)
