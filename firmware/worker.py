"""A process beside the unit's loop that does its slow work (a bot's move, a hint, a
review): the Zero 2 W has four cores, the loop keeps one, the worker thinks on another.

A request is a picklable function and its arguments, tagged with a number; the worker
answers in order. A reader thread in the unit's process hands each answer's tag to
``on_answer`` (the unit puts it on its event queue, as HAL callbacks do), and
:meth:`Worker.answer` gives the result. If the worker dies, every request it had not
answered is answered at once, and :meth:`Worker.answer` raises :class:`WorkerGone` for
it (the unit then does that work itself).

The process is started with ``spawn`` (a fresh interpreter: no fork of the loop's
threads or of GPIO state); it imports ``preload`` first, while the loop plays on. This
module imports nothing of the unit, so the worker starts light.
"""

from __future__ import annotations

import importlib
import itertools
import logging
import multiprocessing
import signal
import threading
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection
from typing import Any, Protocol

log = logging.getLogger(__name__)

#: How long :meth:`Worker.close` waits for the process to end after terminating it.
CLOSE_WAIT_S = 1.0


class WorkerGone(Exception):
    """The worker died (or was closed) before it answered."""


class Thinker(Protocol):
    """What the unit asks of a worker (:class:`Worker`; tests give a fake one)."""

    def submit(self, fn: Callable[..., Any], args: tuple[Any, ...]) -> int:
        """Send ``fn(*args)`` to be worked out; its tag (WorkerGone: it cannot be sent)."""
        ...

    def answer(self, tag: int) -> Any:
        """The result of request ``tag`` once ``on_answer(tag)`` was called: ``fn``'s
        return value, or its exception raised again; WorkerGone if the worker died first."""
        ...

    def close(self) -> None: ...


#: Starts a worker: (on_answer, modules to import first) -> a worker, or None (no worker:
#: the unit works inline). OSError when it cannot start.
WorkerFactory = Callable[[Callable[[int], None], Sequence[str]], Thinker | None]


def decide(bot: Any, state: Any) -> tuple[Any, Any]:
    """A bot's action for ``state`` and the bot after deciding (its rng moved on): what
    the worker sends back, so the unit's bot is the one an inline decision leaves."""
    return bot.decide(state), bot


def _serve(requests: Connection, answers: Connection, preload: Sequence[str]) -> None:
    """The worker process: import ``preload``, then answer requests until the unit closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a Ctrl-C stops the unit, which closes it
    for name in preload:
        importlib.import_module(name)
    while True:
        try:
            tag, fn, args = requests.recv()
        except (EOFError, OSError):
            return
        try:
            reply: tuple[int, bool, Any] = (tag, True, fn(*args))
        except Exception as exc:  # the unit raises it again, as inline work would
            reply = (tag, False, exc)
        try:
            answers.send(reply)
        except Exception as exc:  # an answer or exception that does not pickle
            answers.send((tag, False, RuntimeError(f"worker: {type(exc).__name__}: {exc}")))


class Worker:
    """The worker process and the thread that reads its answers; see the module docstring."""

    def __init__(self, on_answer: Callable[[int], None], preload: Sequence[str] = ()) -> None:
        """Start the process (OSError if it cannot); ``on_answer(tag)`` is called from
        the reader thread for every answer."""
        ctx = multiprocessing.get_context("spawn")
        child_requests, self._requests = ctx.Pipe(duplex=False)
        self._answers, child_answers = ctx.Pipe(duplex=False)
        args = (child_requests, child_answers, tuple(preload))
        self._process = ctx.Process(target=_serve, args=args, name="switch16-worker", daemon=True)
        try:
            self._process.start()
        finally:
            child_requests.close()  # the child's ends: its death is EOF here
            child_answers.close()
        self._on_answer = on_answer
        self._lock = threading.Lock()
        self._pending: set[int] = set()
        self._done: dict[int, tuple[bool, Any]] = {}
        self._tags = itertools.count()
        self._reader = threading.Thread(target=self._read, name="switch16-worker-answers",
                                        daemon=True)  # fmt: skip
        self._reader.start()

    @property
    def pid(self) -> int | None:
        """The worker process's id (None before it started)."""
        return self._process.pid

    def submit(self, fn: Callable[..., Any], args: tuple[Any, ...]) -> int:
        tag = next(self._tags)
        with self._lock:
            self._pending.add(tag)
        try:
            self._requests.send((tag, fn, args))
        except (OSError, ValueError) as exc:  # the pipe is closed: the worker is gone
            with self._lock:
                self._pending.discard(tag)
            raise WorkerGone(str(exc)) from exc
        except Exception:  # the request does not pickle: nothing was sent
            with self._lock:
                self._pending.discard(tag)
            raise
        return tag

    def answer(self, tag: int) -> Any:
        with self._lock:
            found = self._done.pop(tag, None)
        if found is None:
            raise WorkerGone(f"the worker ended before it answered request {tag}")
        ok, value = found
        if not ok:
            raise value
        return value

    def _read(self) -> None:
        while True:
            try:
                tag, ok, value = self._answers.recv()
            except (EOFError, OSError):
                break
            except Exception as exc:  # an answer that does not unpickle: as if it died
                log.warning("worker: an answer could not be read: %s", exc)
                break
            with self._lock:
                self._pending.discard(tag)
                self._done[tag] = (ok, value)
            self._on_answer(tag)
        with self._lock:  # the worker is gone: what it owed is answered by WorkerGone
            gone = sorted(self._pending)
            self._pending.clear()
        for tag in gone:
            self._on_answer(tag)

    def close(self) -> None:
        """End the process now (a think in progress is dropped) and its pipes."""
        if self._process.is_alive():
            self._process.terminate()
        self._process.join(CLOSE_WAIT_S)
        if self._process.is_alive():
            self._process.kill()
            self._process.join(CLOSE_WAIT_S)
        self._requests.close()
        self._reader.join(CLOSE_WAIT_S)
        self._answers.close()


def start_worker(on_answer: Callable[[int], None], preload: Sequence[str]) -> Worker:
    """The unit's default :data:`WorkerFactory` on a real clock."""
    return Worker(on_answer, preload)
