"""The harness plays Swytch's human seats through the link: a random legal action each
turn, entered with the presses :func:`~firmware.games.swytch.controls.presses_for` gives
for the seat's picker (rebuilt from the ``ui`` op), every seat's glass checked at every
human decision (:meth:`~.unit_driver.UnitDriver.check_all_frames`)."""

from __future__ import annotations

import contextlib
from typing import Any

from firmware.engine.seats import seat_name
from firmware.games.registry import get_game
from firmware.games.swytch.controls import CHIP, presses_for

from .expected import replayed, ui_from_json
from .report import StepFailed
from .unit_driver import Patience, UnitDriver

SWYTCH = "swytch"


def play_swytch(d: UnitDriver, stall_s: float, max_turns: int = 400) -> Any:
    """Play the human seats until the game is over (or ``max_turns`` actions, a draw by
    the harness's patience); StepFailed after ``stall_s`` of the unit's time without an
    action. Returns the last position."""
    game = get_game(SWYTCH)
    patience = Patience(d, stall_s)
    last_checked = -1
    while True:
        info = d.state()
        patience.check(info["actions"])
        state, kinds = d.position()
        if state is None or info["mode"] != "play":
            d.idle()
            continue
        if state.game_over or info["actions"] >= max_turns:
            return state
        seat = game.waiting_seat(state)
        if seat is None or kinds[seat] != "human":
            d.idle()
            continue
        if info["actions"] != last_checked:
            d.check_all_frames(f"{SWYTCH} after action {info['actions']}")
            last_checked = info["actions"]
        take_turn(d, seat, state)


def take_turn(d: UnitDriver, seat: int, state: Any) -> None:
    """``seat`` reads the last turn (the press that takes it off), then enters a random
    legal action; the unit must commit exactly that action."""
    snap = d.c.request("ui")
    ui = ui_from_json(snap, state)
    if ui.last_for == seat:
        d.press(seat, CHIP.value)
        snap = d.c.request("ui")
        ui = ui_from_json(snap, state)
    if ui.picker is None:
        raise StepFailed(f"{SWYTCH}: {seat_name(seat)} is on turn but has no picker")
    action = d.rng.choice(list(state.legal_actions()))
    before = snap["actions"]
    for button in presses_for(ui.picker, action):
        d.press(seat, button.value)
    with contextlib.suppress(StepFailed):
        d.wait_for("the action", lambda s: s["actions"] != before, timeout=3)
    lines = d.c.request("transcript")["lines"]
    if len(lines) < before + 2:
        raise StepFailed(f"{SWYTCH}: the presses for {action} committed nothing")
    if replayed("the turn entered", lines[: before + 2]) != state.apply(action):
        raise StepFailed(f"{SWYTCH}: the unit committed another action than {action}")
