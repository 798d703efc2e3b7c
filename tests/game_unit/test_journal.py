"""The journal on disk: state directory, archive numbering, recovery of damaged files."""

from __future__ import annotations

import json
import logging
import random
from pathlib import Path

import pytest

from firmware.api import load_replay
from firmware.games.switch16.engine import DISCARD, RISK, Face, Roll, State
from firmware.games.switch16.engine.notation import Header
from firmware.games.switch16.engine.rules import make_rules
from firmware.transcript import line_writer, replay_text, write_transcript
from firmware.unit.journal import Journal, resolve_state_dir

from .conftest import header, open_table, write_journal

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


# ----------------------------------- damaged journals of every game (issue 35)
SWYTCH = {"game": "swytch", "players": 2, "first": 0, "ranks": 9, "seats": ["human", "human"]}
GAMES = {"switch16": header(), "swytch": SWYTCH}


def action_lines(head: dict, n: int, seed: int = 1) -> list[str]:
    """``n`` action lines of a random game of ``head``'s game, as the unit writes them."""
    parsed = replay_text(json.dumps(head) + "\n").header
    state, write, rng = parsed.initial_state(), line_writer(parsed), random.Random(seed)
    lines = []
    for _ in range(n):
        chance = (
            [a for a, _ in state.chance_outcomes()] if hasattr(state, "chance_outcomes") else []
        )
        action = rng.choice(chance or state.legal_actions())
        state = state.apply(action)
        lines.append(write(action))
    assert not state.game_over
    return lines


def journal_text(head: dict, *lines: str) -> str:
    return "".join(f"{line}\n" for line in (json.dumps(head), *lines))


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("depth", [1010, 5000])
def test_a_deeply_nested_line_is_moved_aside_and_the_unit_starts(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, json_reader: str, game: str, depth: int
) -> None:
    """Nested 1,000-1,024 deep (orjson) or deeper than ~1,000 (json), a line made every
    start-up crash (RecursionError): a boot loop."""
    deep = '{"action": ' + "[" * depth + "]" * depth + "}"
    text = journal_text(GAMES[game], *action_lines(GAMES[game], 3), deep)
    (tmp_path / "current.jsonl").write_text(text)
    with caplog.at_level(logging.ERROR), open_table(tmp_path) as table:
        assert table.unit.controller.shell.message[0] == "JOURNAL DAMAGED" and table.state is None
    assert (tmp_path / "corrupt-0001.jsonl").read_text() == text
    assert "line 5: nested more than 32 deep" in caplog.text


@pytest.mark.parametrize("game", GAMES)
def test_a_first_line_over_64_kib_is_moved_aside_with_its_actions(tmp_path: Path, game: str):
    """Line 1 of 70,000 NULs then 40 actions was removed as "a header cut short"."""
    text = journal_text(GAMES[game], *action_lines(GAMES[game], 40))
    text = "\0" * 70_000 + text[text.index("\n") :]
    (tmp_path / "current.jsonl").write_text(text)
    found = Journal(tmp_path).recover()
    assert found.problem and found.moved_to == tmp_path / "corrupt-0001.jsonl"
    assert found.moved_to.read_text() == text


@pytest.mark.parametrize("game", GAMES)
def test_a_header_padded_past_64_kib_resumes(tmp_path: Path, game: str) -> None:
    padded = json.dumps(GAMES[game])[:-1] + " " * 70_000 + "}"
    text = "".join(f"{line}\n" for line in (padded, *action_lines(GAMES[game], 40)))
    (tmp_path / "current.jsonl").write_text(text)
    found = Journal(tmp_path).recover()
    assert found.problem is None and found.actions == 40
    assert (tmp_path / "current.jsonl").read_text() == text


