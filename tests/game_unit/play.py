"""A pin-level autoplayer for the human seats of a :class:`~tests.game_unit.conftest.Table`."""

from __future__ import annotations

import random

from firmware.games.switch16.controller import Mode, deciding_seat
from firmware.games.switch16.engine import Phase

from .conftest import CHIP, NO, YES, Table


def act(table: Table, policy: random.Random) -> None:
    """Do what the position needs next: press a human seat's buttons, or let time run."""
    unit, ctl = table.unit, table.unit.controller
    st = unit.state
    if ctl.mode is not Mode.PLAY or st is None:
        table.run_until(lambda: ctl.mode is Mode.PLAY)
        return
    if ctl.roll_shown is not None:  # a roll that ended its turn: read it, or skip it
        if policy.random() < 0.5:
            table.press(next((s for s in range(st.players) if ctl.is_human(s)), 0), NO)
        else:
            table.run_until(lambda: ctl.roll_shown is None)
        return
    if st.round_pending:
        seat = next((s for s in range(st.players) if ctl.is_human(s)), 0)
        table.press(seat, YES)
        table.run_until(lambda: unit.state is not None and not unit.state.round_pending)
        return
    holder = st.chip_holder
    if (
        holder is not None
        and ctl.is_human(holder)
        and st.phase in (Phase.ROLL, Phase.DECIDE)
        and policy.random() < 0.05
    ):
        table.press(holder, CHIP)  # open "lay chip on…"
        for _ in range(policy.randrange(st.players - 1)):
            table.press(holder, CHIP)
        table.press(holder, YES)
        return
    actor = deciding_seat(st)
    human_turn = ctl.is_human(st.turn)
    if st.phase is Phase.ROLL and human_turn:
        if policy.random() < 0.5:
            table.shake(policy.randrange(8, 20))
        else:
            table.press(st.turn, YES)
        table.after_action()
    elif st.phase is Phase.DISCARD:
        if (
            holder is not None
            and holder != st.turn
            and ctl.is_human(holder)
            and (policy.random() < 0.2)
        ):
            table.press(holder, CHIP)
        else:
            table.after_action()
    elif actor is not None and ctl.is_human(actor):
        if st.phase in (Phase.GREEN, Phase.RED):
            for _ in range(policy.randrange(3)):
                table.press(actor, CHIP)
            table.press(actor, YES)
        elif st.phase is Phase.DECIDE:
            table.press(actor, YES if policy.random() < 0.4 else NO)
        else:
            table.press(actor, YES if policy.random() < 0.5 else NO)
    else:
        table.after_action()


def play_until(table: Table, policy: random.Random, done, limit: int = 3000) -> None:
    for _ in range(limit):
        if done():
            return
        act(table, policy)
    raise AssertionError("the game did not finish")
