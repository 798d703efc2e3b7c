"""The power-loss journal: the current game's transcript in the state directory.

Layout of the state directory::

    current.jsonl        the game (or points match) being played
    games/NNNN.jsonl     finished games, numbered in order
    corrupt-NNNN.jsonl   journals that could not be replayed (moved aside, never deleted)
    finished-NNNN.jsonl  finished games that games/ could not take (not a directory…)

Every accepted action is appended and flushed (:class:`TranscriptWriter`) and its
sync started at once (:class:`Syncer`, ``fdatasync`` in a worker thread); the unit
renders meanwhile and calls :meth:`Journal.wait` before it sends any frame, so an
action is on disk before any display shows its effect. On start, :meth:`Journal.recover` replays
``current.jsonl``: a clean unfinished game resumes; a torn last line (a write cut
by a power loss) is cut off; anything else wrong moves the file aside.
"""

from __future__ import annotations

import logging
import os
import queue
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from firmware.engine import Action, State
from firmware.engine.notation import Header
from firmware.settings import DEFAULT_STATE_DIR
from firmware.transcript import (
    TEMPORARY_SUFFIX,
    TranscriptWriter,
    action_line,
    fsync_dir,
    header_line,
    replay_file,
    write_atomically,
)

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
        self._done = threading.Semaphore(0)
        self._begun = threading.Semaphore(0)

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
    #: Where a damaged journal was moved, and why.
    moved_to: Path | None = None
    problem: str | None = None


#: How much of a torn line the log and :class:`Recovered` keep.
TORN_PREVIEW = 120


