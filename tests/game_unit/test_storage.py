"""Nothing lost at the edges of storage (issue 21): a game that ends while saving
fails, a journal changed from outside, the state directory removed, a journal that
cannot be read, a saved game this unit has too few seats for."""

from __future__ import annotations

import contextlib
import ctypes
import dataclasses
import json
import logging
import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from firmware.games.switch16.engine import DISCARD, Face, Roll
from firmware.games.switch16.engine.notation import Header
from firmware.games.switch16.engine.rules import make_rules
from firmware.games.switch16.screens import render_seat
from firmware.games.switch16.seat_views import seat_view
from firmware.games.switch16.setup import GameSetup
from firmware.games.switch16.transcript_lines import action_line
from firmware.screens.notice import with_notice
from firmware.transcript import replay_file
from firmware.unit.journal import Journal
from firmware.unit.loop import NOT_SAVED
from hal.config import REFERENCE_CONFIG, load_config
from tools.reliability import storage

from .conftest import header, open_table, same, write_journal

BOTS = GameSetup.of(["rulebook", "easy"])
ROLL = Roll((1, 2, 3), Face.BLANK)
ROLL_LINE = json.loads(action_line(ROLL))


@contextlib.contextmanager
def card() -> Iterator[storage.Card]:
    """An ext4 image with 1 KiB blocks on a loop device (root only: skipped elsewhere)."""
    try:
        with storage.card(2048) as sd:
            yield sd
    except storage.Unavailable as exc:
        pytest.skip(f"no ext4 card: {exc}")


def lines_of(path: Path) -> list[str]:
    result = replay_file(path)
    assert result.ok, result.error
    return [action_line(a) for a in result.actions]


# ------------------------------------------------ 1. a game that ends unsaved


def test_a_game_that_ends_on_a_failed_card_is_saved_whole_once_it_is_repaired() -> None:
    """Read-only (an ext4 error) from half-way: the end screen says NOT SAVED, the
    finished game stays in memory and is written whole, without a further action,
    once the card is back; a unit started again resumes nothing."""
    with card() as sd:
        state = sd.path / "state"
        with open_table(state, setup=BOTS) as table:
            unit = table.unit
            accepted: list[str] = []
            unit.on_commit.append(lambda action, new: accepted.append(action_line(action)))
            unit.run_until(lambda: unit.actions >= 10, 600)
            sd.fail()
            assert unit.run_until(lambda: unit.finished, 3600)
            unit.run_for(3)
            assert not unit.journal.saving
            expected = with_notice(render_seat(seat_view(unit.controller.ui(), 0)), NOT_SAVED)
            assert same(table.pi.glass(0), expected)
            sd.repair()
            unit.run_for(2)  # the journal retries every second
            assert unit.journal.saving
            assert same(table.pi.glass(0), render_seat(seat_view(unit.controller.ui(), 0)))
        assert lines_of(state / "games" / "0001.jsonl") == accepted
        assert not (state / "current.jsonl").exists()
        assert Journal(state).recover().header is None


