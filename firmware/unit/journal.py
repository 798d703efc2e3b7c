"""The power-loss journal: the current game's transcript in the state directory.

Layout of the state directory::

    current.jsonl        the game (or points match) being played
    games/NNNN.jsonl     finished games, numbered in order
    corrupt-NNNN.jsonl   journals that could not be replayed, or that something else
                         put in the journal's place (moved aside, never deleted)
    finished-NNNN.jsonl  finished games that games/ could not take (not a directory…)
    unfinished-NNNN.jsonl  the same for a saved game this unit has too few seats for

Every accepted action is appended and flushed (:class:`TranscriptWriter`) and its
sync started at once (:class:`Syncer`, ``fdatasync`` in a worker thread); the unit
renders meanwhile and calls :meth:`Journal.wait` before it sends any frame, so an
action is on disk before any display shows its effect (but the pressing seat's own
frame drawn ahead, :meth:`firmware.unit.refresh.DisplayRefresh.show_ahead`, which
its glass shows as the press arrives). On start, :meth:`Journal.recover` replays
``current.jsonl``: a clean unfinished game resumes; a torn last line (a write cut
by a power loss) is cut off; anything else wrong moves the file aside.
"""

from __future__ import annotations

import errno
import logging
import os
import queue
import re
import stat
import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from firmware.games.game import GameHeader as Header
from firmware.games.game import GameState as State
from firmware.jsonsafe import short_repr
from firmware.settings import DEFAULT_STATE_DIR
from firmware.transcript import (
    TEMPORARY_SUFFIX,
    TranscriptWriter,
    fsync_dir,
    header_line,
    line_writer,
    replay_file,
    write_atomically,
)

from .spill import Spill, default_spill_dir

log = logging.getLogger(__name__)

CURRENT = "current.jsonl"
GAMES = "games"


def resolve_state_dir(explicit: str | os.PathLike[str] | None = None,
                      configured: str | os.PathLike[str] | None = None) -> Path:  # fmt: skip
    """Where the unit keeps its journal, created if needed.

    ``explicit`` (``--state-dir``) wins; else ``configured`` (config ``[state] dir``)
    when it exists or can be created and is writable; else the user data directory
    (``platformdirs.user_data_dir("switch16")``), e.g. on a desktop.
    """
    if explicit is not None:
        path = Path(explicit).expanduser()
        path.mkdir(parents=True, exist_ok=True)
        return path
    candidate = Path(configured).expanduser() if configured is not None else DEFAULT_STATE_DIR
    try:
        candidate.mkdir(parents=True, exist_ok=True)
        if os.access(candidate, os.W_OK | os.X_OK):
            return candidate
        reason = "not writable"
    except OSError as exc:
        reason = exc.strerror or str(exc)
    # lazy: platformdirs only without a usable directory (start-up on the Zero)
    import platformdirs

    fallback = Path(platformdirs.user_data_dir("switch16"))
    fallback.mkdir(parents=True, exist_ok=True)
    log.info("state directory %s unusable (%s); using %s", candidate, reason, fallback)
    return fallback


#: ``fdatasync`` flushes the data and the size an append changes, not the times.
_datasync = getattr(os, "fdatasync", os.fsync)


