"""A long run's progress on stderr (``switch16 selfplay --progress``): any game's
runner calls it with ``(done, total)``."""

from __future__ import annotations

import sys
from typing import Any

from tqdm import tqdm


class ProgressBar:
    """Progress of a long run on stderr with rate and time left (tqdm), fed by a
    runner's ``progress(done, total)`` calls."""

    def __init__(self, stream: Any = None) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self._bar: Any = None

    def __call__(self, done: int, total: int) -> None:
        if self._bar is None:
            self._bar = tqdm(total=total, unit="game", file=self.stream, smoothing=0.1)
        self._bar.update(done - self._bar.n)
        if done >= total:
            self._bar.close()
