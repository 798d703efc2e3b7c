"""Turn SIGTERM (systemd stop) into a normal exit so ``Hal.close()`` blanks the panels."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

#: Exit status for a SIGTERM shutdown (128 + signal number, as shells report it).
SIGTERM_EXIT_STATUS = 128 + signal.SIGTERM


def _raise_exit(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(128 + signum)


@contextmanager
def exit_on_signals(
    signals: tuple[signal.Signals, ...] = (signal.SIGTERM, signal.SIGHUP),
) -> Iterator[None]:
    """While active, the signals raise SystemExit in the main thread.

    Use around the unit loop, outside ``with hal:`` so the HAL closes (and blanks the
    displays) on the way out::

        with exit_on_signals(), load_backend(None, config) as hal:
            run_loop(hal)
    """
    saved = {sig: signal.signal(sig, _raise_exit) for sig in signals}
    try:
        yield
    finally:
        for sig, handler in saved.items():
            signal.signal(sig, handler)
