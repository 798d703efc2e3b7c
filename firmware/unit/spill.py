"""Games the journal could not save yet, mirrored in RAM so a restart keeps them.

While storage fails the journal holds games in memory only; a restart of the process
(a crash, the watchdog, ``systemctl restart``) would lose them, and the unit would
resume the part on the card and draw new dice for actions the players had seen. So
the journal mirrors them here, each a whole transcript (``0001.jsonl``, … oldest
first), in a RAM file system (``/dev/shm``), which survives a restart of the process
but not a reboot or a power cut. Start-up takes them back (:meth:`Journal.recover`).
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import tempfile
from pathlib import Path

from firmware.games.game import GameHeader as Header
from firmware.transcript import Replayed, header_line, replay_file, write_atomically

log = logging.getLogger(__name__)

RAM = Path("/dev/shm")


def default_spill_dir(state_dir: Path) -> Path:
    """Where the games of ``state_dir`` are mirrored: one directory per user and
    state directory, in ``/dev/shm`` where there is one."""
    base = RAM if os.path.isdir(RAM) else Path(tempfile.gettempdir())
    key = hashlib.sha256(str(state_dir.absolute()).encode()).hexdigest()[:16]
    return base / f"switch16-{os.getuid()}" / key


class Spill:
    """The mirror: :meth:`write` the games memory holds, :meth:`read` them back,
    :meth:`clear` once they are on the card. Never raises (a mirror that cannot be
    written is logged once)."""

    def __init__(self, directory: Path) -> None:
        self.dir = directory
        self.used = False
        self._warned = False
        #: What each file holds: (the game's header, number of action lines).
        self._written: list[tuple[Header, int]] = []

    def write(self, games: list[tuple[Header, list[str]]]) -> None:
        """Mirror ``games``: only the files whose game changed are written again."""
        want = [(header, len(lines)) for header, lines in games]
        try:
            self.dir.mkdir(parents=True, exist_ok=True, mode=0o700)
            for n, (header, lines) in enumerate(games):
                if n < len(self._written) and self._written[n][0] is header \
                        and self._written[n][1] == len(lines):  # fmt: skip
                    continue
                self._written = self._written[:n]
                write_atomically(self.dir / f"{n + 1:04d}.jsonl", [header_line(header), *lines],
                                 durable=False)  # fmt: skip
                self._written.append(want[n])
            for extra in self._files()[len(games) :]:
                extra.unlink()
        except OSError as exc:
            self._written = []
            if not self._warned:
                log.error("cannot keep the unsaved games in %s either: %s", self.dir, exc)
                self._warned = True
            return
        self._written = want
        self.used = True

    def read(self) -> list[Replayed]:
        """The mirrored games that replay (each whole), oldest first."""
        out = []
        for path in self._files():
            result = replay_file(path)
            if result.ok and result.header is not None:
                out.append(result)
            else:
                log.warning("ignoring %s: %s", path, result.error)
        return out

    def clear(self) -> None:
        for path in self._files():
            with contextlib.suppress(OSError):
                path.unlink()
        with contextlib.suppress(OSError):
            self.dir.rmdir()
        self.used = False
        self._written = []

    def _files(self) -> list[Path]:
        try:
            return sorted(p for p in self.dir.iterdir() if p.suffix == ".jsonl")
        except OSError:
            return []
