"""Transcripts on disk: the one format for replays, bug reports, test fixtures and the
unit's power-loss journal (docs/TRANSCRIPTS.md).

Reading never raises on bad input: :func:`replay_text` / :func:`replay_file` stop at
the first malformed or illegal line and say which line and why, keeping the state
before it. An action line must be written as the unit writes it (:func:`line_writer`:
the notation in ASCII, the keys in order, one space after ``:`` and ``,``); nesting is
bounded before a line is parsed (:mod:`firmware.jsonsafe`); empty lines are skipped.
Writing goes through :class:`TranscriptWriter`, which flushes and fsyncs every line (and
the directory when it creates the file) so a power cut loses at most the line being
written.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from firmware.games.game import Game, GameHeader
from firmware.games.registry import DEFAULT_GAME, UnknownGameError, get_game
from firmware.jsonsafe import TooDeepError, check_depth, short_repr
from firmware.kernel.errors import EngineError, MalformedActionError

_loads: Callable[[str], Any]
_DecodeError: type[ValueError]
try:  # orjson parses ~4x faster; the stdlib is the fallback (e.g. on an armv6 Pi Zero).
    from orjson import JSONDecodeError as _DecodeError
    from orjson import loads as _loads
except ImportError:  # pragma: no cover - depends on the machine
    _loads = json.loads
    _DecodeError = json.JSONDecodeError

#: What :func:`write_atomically` appends to the name of the file it is writing.
TEMPORARY_SUFFIX = ".tmp"


@dataclass(frozen=True, slots=True)
class TranscriptError:
    """Where and why a transcript stopped replaying. ``line`` is 1-based (header = 1)."""

    line: int | None
    message: str

    def __str__(self) -> str:
        return self.message if self.line is None else f"line {self.line}: {self.message}"


@dataclass
class Replayed:
    """The outcome of replaying a transcript."""

    header: GameHeader | None  #: its ``game`` names the game
    state: Any  #: the game's position (None: no header)
    actions: list[Any] = field(default_factory=list)
    error: TranscriptError | None = None
    #: The error is on the last line, which has no newline: a write cut short.
    torn: bool = False
    #: Length in characters of the text up to and including the last good line.
    good_length: int = 0
    #: Empty lines skipped (not damage; a writer of the file leaves none).
    blank_lines: int = 0

    @property
    def ok(self) -> bool:
        return self.error is None

    def to_json(self, path: str) -> dict[str, Any]:
        """The per-file object printed by ``switch16 replay --json`` (docs/TRANSCRIPTS.md)."""
        out: dict[str, Any] = {"file": path}
        if self.error is not None:
            out["error"] = {"line": self.error.line, "message": self.error.message}
        out["state"] = None if self.state is None else self.state.to_json()
        return out


def dumps(obj: dict[str, Any]) -> str:
    """One transcript line (no newline), spaced like the examples in docs/TRANSCRIPTS.md."""
    return json.dumps(obj, ensure_ascii=False)


def header_line(header: GameHeader) -> str:
    return dumps(header.to_json())


def line_writer(header: Any) -> Callable[[Any], str]:
    """What writes an action line of ``header``'s game (its notation, as JSON)."""
    to_json = get_game(header.game).action_to_json
    return lambda action: dumps(to_json(action))


def parse_line(line: str) -> Any:
    """The JSON value of one line; ValueError saying what is wrong with it (nesting
    deeper than :data:`firmware.jsonsafe.MAX_DEPTH` is refused before parsing)."""
    try:
        check_depth(line)
        return _loads(line)
    except TooDeepError as exc:
        raise ValueError(f"{exc}: {short_repr(line)}") from None
    except (_DecodeError, ValueError, RecursionError) as exc:
        raise ValueError(_json_problem(line, exc)) from None


def canonical(line: str, written: str) -> None:
    """Refuse an action ``line`` that its game's writer would write otherwise
    (``written``): another spacing, key order or escape, non-ASCII digits or spaces in
    the notation... The one format stays one text."""
    if line != written:
        raise MalformedActionError(
            f"{short_repr(line)} is not written as the unit writes it ({short_repr(written)})"
        )


