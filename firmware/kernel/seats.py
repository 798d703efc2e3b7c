"""Seat numbers as people read them: :mod:`hardware.seats`, the one place that says how
(the unit's seats, numbered as on the case and in ``unit.toml``), re-exported for the
engine and the games. Pure: no HAL, clock or I/O."""

from hardware.seats import FIRST, seat_index, seat_name, seat_number

__all__ = ["FIRST", "seat_index", "seat_name", "seat_number"]
