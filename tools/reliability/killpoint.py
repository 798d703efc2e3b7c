"""Run ``switch16`` and SIGKILL it at a chosen kind of moment (for the power-cut test).

    python3 -m tools.reliability.killpoint SEED -- run --config … --seats …

With probability ``SWITCH16_KILL_P`` (default 0.02) per journal write the process kills
itself at one of the moments a power cut can strike a write: before the temporary
file of a new journal is renamed into place, right after the rename, or halfway
through an appended line (flushed, so the torn half is on disk). Nothing in the
firmware knows about this: the module wraps its file functions from outside.
"""

from __future__ import annotations

import os
import random
import signal
import sys
from typing import Any


def _die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def install(rng: random.Random, probability: float) -> None:
    from firmware import transcript

    original_replace = os.replace

    def replace(src: Any, dst: Any, *args: Any, **kwargs: Any) -> None:
        if str(src).endswith(transcript.TEMPORARY_SUFFIX) and rng.random() < probability:
            _die()  # the new journal's header is written and synced, not yet in place
        original_replace(src, dst, *args, **kwargs)
        if str(src).endswith(transcript.TEMPORARY_SUFFIX) and rng.random() < probability:
            _die()  # in place, the directory not yet synced

    transcript.os.replace = replace  # type: ignore[attr-defined]

    original_write = transcript.TranscriptWriter.write_line

    def write(self: Any, line: str) -> None:
        if rng.random() < probability:
            self._file.write(line[: len(line) // 2])
            self._file.flush()
            os.fsync(self._file.fileno())
            _die()  # half a line on disk
        original_write(self, line)

    transcript.TranscriptWriter.write_line = write  # type: ignore[method-assign]


def main(argv: list[str]) -> int:
    seed, rest = int(argv[0]), argv[argv.index("--") + 1 :]
    install(random.Random(seed), float(os.environ.get("SWITCH16_KILL_P", "0.02")))
    from firmware.cli import main as switch16

    return switch16(rest)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
