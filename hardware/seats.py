"""Seat numbers as people read them: every screen, log line, report, document and message
numbers seats from 1 (seat 1 is the first ``[[seats]]`` table and index 0); JSON
(transcripts, the journal, the link, ``--json`` reports) keeps the 0-based indices
docs/TRANSCRIPTS.md documents. The one place that turns one into the other.

Pure and dependency-free, beside the reference build whose first ``[[seats]]`` table is
seat 1: the HAL's config, wiring and backends use it, and so does the firmware through
``firmware.kernel.seats`` (the engine imports no HAL).
"""

from __future__ import annotations

#: The number people read for seat index 0.
FIRST = 1


def seat_number(index: int) -> int:
    """The number people read for the 0-based seat ``index``."""
    return index + FIRST


def seat_index(number: int) -> int:
    """The 0-based index of the seat people call ``number`` (a CLI value, a config)."""
    return number - FIRST


def seat_name(index: int) -> str:
    """``seat 2`` for index 1: how text, logs and messages name a seat."""
    return f"seat {seat_number(index)}"
