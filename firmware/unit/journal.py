"""The power-loss journal: the current game's transcript in the state directory.

Layout of the state directory::

    current.jsonl        the game (or points match) being played
    games/NNNN.jsonl     finished games, numbered in order
    corrupt-NNNN.jsonl   journals that could not be replayed (moved aside, never deleted)

Every accepted action is appended, flushed and fsynced (:class:`TranscriptWriter`)
before the displays show its effect. On start, :meth:`Journal.recover` replays
``current.jsonl``: a clean unfinished game resumes; a torn last line (a write cut
by a power loss) is cut off; anything else wrong moves the file aside.
"""

from __future__ import annotations

import logging
import os
import re
from dataclasses import dataclass
from pathlib import Path

from firmware.engine import Action, State
from firmware.engine.notation import Header
from firmware.transcript import TranscriptWriter, fsync_dir, replay_file

log = logging.getLogger(__name__)

SYSTEM_STATE_DIR = Path("/var/lib/switch16")
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
    candidate = Path(configured).expanduser() if configured is not None else SYSTEM_STATE_DIR
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


@dataclass(frozen=True, slots=True)
class Recovered:
    """What :meth:`Journal.recover` found: a game to resume and/or a problem to show."""

    header: Header | None = None
    state: State | None = None
    actions: int = 0
    #: A torn last line that was cut off (its text), if any.
    torn: str | None = None
    #: Where a damaged journal was moved, and why.
    moved_to: Path | None = None
    problem: str | None = None


class Journal:
    """The state directory's journal files; at most one game open for appending."""

    def __init__(self, directory: str | os.PathLike[str], *, durable: bool = True) -> None:
        self.dir = Path(directory)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.durable = durable
        self.writer: TranscriptWriter | None = None

    @property
    def current(self) -> Path:
        return self.dir / CURRENT

    @property
    def games(self) -> Path:
        return self.dir / GAMES

    # ------------------------------------------------------------------ start-up
    def recover(self) -> Recovered:
        """Replay ``current.jsonl`` and reopen it when the game goes on.

        Never deletes anything: a damaged journal is renamed ``corrupt-NNNN.jsonl``;
        a finished one is archived.
        """
        path = self.current
        if not path.exists():
            return Recovered()
        result = replay_file(path)
        if result.ok and result.state is not None and result.header is not None:
            if result.state.game_over:
                log.info("journal %s holds a finished game: archiving it", path)
                self.archive()
                return Recovered()
            self.writer = TranscriptWriter.resume(path, result.good_length, durable=self.durable)
            log.info("resuming the game in %s after %d actions", path, len(result.actions))
            return Recovered(result.header, result.state, len(result.actions))
        error = result.error
        if result.torn and result.header is not None and result.state is not None:
            text = path.read_text(encoding="utf-8")[result.good_length :]
            log.warning("journal %s: dropping a torn last line (%s): %r", path, error, text)
            self.writer = TranscriptWriter.resume(path, result.good_length, durable=self.durable)
            if result.state.game_over:
                self.archive()
                return Recovered(torn=text)
            return Recovered(result.header, result.state, len(result.actions), torn=text)
        moved = self._move_aside(path)
        problem = f"{path.name}: {error}"
        log.error("journal %s cannot be replayed (%s); moved aside to %s, starting a new game",
                  path, error, moved)  # fmt: skip
        return Recovered(moved_to=moved, problem=problem)

    def move_current_aside(self) -> Path:
        """Set ``current.jsonl`` aside as ``corrupt-NNNN.jsonl`` (it cannot be played)."""
        self.close()
        return self._move_aside(self.current)

    def _move_aside(self, path: Path) -> Path:
        target = self.dir / f"corrupt-{self._next_number(self.dir, 'corrupt-'):04d}.jsonl"
        os.rename(path, target)
        if self.durable:
            fsync_dir(self.dir)
        return target

    # ------------------------------------------------------------------- playing
    def create(self, header: Header) -> None:
        """Start the journal of a new game (``current.jsonl`` must not exist)."""
        self.close()
        if self.current.exists():
            moved = self._move_aside(self.current)
            log.warning("an old %s was in the way: moved to %s", CURRENT, moved)
        self.writer = TranscriptWriter.create(self.current, header, durable=self.durable)

    def append(self, action: Action) -> None:
        """Append one accepted action durably (returns once it is on disk)."""
        if self.writer is None:
            raise RuntimeError("no game open in the journal")
        self.writer.append(action)

    def archive(self) -> Path | None:
        """Move the finished game to ``games/NNNN.jsonl`` (atomic rename, fsynced)."""
        self.close()
        if not self.current.exists():
            return None
        self.games.mkdir(exist_ok=True)
        target = self.games / f"{self._next_number(self.games, ''):04d}.jsonl"
        os.rename(self.current, target)
        if self.durable:
            fsync_dir(self.games)
            fsync_dir(self.dir)
        log.info("game archived as %s", target)
        return target

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.writer = None

    @staticmethod
    def _next_number(directory: Path, prefix: str) -> int:
        pattern = re.compile(re.escape(prefix) + r"(\d+)\.jsonl")
        numbers = [int(m.group(1)) for p in directory.iterdir() if (m := pattern.fullmatch(p.name))]
        return max(numbers, default=0) + 1