def _json_problem(line: str, exc: Exception) -> str:
    text = line.strip()
    if not text:
        return "empty line (expected a JSON object)"
    if text.startswith("{") and not text.endswith("}"):
        return f"truncated JSON object: {short_repr(text)}"
    return f"not valid JSON ({str(exc).splitlines()[0]}): {short_repr(text)}"


def replay_text(text: str) -> Replayed:
    """Replay a whole transcript given as text: the game its header names reads and
    applies each action line, by its own :meth:`~firmware.games.game.Game.fast_replay`
    (Switch 16's steps one private state in place) or state by state. A bad line
    changes nothing, so the state is then the one before it.
    """
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    first = next((n for n, line in enumerate(lines) if not _blank(line)), len(lines))
    if first == len(lines):
        return Replayed(None, None, error=TranscriptError(1, "empty file: no header line"))
    try:
        obj = parse_line(lines[first])
        named = obj.get("game", DEFAULT_GAME) if isinstance(obj, dict) else DEFAULT_GAME
        game = get_game(named)
        header = game.header_from_json(obj)
    except UnknownGameError as exc:
        return Replayed(None, None, error=TranscriptError(first + 1, f"header: 'game': {exc}"))
    except ValueError as exc:  # not JSON, or a header value this game refuses: it says which
        return Replayed(None, None, error=TranscriptError(first + 1, str(exc)))
    initial = header.initial_state()
    result = Replayed(header, initial)
    replay = game.fast_replay(initial) or _StateByState(game, header, initial)
    append = result.actions.append
    _run(result, lines, first, text, lambda rest: replay.run(rest, append))
    result.state = replay.state
    return result


class _StateByState:
    """A game's replay through its notation and its states' ``apply``, one state per
    line (:meth:`~firmware.games.game.Game.fast_replay`'s default)."""

    def __init__(self, game: Game, header: GameHeader, initial: Any) -> None:
        self.game = game
        self.write = line_writer(header)
        self.state = initial

    def run(self, lines: Iterator[str], append: Callable[[Any], None]) -> None:
        for line in lines:
            action = self.game.action_from_json(parse_line(line))
            canonical(line, self.write(action))
            self.state = self.state.apply(action)
            append(action)


def _run(result: Replayed, lines: list[str], first: int, text: str,
         run: Callable[[Iterator[str]], None]) -> None:  # fmt: skip
    """Feed the action lines after the header (``lines[first]``) to ``run``, which
    applies each and appends it to ``result.actions``, skipping empty lines; note where
    the first bad line stops it (the state is then the one before that line)."""
    rest = iter(lines[first + 1 :])
    blank = 0
    while True:
        try:
            run(rest)
        except (EngineError, ValueError) as exc:
            number = first + len(result.actions) + blank + 2  # the bad line's, 1-based
            if _blank(lines[number - 1]):
                blank += 1
                continue  # with the line after it
            result.error = TranscriptError(number, str(exc))
            result.torn = number == len(lines) and not text.endswith("\n")
            result.good_length = sum(len(line) + 1 for line in lines[: number - 1])
        else:
            result.good_length = len(text)  # every line is good (with or without a final newline)
        result.blank_lines = first + blank  # before the header too
        return


def _blank(line: str) -> bool:
    """An empty line (or only JSON's spaces): skipped, not damage."""
    return not line.strip(" \t\r")