def test_a_full_card_at_game_end_keeps_the_finished_game_for_the_next_game(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Full from half-way, still full when the next game starts: both games are kept
    in memory and written in order, the finished one whole, once there is room."""
    with card() as sd:
        state = sd.path / "state"
        with open_table(state, setup=BOTS) as table:
            unit = table.unit
            games: list[list[str]] = [[]]
            unit.on_commit.append(lambda action, new: games[-1].append(action_line(action)))
            unit.run_until(lambda: unit.actions >= 10, 600)
            sd.fill()
            assert unit.run_until(lambda: unit.finished, 3600)
            games.append([])
            unit.new_game()
            assert unit.run_until(lambda: unit.actions > len(games[0]) + 5, 600)
            assert not unit.journal.saving
            sd.empty()
            unit.run_for(2)
            assert unit.journal.saving
            assert lines_of(state / "games" / "0001.jsonl") == games[0]
            assert lines_of(state / "current.jsonl") == games[1]
    assert "saving again" in caplog.text


# --------------------------------------- 2-3. the journal changed from outside


def started(directory: Path) -> Journal:
    journal = Journal(directory)
    journal.create(Header(2, 0, make_rules(), ("human", "easy")))
    journal.append(ROLL)
    journal.wait()
    return journal


def replace_by_directory(current: Path) -> None:
    current.unlink()
    current.mkdir()


def write_over(current: Path) -> None:
    with open(current, "r+b") as handle:  # in place: the same inode and size
        handle.write(b"\x00junk junk")


def rename_over(current: Path) -> None:
    junk = current.with_name("junk")
    junk.write_bytes(b"junk\n" * 30)
    os.rename(junk, current)


@pytest.mark.parametrize("change", [replace_by_directory, write_over, rename_over])
def test_a_journal_changed_from_outside_is_written_again_from_memory(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, change
) -> None:
    journal = started(tmp_path)
    change(journal.current)
    journal.append(DISCARD)
    journal.wait()
    assert journal.saving and "writing the game again from memory" in caplog.text
    assert lines_of(journal.current) == [action_line(ROLL), action_line(DISCARD)]
    assert (tmp_path / "corrupt-0001.jsonl").exists()  # what was put there is kept
    journal.append(DISCARD)
    assert journal.archive() == tmp_path / "games" / "0001.jsonl"
    assert len(lines_of(tmp_path / "games" / "0001.jsonl")) == 3


def test_a_journal_changed_just_before_game_end_is_archived_from_memory(tmp_path: Path) -> None:
    journal = started(tmp_path)
    rename_over(journal.current)
    assert journal.archive() == tmp_path / "games" / "0001.jsonl"
    assert lines_of(tmp_path / "games" / "0001.jsonl") == [action_line(ROLL)]
    assert (tmp_path / "corrupt-0001.jsonl").read_bytes().startswith(b"junk")


@pytest.mark.parametrize("recreate", [False, True])
def test_the_state_directory_removed_is_created_again_with_the_game(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, recreate: bool
) -> None:
    state = tmp_path / "state"
    journal = started(state)
    shutil.rmtree(state)
    if recreate:
        state.mkdir()  # by someone else, empty
    journal.append(DISCARD)
    journal.wait()
    assert journal.saving and "deleted" in caplog.text
    assert lines_of(state / "current.jsonl") == [action_line(ROLL), action_line(DISCARD)]
    shutil.rmtree(state)
    assert journal.archive() == state / "games" / "0001.jsonl"


# ----------------------------------------------- 4. a journal it cannot read


#: linux/capability.h: the header's version, and the two capabilities that let root read
#: any file (the file's mode bits apply again without them, as for its owner).
_CAPABILITY_VERSION_3 = 0x20080522
_DAC_CAPABILITIES = (1 << 1) | (1 << 2)  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [(name, ctypes.c_uint32) for name in ("effective", "permitted", "inheritable")]


def _set_effective(change: Callable[[int], int]) -> None:
    """Change the calling thread's effective capabilities (threads it starts inherit them)."""
    libc = ctypes.CDLL(None, use_errno=True)
    header, data = _CapHeader(_CAPABILITY_VERSION_3, 0), (_CapData * 2)()
    if libc.capget(ctypes.byref(header), data) != 0:
        raise OSError(ctypes.get_errno(), "capget")
    data[0].effective = change(data[0].effective)
    if libc.capset(ctypes.byref(header), data) != 0:
        raise OSError(ctypes.get_errno(), "capset")


@contextlib.contextmanager
def unreadable(path: Path) -> Iterator[None]:
    """``path`` really unreadable for the code in the block: mode 000, and, as root (who
    reads any file), the block runs without the capabilities that bypass file modes. It
    is still root, so the checkout, its venv and the test's directories stay readable
    wherever they lie (as the user ``nobody``, a checkout under a closed directory was
    not: issue 35)."""
    path.chmod(0)
    if os.geteuid() != 0:
        yield
        return
    _set_effective(lambda caps: caps & ~_DAC_CAPABILITIES)
    try:
        yield
    finally:
        _set_effective(lambda caps: caps | _DAC_CAPABILITIES)


def test_an_unreadable_journal_is_kept_and_resumed_once_readable(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    state = tmp_path / "state"
    state.mkdir()
    text = write_journal(state, header(seats=["easy", "rulebook"]), ROLL_LINE).read_text()
    with unreadable(state / "current.jsonl"), open_table(state) as table:
        unit = table.unit
        assert unit.state is None and unit.controller.shell.message[0] == "SAVED GAME"
        assert "Permission denied" in caplog.text
        table.press(0, "yes")  # nothing starts meanwhile
        unit.run_for(5)
        assert unit.state is None and unit.controller.shell.message is not None
        assert (state / "current.jsonl").exists() and not list(state.glob("corrupt-*"))
        (state / "current.jsonl").chmod(0o644)  # its owner may, without the capabilities
        unit.run_for(1.5)
        assert unit.state is not None and unit.controller.shell.message is None
        assert unit.run_until(lambda: unit.actions > 3, 600)
    assert (state / "current.jsonl").read_text().startswith(text)


def test_an_unreadable_journal_is_logged_rarely_and_when_readable_again(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The loop asks every second: it logged an ERROR each time (86,400 lines a day)."""
    state = tmp_path / "state"
    state.mkdir()
    write_journal(state, header(), ROLL_LINE)
    journal = Journal(state)
    with caplog.at_level(logging.INFO), unreadable(state / "current.jsonl"):
        for _ in range(100):
            assert journal.recover().unreadable == "Permission denied"
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 7 and "after 64 tries" in errors[-1]  # tries 1, 2, 4 … 64
    (state / "current.jsonl").chmod(0o644)
    assert journal.recover().actions == 1
    assert "can be read again (after 100 tries)" in caplog.text
    journal.close()


# ------------------------------------- 5. a saved game for more seats than this unit


def test_a_saved_game_for_more_seats_is_kept_with_the_games_and_said_why(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    text = write_journal(tmp_path, header(4, seats=["easy"] * 4), ROLL_LINE).read_text()
    config = load_config(REFERENCE_CONFIG)
    two_seats = dataclasses.replace(config, seats=config.seats[:2])
    with caplog.at_level(logging.INFO), open_table(tmp_path, config=two_seats) as table:
        message = table.unit.controller.shell.message
        assert message is not None and message[0] == "CANNOT RESUME"
        assert "4-player" in " ".join(message) and message[-1] == "kept: games/0001"
        assert same(table.pi.glass(0), render_seat(seat_view(table.unit.controller.ui(), 0)))
    assert "a 4-player game, this unit has 2 seats" in caplog.text
    assert (tmp_path / "games" / "0001.jsonl").read_text() == text
    assert not list(tmp_path.glob("corrupt-*"))
    json.loads(text.splitlines()[0])  # kept as it was: a valid transcript


# ------------------------------------- 1. a restart while the card still fails


@pytest.mark.parametrize("repaired_first", [False, True])
def test_a_restart_after_a_game_ended_unsaved_resumes_nothing_and_keeps_the_game(
    repaired_first: bool, ram: Path
) -> None:
    """The process ends (no clean close: a crash, the watchdog) after the game ended on
    a failed card. The unit started again, before or after the repair, does not resume
    the part on the card (new dice for actions already shown): the game comes back
    from the RAM mirror and is written whole once the card allows."""
    with card() as sd:
        state = sd.path / "state"
        accepted: list[str] = []
        with open_table(state, setup=BOTS) as table:
            unit = table.unit
            unit.on_commit.append(lambda action, new: accepted.append(action_line(action)))
            unit.run_until(lambda: unit.actions >= 10, 600)
            sd.fail()
            assert unit.run_until(lambda: unit.finished, 3600)
            assert not unit.journal.saving
        assert list(ram.rglob("*.jsonl"))  # mirrored in RAM
        if repaired_first:
            sd.repair()
        with open_table(state) as table:  # started again (the set-up menu: no preset)
            unit = table.unit
            assert unit.state is None and unit.journal.saving is repaired_first
            if not repaired_first:
                sd.repair()
                unit.run_for(2)
                assert unit.journal.saving
        assert lines_of(state / "games" / "0001.jsonl") == accepted
        assert not (state / "current.jsonl").exists() and not list(ram.rglob("*.jsonl"))


def test_a_restart_mid_game_on_a_read_only_card_plays_on_from_where_it_was(ram: Path) -> None:
    with card() as sd:
        state = sd.path / "state"
        with open_table(state, setup=BOTS) as table:
            table.unit.run_until(lambda: table.unit.actions >= 10, 600)
            sd.fail()
            table.unit.run_until(lambda: table.unit.actions >= 20, 600)
            shown = list(table.unit.journal.open_game[1])
        with open_table(state) as table:
            assert table.unit.journal.open_game[1] == shown and not table.unit.journal.saving
            table.unit.run_until(lambda: table.unit.actions >= 5, 600)
            sd.repair()
            table.unit.run_for(2)
            assert lines_of(state / "current.jsonl")[: len(shown)] == shown


def test_the_ram_mirror_writes_again_only_the_game_that_changed(tmp_path: Path) -> None:
    from firmware.unit.spill import Spill

    spill = Spill(tmp_path / "mirror")
    a, b = Header(2, 0, make_rules()), Header(3, 1, make_rules())
    finished, playing = [action_line(ROLL)], [action_line(ROLL)]
    spill.write([(a, finished), (b, playing)])
    inode = (spill.dir / "0001.jsonl").stat().st_ino
    playing.append(action_line(DISCARD))
    spill.write([(a, finished), (b, playing)])
    assert (spill.dir / "0001.jsonl").stat().st_ino == inode  # not written again
    assert [len(g.actions) for g in spill.read()] == [1, 2]
    spill.write([(b, playing)])  # the finished game is on the card now
    assert [g.header for g in spill.read()] == [b]
    spill.clear()
    assert not spill.dir.exists()