class Syncer:
    """One sync at a time in a worker thread: :meth:`start` returns at once,
    :meth:`wait` blocks until the data is on disk (and raises the sync's OSError).

    The worker (one per process, started on first use) only runs ``fdatasync``, which
    releases the GIL; the loop stays the one thread that decides and draws, and never
    sends a frame before :meth:`wait` returns. :meth:`start` returns once the worker
    has the job: a loop busy drawing would otherwise hold the GIL and keep the sync
    from starting until it blocks (up to the interpreter's 5 ms switch interval, or
    until :meth:`wait`: no overlap at all).
    """

    _queue: queue.SimpleQueue[tuple[int, Syncer]] | None = None
    _lock = threading.Lock()

    def __init__(self) -> None:
        self.pending = False
        self._error: OSError | None = None
        # Held while a sync has not begun / is not done; the worker releases them. Plain
        # locks (released by the other thread): acquiring one is one C call, where a
        # threading.Semaphore runs a Condition in Python (~40 µs of the loop's CPU a sync).
        self._done = threading.Lock()
        self._begun = threading.Lock()
        self._done.acquire()
        self._begun.acquire()

    def start(self, fd: int) -> None:
        self.wait()
        self.pending = True
        Syncer._worker().put((fd, self))
        self._begun.acquire()  # the GIL to the worker until its fdatasync releases it

    def wait(self) -> None:
        if not self.pending:
            return
        self._done.acquire()
        self.pending = False
        error, self._error = self._error, None
        if error is not None:
            raise error

    @classmethod
    def _worker(cls) -> queue.SimpleQueue[tuple[int, Syncer]]:
        with cls._lock:
            if cls._queue is None:
                cls._queue = queue.SimpleQueue()
                threading.Thread(
                    target=cls._work, args=(cls._queue,), name="journal-sync", daemon=True
                ).start()
            return cls._queue

    @staticmethod
    def _work(jobs: queue.SimpleQueue[tuple[int, Syncer]]) -> None:
        while True:
            fd, syncer = jobs.get()
            syncer._begun.release()
            try:
                _datasync(fd)
            except OSError as exc:
                syncer._error = exc
            syncer._done.release()

    @classmethod
    def _forget_worker(cls) -> None:
        """In a forked child the worker thread is gone: start a new one on first use."""
        cls._queue = None
        cls._lock = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=Syncer._forget_worker)


@dataclass(frozen=True, slots=True)
class Recovered:
    """What :meth:`Journal.recover` found: a game to resume and/or a problem to show."""

    header: Header | None = None
    state: State | None = None
    actions: int = 0
    #: A torn last line that was cut off (its text, shortened), if any.
    torn: str | None = None
    #: Where a damaged journal was moved, or where a saved game this unit cannot
    #: resume was kept (:attr:`problem` says which and why).
    moved_to: Path | None = None
    problem: str | None = None
    #: The header of an intact game this unit has too few seats for (kept at
    #: :attr:`moved_to`, with the saved games).
    unresumable: Header | None = None
    #: Why ``current.jsonl`` cannot be read now (it stays where it is): call
    #: :meth:`Journal.recover` again later; nothing was decided.
    unreadable: str | None = None


#: How much of a torn line the log and :class:`Recovered` keep.
TORN_PREVIEW = 120
#: No header line is longer (a Switch 16 header with every option and seat is ~400).
HEADER_MAX = 4096


