"""Switch 16's set-up options, its options spec (:class:`~firmware.games.options.Option`):
apart from the game, so that a tool's command line takes their flags (``--rules``,
``--points``) without loading the game (``switch16 run`` shows its splash first)."""

from __future__ import annotations

from firmware.games.options import Option

from .engine.rules import DEFAULT_PRESET, PRESETS

OPTIONS = (
    Option("rules", str, DEFAULT_PRESET, "rules preset", tuple(PRESETS), flag=True),
    Option("points", bool, False, "points game to 100", flag=True),
)
