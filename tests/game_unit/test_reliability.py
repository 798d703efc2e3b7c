"""Faults that must not take the unit down (issue 9): dead panels, stale frames, full or
read-only storage, a `games` that is not a directory, kills while the journal is made."""

from __future__ import annotations

import contextlib
import os
import random
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware.games.switch16.engine.notation import Header
from firmware.games.switch16.screens import render_seat
from firmware.games.switch16.seat_views import seat_view
from firmware.games.switch16.setup import GameSetup
from firmware.transcript import replay_file
from firmware.unit import Unit
from firmware.unit.journal import Journal
from hal.config import REFERENCE_CONFIG, load_config
from hal.pi import FailedDisplay
from hal.testing import i2c_port, mock_pi_hal
from tools.reliability.faults import full_storage

from .conftest import (
    TIMING,
    YES,
    ScriptedRng,
    Table,
    header,
    open_table,
    same,
    write_journal,
)

BOTS = GameSetup.of(["rulebook", "easy"])
CONFIG = load_config(REFERENCE_CONFIG)


def bus_key(seat: int) -> tuple[int, int]:
    d = CONFIG.seats[seat].display
    return i2c_port(d), d.address or 0x3C


def test_all_bot_game_past_the_dim_with_a_dead_panel(tmp_path: Path) -> None:
    """Dimming (and contrast, sleep, wake) on a panel that stopped answering must not
    raise: the game plays to its end."""
    with open_table(tmp_path, setup=BOTS) as table:
        table.unit.run_for(5)
        del table.pi.bus.i2c[bus_key(1)]  # the cable comes loose
        table.unit.run_for(90)  # past the 60 s idle dim
        assert table.unit.controller.shell.dimmed
        assert table.unit.run_until(lambda: table.unit.finished, 3600)
        display = table.pi.hal.seats[1].display
        assert display.last_error is not None
        display.set_contrast(10)
        display.sleep()
        display.wake()


def test_a_frame_that_failed_is_sent_again_without_a_screen_change(two_humans: Table) -> None:
    table = two_humans
    emulator = table.pi.bus.i2c.pop(bus_key(1))
    table.unit.rng.next_roll((6, 6, 6), "blank")
    table.press(0, YES)  # seat 1's screen shows the roll: the write fails
    table.after_action()
    table.pi.bus.i2c[bus_key(1)] = emulator  # the glitch is over
    table.unit.run_for(3)  # nothing changes on screen meanwhile
    assert table.glass_shows_view(1)


def test_start_up_goes_on_without_a_panel_and_takes_it_when_it_answers(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with mock_pi_hal(CONFIG, unplugged=(2,)) as pi:
        missing = pi.hal.seats[2].display
        assert isinstance(missing, FailedDisplay)
        assert "seat 3.display" in caplog.text and "plays without its display" in caplog.text
        unit = Unit(pi.hal, tmp_path, setup=GameSetup.of(["easy"] * 4), rng=ScriptedRng(3),
                    timing=TIMING)  # fmt: skip
        unit.start()
        unit.run_for(10)
        assert unit.actions > 0 and pi.displays[0].lit() > 0
        pi.bus.attach_i2c(*bus_key(2), "ssd1306")  # plugged in
        pi.displays[2] = pi.bus.i2c[bus_key(2)]
        unit.run_for(40)  # retried with backoff (at most 30 s apart)
        assert missing.last_error is None and pi.displays[2].lit() > 0


# ------------------------------------------------------------------- storage


@contextlib.contextmanager
def tmpfs(path: Path, size: str = "64k") -> Iterator[Path]:
    """A small tmpfs at ``path`` (root in CI can mount one); skips where it cannot."""
    path.mkdir()
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a tmpfs needs root")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)],
                          capture_output=True)  # fmt: skip
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs: {done.stderr.decode().strip()}")
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], check=False)


def fill(directory: Path) -> Path:
    """Fill the file system holding ``directory``; returns the filler to delete."""
    filler = directory / "filler"
    with contextlib.suppress(OSError), open(filler, "wb", buffering=0) as handle:
        while True:
            handle.write(b"x" * 512)
    return filler


def test_a_full_card_does_not_stop_the_game_and_saving_resumes(tmp_path: Path) -> None:
    with tmpfs(tmp_path / "card") as card:
        filler = fill(card)
        with open_table(card, setup=BOTS) as table:
            unit = table.unit
            unit.run_for(5)  # the new game's journal could not be created
            assert not unit.journal.saving and unit.actions > 0
            filler.unlink()  # room again
            n = unit.actions
            assert unit.run_until(lambda: unit.actions > n, 60)
            assert unit.journal.saving
            replayed = replay_file(card / "current.jsonl")
            assert replayed.ok and replayed.state == unit.state  # nothing lost
        assert [p.name for p in card.iterdir()] == ["current.jsonl"]  # no leftovers


def test_an_append_that_fails_is_saved_later(tmp_path: Path) -> None:
    with open_table(tmp_path, setup=BOTS) as table:
        unit = table.unit
        unit.run_for(5)
        full_storage(table.pi, unit, tmp_path, random.Random(1))  # the card fills up
        n = unit.actions
        assert unit.run_until(lambda: unit.actions > n, 60)
        assert not unit.journal.saving
        n = unit.actions
        assert unit.run_until(lambda: unit.actions > n, 60)  # rewrites the whole game
        assert unit.journal.saving
        replayed = replay_file(tmp_path / "current.jsonl")
        assert replayed.ok and replayed.state == unit.state


