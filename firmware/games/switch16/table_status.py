"""Switch 16's status line under the simulator's table (:meth:`Game.table_status`):
whose turn it is and what is due, in words, by the position's phase."""

from __future__ import annotations

from typing import Any

from firmware.kernel.seats import seat_name

from .engine import Phase, State

#: What is due, by phase (a finished game says who won).
STATUS = {
    Phase.ROLL: "{who} to roll",
    Phase.DISCARD: "{who} discards…",
    Phase.DECIDE: "{who}: risk (roll) or pass?",
    Phase.GREEN: "green: {who} may name a seat",
    Phase.GREEN_REFUSAL: "green: {target} may refuse with the chip",
    Phase.RED: "red: {who} picks the lowest seat",
    Phase.BLOCK: "block: {who} takes or leaves the chip",
}


def table_status(state: State, *, rolling: bool = False, shown: Any = None) -> str:
    """The line for ``state``: the winner of a finished game or round; the roll
    ``shown`` on the displays after the turn it ended (its seat and outcome); the dice
    tumbling (``rolling``); else what the seat to act is to do."""
    who = seat_name(state.turn)
    if state.phase == Phase.OVER:
        status = "game over" if state.winner is None else f"{seat_name(state.winner)} wins!"
        if state.round_pending:
            status = f"{status} Next round…" if state.winner is None else f"{status} (round)"
        return status
    if shown is not None:
        return f"{seat_name(shown.seat)} rolled: {shown.outcome}"
    if rolling:
        return f"{who} is rolling…"
    target = "" if state.target is None else seat_name(state.target)
    return STATUS[state.phase].format(who=who, target=target)