class Journal:
    """The state directory's journal files; at most one game open for appending.

    Storage failures never stop the game: when a write fails (a full SD card, a
    file system remounted read-only) :attr:`error` says why and the journal keeps the
    game's lines in memory; every later :meth:`append` tries to write the whole game
    again (atomically), so saving resumes, with nothing lost, once there is room.
    """

    def __init__(self, directory: str | os.PathLike[str], *, durable: bool = True) -> None:
        self.dir = Path(directory)
        self.durable = durable
        self.writer: TranscriptWriter | None = None
        #: Why the game is not being saved now (None: every action is on disk).
        self.error: OSError | None = None
        self._header: Header | None = None
        self._lines: list[str] = []  # the open game's action lines, for a rewrite
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
    def recover(self) -> Recovered:
        """Replay ``current.jsonl`` and reopen it when the game goes on.

        Never deletes a game: a damaged journal is renamed ``corrupt-NNNN.jsonl``; a
        finished one is archived. Only what a kill can leave is removed: a temporary
        file of an unfinished atomic write, and a journal whose header line was cut
        short (it holds no action).
        """
        self._remove_leftovers()
        path = self.current
        if not path.exists():
            return Recovered()
        result = replay_file(path)
        header, state = result.header, result.state
        if result.ok and state is not None and header is not None:
            if state.game_over:
                log.info("journal %s holds a finished game: archiving it", path)
                self.archive()
                return Recovered()
            self._open(path, header, result.actions, result.good_length)
            log.info("resuming the game in %s after %d actions", path, len(result.actions))
            return Recovered(header, state, len(result.actions))
        error = result.error
        if result.torn and header is not None and state is not None:
            text = self._tail(path, result.good_length)
            log.warning("journal %s: dropping a torn last line (%s): %r", path, error, text)
            self._open(path, header, result.actions, result.good_length)
            if state.game_over:
                self.archive()
                return Recovered(torn=text)
            return Recovered(header, state, len(result.actions), torn=text)
        if header is None and error is not None and error.line == 1 and self._no_full_line(path):
            log.warning("journal %s: removing a header cut short by a power loss: %r",
                        path, self._tail(path, 0))  # fmt: skip
            self._try(path.unlink, "cannot remove the torn journal")
            return Recovered()
        moved = self._move_aside(path)
        problem = f"{path.name}: {error}"
        log.error("journal %s cannot be replayed (%s); moved aside to %s, starting a new game",
                  path, error, moved)  # fmt: skip
        return Recovered(moved_to=moved, problem=problem)

    def move_current_aside(self) -> Path | None:
        """Set ``current.jsonl`` aside as ``corrupt-NNNN.jsonl`` (it cannot be played)."""
        self.close()
        return self._move_aside(self.current)

    def _move_aside(self, path: Path) -> Path | None:
        try:
            target = self.dir / f"corrupt-{self._next_number(self.dir, 'corrupt-'):04d}.jsonl"
            os.rename(path, target)
            if self.durable:
                fsync_dir(self.dir)
        except OSError as exc:
            self._fail(f"cannot move {path.name} aside", exc)
            return None
        return target

    def _open(self, path: Path, header: Header, actions: list[Action], good: int) -> None:
        self._header, self._lines = header, [action_line(a) for a in actions]
        try:
            self.writer = TranscriptWriter.resume(path, good, durable=self.durable)
            self.writer.defer_sync()
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
    def _no_full_line(path: Path) -> bool:
        """The file ends before its first newline: a header cut short (or empty)."""
        try:
            with open(path, "rb") as handle:
                return b"\n" not in handle.read(64 * 1024)
        except OSError:
            return False

    @staticmethod
    def _tail(path: Path, start: int) -> str:
        try:
            text = path.read_text(encoding="utf-8", errors="replace")[start:]
        except OSError as exc:
            return f"<unreadable: {exc.strerror}>"
        return text if len(text) <= TORN_PREVIEW else text[:TORN_PREVIEW] + "…"

    # ------------------------------------------------------------------- playing
    def create(self, header: Header) -> None:
        """Start the journal of a new game (an old ``current.jsonl`` is moved aside)."""
        self.close()
        self._header, self._lines = header, []
        if self.current.exists():
            moved = self._move_aside(self.current)
            log.warning("an old %s was in the way: moved to %s", CURRENT, moved)
        self._save()

    def append(self, action: Action) -> None:
        """Append one accepted action and start its sync: it is on disk once
        :meth:`wait` returns (or :attr:`error` says why it could not be saved)."""
        if self._header is None:
            raise RuntimeError("no game open in the journal")
        line = action_line(action)
        self._lines.append(line)
        if self.writer is None:
            self._save()
            return
        try:
            self.wait()
            self.writer.write_line(line)
            if self.durable:
                self._syncer.start(self.writer.fileno())
        except OSError as exc:
            self._fail("cannot append to the journal", exc)

    def wait(self) -> None:
        """Block until every appended action is on disk (a failed sync sets :attr:`error`)."""
        try:
            self._syncer.wait()
        except OSError as exc:
            self._fail("cannot sync the journal", exc)

    def _save(self) -> None:
        """Write the whole open game as ``current.jsonl`` (atomically) and reopen it."""
        assert self._header is not None
        self.close()
        try:
            if self.current.exists():
                write_atomically(self.current, [header_line(self._header), *self._lines],
                                 durable=self.durable)  # fmt: skip
                self.writer = TranscriptWriter.resume(
                    self.current, self.current.stat().st_size, durable=self.durable
                )
            else:
                self.writer = TranscriptWriter.create(
                    self.current, self._header, durable=self.durable, lines=self._lines
                )
            self.writer.defer_sync()
        except OSError as exc:
            self._fail("cannot write the journal", exc)
            return
        if self.error is not None:
            log.warning("saving again: %s holds the game (%d actions)", CURRENT,
                        len(self._lines))  # fmt: skip
            self.error = None

    def archive(self) -> Path | None:
        """Move the finished game to ``games/NNNN.jsonl`` (atomic rename, fsynced).

        When ``games`` cannot take it (not a directory, not writable), the game stays in
        the state directory as ``finished-NNNN.jsonl``; when nothing can be renamed it
        stays ``current.jsonl`` and the error is logged. Never raises.
        """
        self.close()
        self._header, self._lines = None, []
        if not self.current.exists():
            return None
        try:
            self.games.mkdir(exist_ok=True)
            target = self.games / f"{self._next_number(self.games, ''):04d}.jsonl"
            self._rename(self.current, target)
        except OSError as exc:
            log.error("cannot archive into %s (%s)", self.games, exc)
            try:
                target = self.dir / f"finished-{self._next_number(self.dir, 'finished-'):04d}.jsonl"
                self._rename(self.current, target)
            except OSError as exc2:
                self._fail("cannot archive the finished game", exc2)
                return None
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

    # ------------------------------------------------------------------- failures
    def _fail(self, what: str, exc: OSError) -> None:
        """Note that saving failed (logged once until it works again); the game goes on."""
        self.close()
        if self.error is None:
            log.error("%s: %s; the game goes on unsaved, retrying at every action", what, exc)
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