def test_the_display_says_games_are_not_saved(tmp_path: Path) -> None:
    with tmpfs(tmp_path / "card") as card:
        fill(card)
        with open_table(card, setup=BOTS) as table:
            table.unit.run_for(5)
            from firmware.screens.notice import with_notice
            from firmware.unit.loop import NOT_SAVED

            expected = with_notice(render_seat(seat_view(table.unit.controller.ui(), 0)), NOT_SAVED)
            assert same(table.pi.glass(0), expected)


def test_a_read_only_state_dir_plays_on_and_creates_no_files(tmp_path: Path) -> None:
    with tmpfs(tmp_path / "card") as card:
        write_journal(card, header(seats=["easy", "rulebook"]))
        subprocess.run(["mount", "-o", "remount,ro", str(card)], check=True)
        for _ in range(3):  # restarts: no crash loop, nothing created
            with open_table(card) as table:
                assert table.unit.run_until(lambda t=table: t.unit.actions > 5, 120)
                assert not table.unit.journal.saving
        assert [p.name for p in card.iterdir()] == ["current.jsonl"]


def test_games_not_a_directory(tmp_path: Path) -> None:
    (tmp_path / "games").write_text("not a directory\n")
    with open_table(tmp_path, setup=BOTS) as table:
        assert table.unit.run_until(lambda: table.unit.finished, 3600)
    finished = sorted(tmp_path.glob("finished-*.jsonl"))
    assert len(finished) == 1 and replay_file(finished[0]).state.game_over
    # a finished game left as current.jsonl (an older unit) is archived the same way
    finished[0].rename(tmp_path / "current.jsonl")
    with open_table(tmp_path) as table:
        table.unit.run_for(1)
    assert not (tmp_path / "current.jsonl").exists() and len(list(tmp_path.glob("fin*"))) == 1


# ---------------------------------------------------------------- kills


def test_a_header_cut_short_is_not_damage(tmp_path: Path) -> None:
    for torn in ("", '{"switch16": 1, "players": 2, "fi'):
        (tmp_path / "current.jsonl").write_text(torn)
        with open_table(tmp_path, setup=BOTS) as table:
            assert table.unit.controller.shell.message is None  # no "JOURNAL DAMAGED"
            table.unit.run_for(5)
        assert not list(tmp_path.glob("corrupt-*"))


def test_journal_creation_is_atomic(tmp_path: Path) -> None:
    """The header goes to a temporary file that is renamed into place: a kill before
    the rename leaves no current.jsonl, only the temporary file; start-up removes a
    partial one and completes the rename of a whole one."""
    journal = Journal(tmp_path)
    journal.create(Header(2, 0, BOTS.rules(), BOTS.seats))
    journal.close()
    whole = (tmp_path / "current.jsonl").read_text()
    assert replay_file(tmp_path / "current.jsonl").ok
    (tmp_path / "current.jsonl").unlink()
    (tmp_path / "current.jsonl.tmp").write_text(whole[:20])  # killed while writing it
    assert Journal(tmp_path).recover().header is None
    assert list(tmp_path.iterdir()) == []
    (tmp_path / "current.jsonl.tmp").write_text(whole)  # killed after its fsync
    assert Journal(tmp_path).recover().header is not None
    assert [p.name for p in tmp_path.iterdir()] == ["current.jsonl"]


def test_the_roll_off_is_journaled_before_it_is_shown(tmp_path: Path) -> None:
    with open_table(tmp_path, setup=BOTS, rng=ScriptedRng(11)) as table:
        assert table.unit.controller.rolloff is not None  # the roll-off is on the displays
        first = table.unit.controller.rolloff.first
        assert table.journal()[0]["first"] == first  # ... and already on disk
    with open_table(tmp_path, rng=ScriptedRng(99)) as table:  # power cut: resumed
        assert table.unit.state is not None and table.unit.state.turn == first


def test_a_match_s_next_round_is_journaled_before_its_roll_off_is_shown(tmp_path: Path) -> None:
    """As a new game's roll-off: a power cut while the next round's roll-off shows
    resumes the round with the starter the displays were showing."""
    setup = GameSetup.of(["expert", "easy"], points=True)
    with open_table(tmp_path, setup=setup, rng=ScriptedRng(9)) as table:
        ctl = table.unit.controller
        table.run_until(lambda: table.state is not None and table.state.round_pending
                        and ctl.rolloff is not None, 200_000)  # fmt: skip
        first = ctl.rolloff.first
        assert table.actions()[-1] == {"action": "round", "first": first}  # already on disk
        assert table.unit.round_ahead and table.state.round == 1
    with open_table(tmp_path, rng=ScriptedRng(99)) as table:  # power cut: resumed
        assert table.state is not None and table.state.round == 2 and table.state.turn == first


def test_a_rewrite_cut_before_its_rename_is_completed(tmp_path: Path) -> None:
    """After a storage failure the journal is rewritten whole via current.jsonl.tmp; a
    kill between its sync and its rename must not lose the actions only it holds."""
    write_journal(tmp_path, header(), {"action": "roll", "dice": [6, 6, 6], "switch": "blank"})
    whole = (tmp_path / "current.jsonl").read_text()
    (tmp_path / "current.jsonl").write_text(whole.splitlines(keepends=True)[0])  # header only
    (tmp_path / "current.jsonl.tmp").write_text(whole)
    found = Journal(tmp_path).recover()
    assert found.actions == 1 and (tmp_path / "current.jsonl").read_text() == whole
    assert not (tmp_path / "current.jsonl.tmp").exists()