@pytest.mark.parametrize("first", ["\0" * 70_000, "\0" * 80, "{" + " " * 5000, "[1, 2", "x" * 10])
def test_one_line_that_is_no_header_cut_short_is_moved_aside_not_deleted(
    tmp_path: Path, first: str
) -> None:
    (tmp_path / "current.jsonl").write_text(first)
    found = Journal(tmp_path).recover()
    assert found.moved_to is not None and found.moved_to.read_text() == first


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("blank", ["\n", "\n\n", "\r\n", "  \n"])
def test_an_empty_line_after_the_last_action_is_skipped_and_the_game_resumes(
    tmp_path: Path, game: str, blank: str
) -> None:
    """One blank line after the last action set an intact game aside."""
    lines = action_lines(GAMES[game], 6)
    (tmp_path / "current.jsonl").write_text(journal_text(GAMES[game], *lines) + blank)
    with open_table(tmp_path) as table:
        assert table.unit.controller.shell.message is None and table.state is not None
        assert table.unit.journal.open_game[1] == lines
    assert not list(tmp_path.glob("corrupt-*"))
    assert (tmp_path / "current.jsonl").read_text() == journal_text(GAMES[game], *lines)


@pytest.mark.parametrize("game", GAMES)
def test_a_seat_of_a_bot_level_this_firmware_lacks_resumes_as_human(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, game: str
) -> None:
    """A Swytch journal naming such a level was moved aside; Switch 16 resumed it."""
    head = GAMES[game] | {"seats": ["human", "grandmaster"]}
    (tmp_path / "current.jsonl").write_text(journal_text(head, *action_lines(head, 2)))
    with caplog.at_level(logging.WARNING), open_table(tmp_path) as table:
        assert table.unit.game.name == game and table.state is not None
        assert table.unit.controller.shell.message is None and not table.unit.bots
    assert "'grandmaster' (unknown): playing it as human" in caplog.text
    assert not list(tmp_path.glob("corrupt-*"))
    # the same decision where a host shows the saved game (``sim --replay``): it raised
    assert load_replay(str(tmp_path / "current.jsonl")).kinds == ("human", "human")


@pytest.mark.parametrize("game", GAMES)
def test_the_damaged_journal_notice_stays_until_a_press(tmp_path: Path, game: str) -> None:
    """It showed 4 s; the unit's start-up game (either) keeps it until any button."""
    (tmp_path / "current.jsonl").write_text(journal_text(GAMES[game]) + "{garbage\n{}\n")
    with open_table(tmp_path, game=game) as table:
        assert table.unit.controller.shell.message[0] == "JOURNAL DAMAGED"
        table.unit.run_for(600)
        assert table.unit.controller.shell.message[0] == "JOURNAL DAMAGED"
        table.press(2, "no")  # wakes the dimmed displays, and does nothing else
        assert table.unit.controller.shell.message[0] == "JOURNAL DAMAGED"
        table.press(2, "no")
        assert table.unit.controller.shell.message is None


@pytest.mark.parametrize(
    ("head", "said"),
    [
        (SWYTCH | {"ranks": 12}, "line 1: header: ranks must be 8..11, got 12"),
        (header() | {"players": 9}, "line 1: header: 'players' must be 2..4"),
    ],
)
def test_a_header_with_a_bad_value_is_logged_saying_what_is_wrong(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, head: dict, said: str
) -> None:
    """A valid JSON header with a value out of range was logged as "not valid JSON"."""
    (tmp_path / "current.jsonl").write_text(journal_text(head))
    with caplog.at_level(logging.ERROR):
        found = Journal(tmp_path).recover()
    assert found.moved_to is not None and said in caplog.text and "JSON" not in caplog.text


def test_a_reader_that_fails_moves_the_journal_aside(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Whatever a game's reader raises, start-up goes on: no boot loop."""
    text = journal_text(SWYTCH, *action_lines(SWYTCH, 2))
    (tmp_path / "current.jsonl").write_text(text)

    def broken(path: object) -> None:
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr("firmware.unit.journal.replay_file", broken)
    found = Journal(tmp_path).recover()
    assert found.moved_to is not None and found.moved_to.read_text() == text
    assert "replaying it failed" in found.problem and "RecursionError" in found.problem
    assert "replaying it failed" in caplog.text
