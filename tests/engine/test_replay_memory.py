"""Replaying transcripts keeps memory bounded (issue 9): the parsed-line cache keeps
only short lines, and a torn line is logged shortened."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from firmware.games.switch16 import transcript_lines
from firmware.games.switch16.transcript_lines import parse_action
from firmware.transcript import replay_text

HEADER = '{"switch16": 1, "players": 2, "first": 0, "rules": "pressman-2003"}'


def test_long_lines_are_not_cached() -> None:
    before = sum(len(k) for k in transcript_lines._LINE_CACHE)
    for n in range(200):  # distinct well-formed lines of 5 kB each (too many dice to play)
        line = (
            '{"action": "roll", "dice": [' + ", ".join(["1"] * (1700 + n)) + '], "switch": "blank"}'
        )
        replay_text(f"{HEADER}\n{line}\n")
        parse_action(line)
    assert sum(len(k) for k in transcript_lines._LINE_CACHE) - before < 10_000


def test_a_torn_line_is_logged_shortened(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    from firmware.unit.journal import Journal

    (tmp_path / "current.jsonl").write_text(
        HEADER
        + '\n{"action": "roll", "dice": [1, 2, 3], "switch": "blank"}\n{"x": "'
        + "y" * 5_000_000
    )
    with caplog.at_level(logging.WARNING):
        found = Journal(tmp_path).recover()
    assert found.torn is not None and len(found.torn) < 200
    assert max(len(r.getMessage()) for r in caplog.records) < 1000