class Journal:
    """The state directory's journal files; at most one game open for appending.

    Storage failures never stop the game: when a write fails (a full SD card, a
    file system remounted read-only) :attr:`error` says why and the journal keeps the
    game's lines in memory, finished games too; :meth:`retry` and every later write
    try again, writing each game whole from memory (atomically), so saving resumes,
    with nothing lost, once storage allows. Before every append it checks that
    ``current.jsonl`` is still the file it writes, holding exactly what it wrote (a
    journal replaced, written over or deleted from outside, the state directory
    removed): if not, it sets what it finds aside and writes the game again.
    """

    def __init__(self, directory: str | os.PathLike[str], *, durable: bool = True,
                 spill: str | os.PathLike[str] | None = None) -> None:  # fmt: skip
        """``spill``: where games not yet saved are mirrored (:mod:`.spill`; default
        in ``/dev/shm``)."""
        self.dir = Path(directory)
        self._current_name = os.fspath(self.current)
        self.spill = Spill(Path(spill) if spill is not None else default_spill_dir(self.dir))
        self.durable = durable
        self.writer: TranscriptWriter | None = None
        #: Why the game is not being saved now (None: every action is on disk).
        self.error: OSError | None = None
        self._header: Header | None = None
        self._lines: list[str] = []  # the open game's action lines, for a rewrite
        #: Finished games not yet on disk (oldest first): written before the open game.
        self._finished: list[tuple[Header, list[str]]] = []
        #: (device, inode, size, mtime) of ``current.jsonl`` after this journal's last write.
        self._mark: tuple[int, int, int, int] | None = None
        #: What is at ``current.jsonl`` is not this journal's: set it aside before writing.
        self._foreign = False
        #: Tries in a row that found ``current.jsonl`` unreadable (its log thins out).
        self._unreadable_tries = 0
        self._syncer = Syncer()
        try:
            self.dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            self._fail("cannot create the state directory", exc)

    @property
    def current(self) -> Path:
        return self.dir / CURRENT

    @property
    def games(self) -> Path:
        return self.dir / GAMES

    @property
    def saving(self) -> bool:
        return self.error is None

    @property
    def open_game(self) -> tuple[Header | None, list[str]]:
        """The open game's header and action lines (the list is the journal's own, and
        a finished game's stays as it was when :meth:`archive` lets go of it)."""
        return self._header, self._lines

    # ------------------------------------------------------------------ start-up
    def recover(self, seats: int | None = None) -> Recovered:
        """Replay ``current.jsonl`` and reopen it when the game goes on.

        Never deletes a game: a damaged journal is renamed ``corrupt-NNNN.jsonl``; a
        finished one is archived; an intact game for more players than ``seats`` is
        kept with the saved games (``games/NNNN.jsonl``); one that cannot be read now
        (permissions) stays where it is, untouched. Only what a kill can leave is
        removed: a temporary file of an unfinished atomic write, and a journal whose
        header line was cut short (it holds no action).
        """
        self._remove_leftovers()
        taken = self._take_spill()
        if taken is not None:
            return taken
        path = self.current
        if not path.exists():
            return Recovered()
        try:
            result = replay_file(path)
        except Exception as exc:  # a bug in a game's reader must not stop every start-up
            log.exception("journal %s: replaying it failed", path)
            return self._damaged(path, f"{path.name}: replaying it failed ({short_repr(exc)})")
        header, state, error = result.header, result.state, result.error
        if error is not None and error.line is None and not path.is_dir():
            return self._unreadable(path, error.message)
        if self._unreadable_tries:
            log.warning("journal %s can be read again (after %d tries)", path,
                        self._unreadable_tries)  # fmt: skip
            self._unreadable_tries = 0
        if result.ok and state is not None and header is not None:
            if state.game_over:
                log.info("journal %s holds a finished game: archiving it", path)
                self._archive_on_disk()
                return Recovered()
            if seats is not None and header.players > seats:
                return self._keep_unresumable(header, seats)
            self._open(path, header, result.actions, result.good_length, result.blank_lines)
            log.info("resuming the game in %s after %d actions", path, len(result.actions))
            return Recovered(header, state, len(result.actions))
        if result.torn and header is not None and state is not None:
            text = self._tail(path, result.good_length)
            log.warning("journal %s: dropping a torn last line (%s): %r", path, error, text)
            self._open(path, header, result.actions, result.good_length, result.blank_lines)
            unfit = seats is not None and header.players > seats
            if state.game_over or unfit:
                self.close()
                self._header, self._lines = None, []
            if unfit and not state.game_over:
                return replace(self._keep_unresumable(header, seats or 0), torn=text)
            if state.game_over:
                self._archive_on_disk()
                return Recovered(torn=text)
            return Recovered(header, state, len(result.actions), torn=text)
        if header is None and error is not None and error.line == 1 and self._torn_header(path):
            log.warning("journal %s: removing a header cut short by a power loss: %r",
                        path, self._tail(path, 0))  # fmt: skip
            self._try(path.unlink, "cannot remove the torn journal")
            return Recovered()
        return self._damaged(path, f"{path.name}: {error}")

    def _damaged(self, path: Path, problem: str) -> Recovered:
        """Move a journal that cannot be replayed aside (never deleted); a new game starts."""
        moved = self._move_aside(path)
        log.error("journal %s cannot be replayed (%s); moved aside to %s, starting a new game",
                  path, problem.removeprefix(f"{path.name}: "), moved)  # fmt: skip
        return Recovered(moved_to=moved, problem=problem)

    def _unreadable(self, path: Path, message: str) -> Recovered:
        """``current.jsonl`` cannot be read now: kept where it is (the loop asks again
        every second or so). Logged at the first try, then at tries 2, 4, 8… (17 lines
        in a day), and once it can be read again."""
        self._unreadable_tries += 1
        tries = self._unreadable_tries
        if tries & (tries - 1) == 0:
            again = "" if tries == 1 else f" (still, after {tries} tries)"
            log.error("journal %s: %s%s; kept where it is, trying again until it can be read",
                      path, message, again)  # fmt: skip
        return Recovered(unreadable=message.removeprefix("cannot read: "))

    def _take_spill(self) -> Recovered | None:
        """Take back the games a process before this one held only in memory (its
        mirror, :mod:`.spill`), when ``current.jsonl`` is a part of one of them (or
        absent): they are newer than the card. They are written whole at once, or kept
        (NOT SAVED) until storage allows; an unfinished one is resumed."""
        games = self.spill.read()
        if not games:
            return None
        try:
            on_card = self.current.read_text(encoding="utf-8") if self.current.exists() else ""
        except (OSError, UnicodeDecodeError):
            return None  # decided once the card can be read
        whole = [[header_line(g.header), *map(line_writer(g.header), g.actions)] for g in games
                 if g.header is not None]  # fmt: skip
        if not any("".join(f"{x}\n" for x in lines).startswith(on_card) for lines in whole):
            log.warning("ignoring the unsaved games in %s: %s is not a part of them",
                        self.spill.dir, CURRENT)  # fmt: skip
            self.spill.clear()
            return None
        log.warning("taking back %d game(s) not saved before the restart from %s",
                    len(games), self.spill.dir)  # fmt: skip
        self.spill.used = True
        self.error = OSError(errno.EAGAIN, "games from before the restart not yet saved")
        resumed: State | None = None
        for game in games:
            assert game.header is not None and game.state is not None
            lines = [*map(line_writer(game.header), game.actions)]
            if game.state.game_over:
                self._finished.append((game.header, lines))
            else:
                self._header, self._lines = game.header, lines
                resumed = game.state
        self._flush()
        if self._header is None or resumed is None:
            return Recovered()
        return Recovered(self._header, resumed, len(self._lines))

    def _keep_unresumable(self, header: Header, seats: int) -> Recovered:
        """An intact game this unit has too few seats for: kept with the saved games
        (``games/NNNN.jsonl``, or ``unfinished-NNNN.jsonl`` when ``games`` cannot take
        it); a unit with the seats replays or resumes it from there."""
        why = f"a {header.players}-player game, this unit has {seats} seats"
        try:
            kept = self._archive_current("unfinished-")
        except OSError as exc:
            self._fail("cannot move the saved game out of the way", exc)
            kept = None
        log.error("cannot resume the saved game (%s): kept as %s", why, kept or self.current)
        return Recovered(moved_to=kept, problem=why, unresumable=header)

    def _move_aside(self, path: Path) -> Path | None:
        try:
            return self._set_aside(path)
        except OSError as exc:
            self._fail(f"cannot move {path.name} aside", exc)
            return None

    def _set_aside(self, path: Path) -> Path:
        target = self.dir / f"corrupt-{self._next_number(self.dir, 'corrupt-'):04d}.jsonl"
        os.rename(path, target)
        if self.durable:
            fsync_dir(self.dir)
        return target

    def _open(self, path: Path, header: Header, actions: list[Any], good: int,
              blank: int = 0) -> None:  # fmt: skip
        """Go on with the game ``path`` holds, after its first ``good`` characters; with
        ``blank`` empty lines in it (not damage: skipped), it is written again without."""
        self._header, self._lines = header, [*map(line_writer(header), actions)]
        if blank:
            log.warning("journal %s: %d empty line(s) skipped; writing it again without them",
                        path, blank)  # fmt: skip
            self._flush()
            return
        try:
            self.writer = TranscriptWriter.resume(path, good, durable=self.durable)
            self.writer.defer_sync()
            self._note_written()
        except OSError as exc:
            self._fail("cannot reopen the journal", exc)

    def _remove_leftovers(self) -> None:
        """Finish or undo an atomic write a kill interrupted: a whole temporary journal
        that extends ``current.jsonl`` (a rewrite after a storage failure) takes its
        place; anything else in it is a part of what ``current.jsonl`` already holds."""
        leftover = self.current.with_name(CURRENT + TEMPORARY_SUFFIX)
        if not leftover.exists():
            return
        try:
            new = leftover.read_bytes()
            old = self.current.read_bytes() if self.current.exists() else b""
        except OSError as exc:
            self._fail(f"cannot read {leftover.name}", exc)
            return
        if new.endswith(b"\n") and new.startswith(old) and replay_file(leftover).ok:
            log.warning("%s holds the whole game: completing its rename", leftover.name)
            self._try(lambda: os.replace(leftover, self.current), "cannot rename it")
            return
        log.warning("removing %s, left by a write that was cut off", leftover.name)
        self._try(leftover.unlink, f"cannot remove {leftover.name}")

    @staticmethod
    def _torn_header(path: Path) -> bool:
        """The file is empty, or the start of a header cut short: one JSON object's
        beginning, no newline, no NUL, no longer than a header. Anything else (a longer
        first line, NUL bytes, actions after it) is damage, moved aside."""
        try:
            with open(path, "rb") as handle:
                start = handle.read(HEADER_MAX + 1)
        except OSError:
            return False
        if not start:
            return True
        return (
            len(start) <= HEADER_MAX
            and start[:1] == b"{"
            and not any(byte in start for byte in (b"\n", b"\0"))
        )

    @staticmethod
    def _tail(path: Path, start: int) -> str:
        try:
            text = path.read_text(encoding="utf-8", errors="replace")[start:]
        except OSError as exc:
            return f"<unreadable: {exc.strerror}>"
        return text if len(text) <= TORN_PREVIEW else text[:TORN_PREVIEW] + "…"

    # ------------------------------------------------------------------- playing
    def create(self, header: Header) -> None:
        """Start the journal of a new game (an old ``current.jsonl`` is moved aside,
        unless it is a part of a finished game still waiting to be written)."""
        self.close()
        if not self._finished and os.path.lexists(self.current):
            self._foreign = True
        self._header, self._lines = header, []
        self._flush()

    def append(self, action: Any) -> None:
        """Append one accepted action and start its sync: it is on disk once
        :meth:`wait` returns (or :attr:`error` says why it could not be saved)."""
        if self._header is None:
            raise RuntimeError("no game open in the journal")
        line = line_writer(self._header)(action)
        self._lines.append(line)
        self.wait()
        self._check()
        if self.writer is None:
            self._flush()
            return
        try:
            self.writer.write_line(line)
            self._note_written()
            if self.durable:
                self._syncer.start(self.writer.fileno())
        except OSError as exc:
            self._fail("cannot append to the journal", exc)
            self._mirror()

    def wait(self) -> None:
        """Block until every appended action is on disk (a failed sync sets :attr:`error`)."""
        try:
            self._syncer.wait()
        except OSError as exc:
            self._fail("cannot sync the journal", exc)
            self._mirror()

    def retry(self) -> None:
        """While :attr:`error` is set: try again to write what only memory holds (the
        loop calls this every second or so, so a finished game is saved without a
        further action, as soon as storage allows)."""
        if self.error is not None:
            self._flush()

    def archive(self) -> Path | None:
        """Save the finished game under ``games/NNNN.jsonl`` (atomic rename, fsynced)
        and let go of it; None while it cannot be saved (it is kept in memory, written
        whole by a later :meth:`retry` or write, before any newer game). With no game
        open, archives whatever finished or abandoned game ``current.jsonl`` holds.

        When ``games`` cannot take it (not a directory, not writable), the game stays in
        the state directory as ``finished-NNNN.jsonl``. Never raises.
        """
        header, lines = self._header, self._lines
        if header is None:
            if self._finished:
                self._flush()
            if not self._finished and os.path.lexists(self.current):
                self.close()
                return self._archive_on_disk()
            return None
        self.wait()
        self._check()
        intact = self.writer is not None and not self._finished
        self.close()
        self._header, self._lines = None, []
        if intact:
            try:
                return self._archive_current("finished-")
            except OSError as exc:
                self._fail("cannot archive the finished game", exc)
        self._finished.append((header, lines))
        saved = self._flush()
        return saved[-1] if saved and not self._finished else None

    def _archive_on_disk(self) -> Path | None:
        try:
            return self._archive_current("finished-")
        except OSError as exc:
            self._fail("cannot archive the finished game", exc)
            return None

    def _archive_current(self, fallback: str) -> Path:
        """Rename ``current.jsonl`` to the next ``games/NNNN.jsonl``, else to the next
        ``{fallback}NNNN.jsonl`` in the state directory (raises when neither works)."""
        try:
            self.games.mkdir(exist_ok=True)
            target = self.games / f"{self._next_number(self.games, ''):04d}.jsonl"
            self._rename(self.current, target)
        except OSError as exc:
            log.error("cannot archive into %s (%s)", self.games, exc)
            target = self.dir / f"{fallback}{self._next_number(self.dir, fallback):04d}.jsonl"
            self._rename(self.current, target)
        log.info("game archived as %s", target)
        return target

    def _rename(self, source: Path, target: Path) -> None:
        os.rename(source, target)
        if self.durable:
            fsync_dir(target.parent)
            if target.parent != source.parent:
                fsync_dir(source.parent)

    def close(self) -> None:
        self.wait()
        if self.writer is not None:
            self.writer.close()
            self.writer = None

    # ---------------------------------------------------- writing from memory
    def _flush(self) -> list[Path]:
        """Write what only memory holds, oldest first: each finished game whole (as
        ``current.jsonl``, atomically, then archived: a kill in between leaves a
        finished journal, which start-up archives), then the open game whole. Stops at
        the first failure (:attr:`error`); returns where finished games went."""
        saved: list[Path] = []
        try:
            while self._finished:
                header, lines = self._finished[0]
                self._write_current(header, lines)
                saved.append(self._archive_current("finished-"))
                self._finished.pop(0)
            if self._header is not None:
                self._write_current(self._header, self._lines)
                self.writer = TranscriptWriter.reopen(self.current, durable=self.durable)
                self.writer.defer_sync()
                self._note_written()
        except OSError as exc:
            self._fail("cannot write the journal", exc)
            self._mirror()
            return saved
        if self.error is not None:
            log.warning("saving again: %s on disk", ", ".join(
                [p.name for p in saved] + ([f"{CURRENT} ({len(self._lines)} actions)"]
                                           if self._header is not None else [])))  # fmt: skip
            self.error = None
        self._mirror()
        return saved

    def _mirror(self) -> None:
        """Keep the spill (:mod:`.spill`) equal to what only memory holds."""
        if self.error is not None:
            games = [*self._finished]
            if self._header is not None:
                games.append((self._header, self._lines))
            self.spill.write(games)
        elif self.spill.used:
            self.spill.clear()

    def _write_current(self, header: Header, lines: list[str]) -> None:
        """Write a game whole as ``current.jsonl`` (atomically), after recreating a
        state directory that was removed and setting aside what is not this journal's."""
        self.close()
        if not self.dir.is_dir():
            log.warning("the state directory %s is gone: creating it again", self.dir)
            self.dir.mkdir(parents=True, exist_ok=True)
        current = self.current
        if os.path.lexists(current) and (self._foreign or not current.is_file()):
            moved = self._set_aside(current)
            log.warning("%s was not this unit's journal: moved aside to %s", CURRENT, moved)
        self._foreign = False
        write_atomically(current, [header_line(header), *lines], durable=self.durable)

    # ------------------------------------------------- changes from outside
    def _note_written(self) -> None:
        """Remember ``current.jsonl`` as this journal just left it (see :meth:`_check`)."""
        assert self.writer is not None
        st = os.fstat(self.writer.fileno())
        self._mark = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)

    def _check(self) -> None:
        """If ``current.jsonl`` is no longer the file this journal appends to, holding
        exactly what it wrote (same device and inode, size and modification time), say
        so and close it: the next write rewrites the game whole from memory."""
        if self.writer is None:
            return
        try:
            st = os.stat(self._current_name)  # a str: no pathlib on every action
            found = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)
            why = None if found == self._mark else (
                "replaced by a directory" if stat.S_ISDIR(st.st_mode)
                else "replaced by another file" if found[:2] != (self._mark or found)[:2]
                else "written to by something else")  # fmt: skip
        except FileNotFoundError:
            why = "deleted" if self.dir.is_dir() else "deleted with the state directory"
        except OSError as exc:
            why = f"not found ({exc.strerror})"
        if why is None:
            return
        log.error("journal %s was %s: writing the game again from memory (%d actions)",
                  self.current, why, len(self._lines))  # fmt: skip
        self._foreign = why not in ("deleted", "deleted with the state directory")
        self.close()

    # ------------------------------------------------------------------- failures
    def _fail(self, what: str, exc: OSError) -> None:
        """Note that saving failed (logged once until it works again); the game goes on."""
        self.close()
        if self.error is None:
            log.error("%s: %s; the game goes on unsaved, retrying", what, exc)
        self.error = exc

    def _try(self, call: Callable[[], object], what: str) -> None:
        try:
            call()
        except OSError as exc:
            self._fail(what, exc)

    @staticmethod
    def _next_number(directory: Path, prefix: str) -> int:
        pattern = re.compile(re.escape(prefix) + r"(\d+)\.jsonl")
        numbers = [int(m.group(1)) for p in directory.iterdir() if (m := pattern.fullmatch(p.name))]
        return max(numbers, default=0) + 1
