"""Swytch's set-up options, its options spec (:class:`~firmware.games.options.Option`):
apart from the game, so that a tool's command line reads them without loading the game."""

from __future__ import annotations

from firmware.games.options import Option

from .board import DEFAULT_RANKS, MAX_RANKS, MIN_RANKS

OPTIONS = (Option("ranks", int, DEFAULT_RANKS, "board ranks", range(MIN_RANKS, MAX_RANKS + 1)),)
