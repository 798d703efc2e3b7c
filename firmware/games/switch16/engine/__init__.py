"""The Switch 16 rules engine: pure, deterministic, no I/O, no clock, no randomness.

Dice are chance outcomes applied from outside as :class:`Roll` actions
(:meth:`State.chance_outcomes` lists them with their odds), so a transcript of
actions replays a game exactly. Typical use:

    >>> state = State.new(players=3, first=0, rules=make_rules("pressman-2003"))
    >>> state.current_player() == CHANCE       # the dice come next
    True
    >>> state = state.apply(Roll((1, 2, 4), Face.BLANK))
    >>> state.legal_actions(), state.current_player()
    ([Discard()], 0)
    >>> state.apply(RISK)
    Traceback (most recent call last):
    ...
    firmware.games.switch16.engine.errors.WrongPhaseError: risk is not possible in phase 'discard'
"""

from firmware.kernel.players import CHANCE, TERMINAL
from firmware.kernel.rolloff import roll_off_leaders
from firmware.kernel.seats import seat_index, seat_name, seat_number

from .actions import (
    ACCEPT,
    DECLINE,
    DISCARD,
    LEAVE,
    PASS,
    REFUSE,
    RISK,
    SWITCH_DIE,
    SWITCH_ODDS,
    TAKE,
    Action,
    Discard,
    Face,
    Green,
    NewRound,
    Pass,
    Place,
    Red,
    Refuse,
    Risk,
    Roll,
    Take,
)
from .errors import (
    ChipError,
    DiceCountError,
    EngineError,
    GameOverError,
    IllegalActionError,
    MalformedActionError,
    PositionError,
    RulesError,
    TargetError,
    WrongPhaseError,
)
from .phase import Phase
from .rules import COLOURS, DEFAULT_PRESET, PRESETS, Rules, make_rules
from .state import Act, Actor, State
from .transition import exchanged, penalised

__all__ = [
    "ACCEPT",
    "CHANCE",
    "COLOURS",
    "DECLINE",
    "DEFAULT_PRESET",
    "DISCARD",
    "LEAVE",
    "PASS",
    "PRESETS",
    "REFUSE",
    "RISK",
    "SWITCH_DIE",
    "SWITCH_ODDS",
    "TAKE",
    "TERMINAL",
    "Act",
    "Action",
    "Actor",
    "ChipError",
    "DiceCountError",
    "Discard",
    "EngineError",
    "Face",
    "GameOverError",
    "Green",
    "IllegalActionError",
    "MalformedActionError",
    "NewRound",
    "Pass",
    "Phase",
    "Place",
    "PositionError",
    "Red",
    "Refuse",
    "Risk",
    "Roll",
    "Rules",
    "RulesError",
    "State",
    "Take",
    "TargetError",
    "WrongPhaseError",
    "exchanged",
    "make_rules",
    "penalised",
    "roll_off_leaders",
    "seat_index",
    "seat_name",
    "seat_number",
]
