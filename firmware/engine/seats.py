"""Seat numbers as people read them: :mod:`hal.seats`, the one place that says how (the
hardware's seats are the game's), re-exported for the engine and the games."""

from hal.seats import FIRST, seat_index, seat_name, seat_number

__all__ = ["FIRST", "seat_index", "seat_name", "seat_number"]
