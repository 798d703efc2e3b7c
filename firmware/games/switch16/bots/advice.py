"""The odds advisor for the decide screen: odds of a risk roll and the expert's or the
master's word."""

from __future__ import annotations

from dataclasses import dataclass, replace

from firmware.games.switch16 import odds

from ..engine import RISK, Phase, State
from ..engine.rules import CARDS
from .expert import expert_risks
from .master import best_action


@dataclass(frozen=True, slots=True)
class Advice:
    """What a seat's advisor shows for a risk roll from the deck it controls.

    ``p_success`` = P(the risk roll's numbered dice discard at least one card);
    ``p_penalty`` also counts the switch die (red ends the turn without penalty);
    ``risk`` is the expert's advice for this table (``solitaire_risk`` ignores it).
    """

    seat: int
    discarded: int
    dice: int
    p_success: float
    expected_cards: float
    p_penalty: float
    risk: bool
    solitaire_risk: bool
    blocked: bool


def master_advice(state: State, seat: int) -> odds.Advice:
    """The odds of a risk roll by ``seat`` now, with the master's word on it (phase
    ``decide``, the seat to move): ``risk`` is True when the master would risk here."""
    d = state.discarded[state.control[seat]]
    base = odds.advice(min(d, CARDS - 1), state.rules)
    risk = base.risk
    if state.phase is Phase.DECIDE and seat == state.turn:
        risk = best_action(state, seat)[0] == RISK
    return replace(base, risk=risk)


def advice_for(state: State, seat: int) -> Advice | None:
    """Advice for a risk roll by ``seat`` now (None once its deck is finished).

    Meant for phase ``decide``, but answers for any position: the odds of a risk roll
    from the deck ``seat`` controls. A blocked deck discards nothing: the success
    odds are then those of the dice once a block is rolled.
    """
    d = state.discarded[state.control[seat]]
    if d >= CARDS:
        return None
    base = odds.advice(d, state.rules)
    return Advice(
        seat=seat,
        discarded=d,
        dice=base.dice,
        p_success=base.p_success,
        expected_cards=base.expected_cards,
        p_penalty=base.p_penalty,
        risk=d > 0 and expert_risks(state, seat),
        solitaire_risk=base.risk,
        blocked=state.blocked(seat),
    )
