"""Computer players for Switch 16, and the odds advisor.

Use::

    bot = make_bot("expert", seat=2, rng=random.Random(7))
    action = bot.choose(state)        # an Action, or None (nothing to do now)

The unit (and :mod:`firmware.games.switch16.driver`) asks whom ``state.actors()`` names:
:meth:`Bot.interject` of the chip holder at every window where the chip may be laid
(before each roll, between two discards, before each decision), then
:meth:`Bot.decide` of the seat the game waits for.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from importlib import import_module

from ..levels import LEVELS as LEVEL_CLASSES
from .advice import Advice, advice_for
from .base import Bot
from .easy import EasyBot
from .expert import ExpertBot, expert_risks
from .master import MasterBot
from .randomly import RandomBot, random_bots
from .rulebook import RulebookBot, rulebook_risks


def _load(where: str) -> type[Bot]:
    module, _, name = where.partition(":")
    cls: type[Bot] = getattr(import_module(module), name)
    return cls


#: Bot levels, weakest first (:data:`firmware.games.switch16.levels.LEVELS`: name -> class).
LEVELS: dict[str, type[Bot]] = {name: _load(where) for name, where in LEVEL_CLASSES.items()}


def make_bot(
    level: str,
    seat: int,
    rng: random.Random | None = None,
    table: Sequence[str] | None = None,
) -> Bot:
    """A bot of ``level`` (one of :data:`LEVELS`) playing ``seat``; ValueError names a bad level.

    ``table``: every seat's kind (``human`` or a level), when known (:meth:`Bot.meet`).
    """
    try:
        cls = LEVELS[level]
    except KeyError:
        raise ValueError(
            f"unknown bot level {level!r} (expected one of {', '.join(LEVELS)})"
        ) from None
    bot = cls(seat, rng)
    if table is not None:
        bot.meet(table)
    return bot


__all__ = [
    "LEVELS",
    "Advice",
    "Bot",
    "EasyBot",
    "ExpertBot",
    "MasterBot",
    "RandomBot",
    "RulebookBot",
    "advice_for",
    "expert_risks",
    "make_bot",
    "random_bots",
    "rulebook_risks",
]