def replay_file(path: str | os.PathLike[str]) -> Replayed:
    """Replay a transcript file; an unreadable file is an error with no line number."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        line = exc.object[: exc.start].count(b"\n") + 1
        return Replayed(
            None, None, error=TranscriptError(line, f"not UTF-8 text (byte {exc.start})")
        )
    except OSError as exc:
        return Replayed(None, None, error=TranscriptError(None, f"cannot read: {exc.strerror}"))
    return replay_text(text)


def replay_lines(lines: Iterable[str]) -> Replayed:
    """Replay from an iterable of lines (newlines optional)."""
    return replay_text("".join(line if line.endswith("\n") else line + "\n" for line in lines))


def fsync_dir(path: Path) -> None:
    """Make a directory entry (a created or renamed file) durable."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_atomically(path: Path, lines: Iterable[str], *, durable: bool = True) -> None:
    """Write ``lines`` as ``path`` via a fsynced temporary file renamed into place, so
    the file is either as it was or complete. The temporary file never outlives a failure."""
    temporary = path.with_name(path.name + TEMPORARY_SUFFIX)
    try:
        with open(temporary, "w", encoding="utf-8") as handle:
            handle.write("".join(line + "\n" for line in lines))
            handle.flush()
            if durable:
                os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise
    if durable:
        fsync_dir(path.parent)


class TranscriptWriter:
    """Appends a game to a transcript file, durably (the unit's power-loss journal).

    Every :meth:`append` writes one line, flushes it and (with ``durable=True``)
    fsyncs it before returning, so callers show an action's effect only once it
    is on disk.
    """

    def __init__(self, path: Path, handle: Any, durable: bool) -> None:
        self.path = path
        self._file = handle
        self._durable = durable
        self._sync_each = durable

    def defer_sync(self) -> None:
        """From now on :meth:`append` only writes and flushes: the caller syncs
        :meth:`fileno` itself (the unit's journal overlaps the sync with rendering)."""
        self._sync_each = False

    def fileno(self) -> int:
        return int(self._file.fileno())

    @classmethod
    def create(
        cls,
        path: str | os.PathLike[str],
        header: GameHeader,
        *,
        durable: bool = True,
        lines: Iterable[str] = (),
    ) -> TranscriptWriter:
        """Start a new transcript (fails if the file exists) with ``header`` as line 1 and
        any action ``lines`` after it. Atomic: a kill leaves no file or the whole start."""
        path = Path(path)
        if path.exists():
            raise FileExistsError(errno.EEXIST, "transcript exists", str(path))
        write_atomically(path, [header_line(header), *lines], durable=durable)
        handle = open(path, "a", encoding="utf-8")  # noqa: SIM115 - kept open for appends
        return cls(path, handle, durable)

    @classmethod
    def resume(
        cls, path: str | os.PathLike[str], good_length: int, *, durable: bool = True
    ) -> TranscriptWriter:
        """Reopen a transcript for appending after its first ``good_length`` characters
        (a torn last line beyond them is cut off)."""
        path = Path(path)
        text = path.read_text(encoding="utf-8")
        keep = text[:good_length]
        if keep and not keep.endswith("\n"):
            keep += "\n"
        if keep != text:
            with open(path, "r+", encoding="utf-8") as f:
                f.seek(0)
                f.write(keep)
                f.truncate()
                f.flush()
                if durable:
                    os.fsync(f.fileno())
        return cls.reopen(path, durable=durable)

    @classmethod
    def reopen(cls, path: str | os.PathLike[str], *, durable: bool = True) -> TranscriptWriter:
        """Open a whole transcript for appending, as it is."""
        handle = open(path, "a", encoding="utf-8")  # noqa: SIM115 - kept open for appends
        return cls(Path(path), handle, durable)

    def write_line(self, line: str) -> None:
        """Append one line as it is (no newline in it), e.g. a :func:`line_writer`'s."""
        self._file.write(line + "\n")
        self._file.flush()
        if self._sync_each:
            os.fsync(self._file.fileno())

    def close(self) -> None:
        """Close the file; never raises (a line that failed to write is lost anyway)."""
        if self._file.closed:
            return
        try:
            self._file.close()
        except OSError:
            with contextlib.suppress(OSError):
                self._file.close()  # the buffer is dropped; the descriptor is released

    def __enter__(self) -> TranscriptWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def write_transcript(
    path: str | os.PathLike[str], header: GameHeader, actions: Iterable[Any]
) -> None:
    """Write a whole transcript at once (not fsynced per line: for tools and tests)."""
    lines = [header_line(header), *map(line_writer(header), actions)]
    Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")
