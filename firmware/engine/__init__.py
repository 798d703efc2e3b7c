"""The Switch 16 rules engine: pure, deterministic, no I/O, no clock, no randomness.

Dice are chance outcomes applied from outside as :class:`Roll` actions, so a
transcript of actions replays a game exactly. Typical use::

    state = State.new(players=3, first=0, rules=make_rules("pressman-2003"))
    state = state.apply(Roll((1, 2, 4), Face.BLANK))
    state.legal_actions()   # -> [Discard()] ...
"""

from .actions import (
    ACCEPT,
    DECLINE,
    DISCARD,
    LEAVE,
    PASS,
    REFUSE,
    RISK,
    SWITCH_DIE,
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
    RulesError,
    TargetError,
    WrongPhaseError,
)
from .rolloff import roll_off_leaders
from .rules import COLOURS, DEFAULT_PRESET, PRESETS, Rules, make_rules
from .state import Phase, State

__all__ = [
    "ACCEPT",
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
    "TAKE",
    "Action",
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
    "make_rules",
    "roll_off_leaders",
]
