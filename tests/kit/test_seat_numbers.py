"""Seats read 1-4 everywhere a person reads them, from one registry
(:mod:`firmware.kernel.seats`); JSON keeps its documented 0-based indices (issue 22,
item 8)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from firmware import cli
from firmware.games.switch16.turn_log import turn_lines
from firmware.kernel.seats import seat_index, seat_name, seat_number
from firmware.transcript import replay_file
from hal.wiring import WIRING_MD

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "transcripts"
#: A seat number formatted by hand ("seat {i}", "seat %d", "seats[{i}]"): only the registry
#: may do it. JSON paths of a position (docs/TRANSCRIPTS.md) are not for people's numbers.
HAND_MADE = re.compile(r"[Ss][Ee][Aa][Tt] (\{|%[ds])|seats\[\{")
ALLOWED = {"hardware/seats.py", "firmware/games/switch16/engine/position.py"}


def test_the_registry() -> None:
    assert (seat_name(0), seat_number(3), seat_index(1)) == ("seat 1", 4, 0)


def test_no_seat_number_is_formatted_by_hand() -> None:
    bad = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for package in ("firmware", "hal", "sim")
        for path in sorted((ROOT / package).rglob("*.py"))
        if str(path.relative_to(ROOT)) not in ALLOWED
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if HAND_MADE.search(line)
    ]
    assert not bad, "\n".join(bad)


def test_text_output_numbers_seats_from_1(capsys: pytest.CaptureFixture[str]) -> None:
    game = FIXTURES / "complete_game.jsonl"
    assert cli.main(["replay", str(game)]) == 0
    text = capsys.readouterr().out
    assert "seat 1:" in text and "seat 0" not in text
    log = "\n".join(turn_lines(replay_file(game)))
    assert "seat 1" in log and "seat 0" not in log
    assert cli.main(["check-config"]) == 0
    text = capsys.readouterr().out
    assert "seat 1 yes" in text and "seat 1.buttons.yes" in text
    assert "seat 0" not in text and "seats[" not in text
    wiring = WIRING_MD.read_text(encoding="utf-8")
    assert "| 1 | GPIO" in wiring and "seat 0" not in wiring and "seats[" not in wiring


def test_an_engine_error_names_the_seat_as_people_read_it(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(
        '{"switch16": 1, "players": 2, "first": 0, "rules": "pressman-2003"}\n'
        '{"action": "place", "by": 1, "on": 0}\n'
    )
    error = str(replay_file(path).error)
    assert "seat 2 does not hold the chip" in error, error  # "by": 1 is seat 2
