"""Signal handling for the unit's commands: a stop request (SIGTERM from systemd,
Ctrl-C, SIGHUP) ends them normally, so ``Hal.close()`` blanks the panels."""

from __future__ import annotations

import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType

#: Exit status for a SIGTERM shutdown (128 + signal number, as shells report it).
SIGTERM_EXIT_STATUS = 128 + signal.SIGTERM


def _raise_exit(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(128 + signum)


@contextmanager
def handling_signals(
    handler: Callable[[int, FrameType | None], object],
    signals: tuple[signal.Signals, ...] = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP),
) -> Iterator[None]:
    """While active, ``handler`` receives the signals; the old handlers come back after."""
    saved = {sig: signal.signal(sig, handler) for sig in signals}
    try:
        yield
    finally:
        for sig, old in saved.items():
            signal.signal(sig, old)


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
    with handling_signals(_raise_exit, signals):
        yield
