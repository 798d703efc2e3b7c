"""Computer players for Switch 16, and the odds advisor.

Use::

    bot = make_bot("expert", seat=2, rng=random.Random(7))
    action = bot.choose(state)        # an Action, or None (nothing to do now)

The unit calls :meth:`Bot.decide` of the seat :func:`waiting_on` names for each
decision, and :meth:`Bot.interject` of the chip holder at every window where the
chip may be laid (before each roll, between two discards, before each decision).
"""

from __future__ import annotations

import random

from .advice import Advice, advice_for
from .base import Bot, may_place, waiting_on
from .easy import EasyBot
from .expert import ExpertBot, expert_risks
from .rulebook import RulebookBot, rulebook_risks

#: Bot levels, weakest first.
LEVELS: dict[str, type[Bot]] = {
    "easy": EasyBot,
    "rulebook": RulebookBot,
    "expert": ExpertBot,
}


def make_bot(level: str, seat: int, rng: random.Random | None = None) -> Bot:
    """A bot of ``level`` (one of :data:`LEVELS`) playing ``seat``; ValueError names a bad level."""
    try:
        cls = LEVELS[level]
    except KeyError:
        raise ValueError(
            f"unknown bot level {level!r} (expected one of {', '.join(LEVELS)})"
        ) from None
    return cls(seat, rng)


__all__ = [
    "LEVELS",
    "Advice",
    "Bot",
    "EasyBot",
    "ExpertBot",
    "RulebookBot",
    "advice_for",
    "expert_risks",
    "make_bot",
    "may_place",
    "rulebook_risks",
    "waiting_on",
]
