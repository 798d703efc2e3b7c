"""The journal on disk: state directory, archive numbering, recovery of damaged files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from firmware.engine import DISCARD, RISK, Face, Roll, State
from firmware.engine.notation import Header
from firmware.engine.rules import make_rules
from firmware.transcript import write_transcript
from firmware.unit.journal import Journal, resolve_state_dir

from .conftest import header, write_journal

ROLL = {"action": "roll", "dice": [1, 2, 3], "switch": "blank"}


def test_state_dir_explicit_then_configured_then_user_data(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert resolve_state_dir(tmp_path / "a", tmp_path / "b") == tmp_path / "a"
    assert resolve_state_dir(None, tmp_path / "b") == tmp_path / "b" and (tmp_path / "b").is_dir()
    blocked = tmp_path / "file"
    blocked.write_text("not a directory")
    monkeypatch.setattr("platformdirs.user_data_dir", lambda name: str(tmp_path / "user" / name))
    assert resolve_state_dir(None, blocked / "sub") == tmp_path / "user" / "switch16"


def test_create_append_archive_numbering(tmp_path: Path) -> None:
    journal = Journal(tmp_path)
    for n in (1, 2):
        journal.create(Header(2, 0, make_rules(), ("human", "easy")))
        journal.append(Roll((1, 2, 3), Face.BLANK))
        journal.append(DISCARD)
        assert journal.archive() == tmp_path / "games" / f"{n:04d}.jsonl"
    lines = (tmp_path / "games" / "0002.jsonl").read_text().splitlines()
    assert json.loads(lines[0])["seats"] == ["human", "easy"] and len(lines) == 3
    assert not journal.current.exists()


def test_recover_resumes_a_clean_game_and_appends(tmp_path: Path) -> None:
    write_journal(tmp_path, header(), ROLL)
    journal = Journal(tmp_path)
    found = journal.recover()
    assert found.actions == 1 and found.problem is None and found.header.seats == ("human",) * 2
    journal.append(DISCARD)
    assert journal.current.read_text().splitlines()[-1] == '{"action": "discard"}'


def test_recover_cuts_a_torn_line(tmp_path: Path) -> None:
    path = write_journal(tmp_path, header(), ROLL)
    good = path.read_text()
    path.write_text(good + '{"action": "disc')
    found = Journal(tmp_path).recover()
    assert found.torn == '{"action": "disc' and found.actions == 1
    assert path.read_text() == good


@pytest.mark.parametrize(
    "text",
    [
        "not json\n",
        json.dumps(header()) + "\n" + json.dumps(ROLL) + "\n{garbage\n" + '{"action": "risk"}\n',
        json.dumps(header()) + '\n{"action": "pass"}\n',  # illegal, complete last line
    ],
)
def test_recover_moves_a_damaged_journal_aside(tmp_path: Path, text: str) -> None:
    (tmp_path / "corrupt-0004.jsonl").write_text("older")
    (tmp_path / "current.jsonl").write_text(text)
    found = Journal(tmp_path).recover()
    assert found.state is None and found.problem
    assert found.moved_to == tmp_path / "corrupt-0005.jsonl"
    assert found.moved_to.read_text() == text
    assert not (tmp_path / "current.jsonl").exists()


def test_recover_archives_a_finished_game(tmp_path: Path) -> None:
    actions = []
    dice = {3: [1, 2, 3], 4: [1, 2, 4, 6], 5: [1, 2, 3, 4, 6]}
    state = State.new(2, 0, make_rules())
    while not state.game_over:
        if state.phase.value == "roll":
            action = Roll(tuple(dice[state.dice_count()]), Face.BLANK)
        elif state.phase.value == "decide":
            action = RISK
        else:
            action = DISCARD
        state = state.apply(action)
        actions.append(action)
    write_transcript(tmp_path / "current.jsonl", Header(2, 0, make_rules()), actions)
    found = Journal(tmp_path).recover()
    assert found.state is None and found.problem is None
    assert (tmp_path / "games" / "0001.jsonl").exists()
