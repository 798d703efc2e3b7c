"""The link's transport: the port, its reader, writer and keeper threads, and the
rate-limited log of bad input. Nothing here touches the unit: the reader hands each
frame to a callback (which only queues it), the loop hands replies to :meth:`Transport.write`."""

from __future__ import annotations

import contextlib
import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import serial.threaded

from .ports import open_port
from .protocol import MAX_REQUEST, FrameError, FrameSplitter

log = logging.getLogger("switch16.link")

#: Replies waiting for the writer at most; more are dropped (a peer that stopped reading).
MAX_OUTGOING = 256
REOPEN_AFTER_S = 1.0
#: Bad frames and refused requests logged one by one at most per :data:`LOG_WINDOW_S`;
#: the rest are counted and summed up in one line when the window ends.
LOG_LINES_PER_WINDOW = 10
LOG_WINDOW_S = 60.0

#: What the reader thread does with each frame (or why it could not read one).
Received = Callable[[dict[str, Any] | None, FrameError | None], None]


@dataclass
class Counters:
    """What crossed the link, for the ``stats`` op."""

    received: int = 0  #: good frames
    bad: int = 0  #: frames that could not be read
    dropped: int = 0  #: frames dropped because the loop had too many waiting
    unanswered: int = 0  #: bad frames not answered (error replies rate-limited)
    rejected: int = 0  #: good frames answered with an error
    sent: int = 0
    send_dropped: int = 0  #: replies dropped because the writer was full
    reopened: int = 0
    by_code: dict[str, int] = field(default_factory=dict)


class QuietLog:
    """The log of bad input, rate-limited as the error replies are: at most
    :data:`LOG_LINES_PER_WINDOW` lines one by one a window, the rest counted by code
    and summed up in one line when the window ends (the keeper thread wakes for it)."""

    def __init__(self, clock: Any = time.monotonic) -> None:
        self.clock = clock
        self._lock = threading.Lock()
        self._started = clock()
        self._lines = 0
        self._held: dict[str, int] = {}
        self.unanswered = 0  #: error replies held back by their rate limit this window

    def info(self, code: str, text: str) -> None:
        self.flush()
        with self._lock:
            if self._lines < LOG_LINES_PER_WINDOW:
                self._lines += 1
                log.info("link: %s", text)
            else:
                self._held[code] = self._held.get(code, 0) + 1

    def flush(self, force: bool = False) -> None:
        """Log the held-back counts when the window has ended (or ``force``)."""
        with self._lock:
            now = self.clock()
            if not force and now - self._started < LOG_WINDOW_S:
                return
            held, unanswered = sum(self._held.values()), self.unanswered
            if held or unanswered:
                codes = ", ".join(f"{c} {n}" for c, n in sorted(self._held.items()))
                log.info("link: in the last %.0f s, %d more bad or refused frames not logged "
                         "one by one (%s); %d error replies held back by the rate limit",
                         now - self._started, held, codes or "none", unanswered)  # fmt: skip
            self._started, self._lines, self._held, self.unanswered = now, 0, {}, 0


class _Receiver:
    """The reader thread's protocol (:class:`serial.threaded.Protocol`): split, hand on."""

    def __init__(self, transport: Transport) -> None:
        self.transport = transport
        self.splitter = FrameSplitter(MAX_REQUEST)

    def connection_made(self, transport: Any) -> None:
        log.info("link: %s open", self.transport.url)

    def data_received(self, data: bytes) -> None:
        try:
            items = self.splitter.feed(data)
        except Exception:  # never on input (protocol.py is total); the reader lives on
            log.exception("link: reader: %d bytes dropped", len(data))
            self.splitter = FrameSplitter(MAX_REQUEST)
            return
        for item in items:
            self.transport.received(item.message, item.error)

    def connection_lost(self, exc: BaseException | None) -> None:
        if exc is not None:
            log.warning("link: %s lost: %s", self.transport.url, exc)
        self.transport.lost.set()


class Writer(threading.Thread):
    """Writes queued frames to the port; the loop only ever ``put_nowait``s.

    A frame is written whole or not at all: a write waits as long as the peer takes
    to read (the port has no write timeout, which would leave a frame cut part way);
    meanwhile the loop's frames beyond :data:`MAX_OUTGOING` are dropped whole and
    counted. :meth:`stop` cancels a write that waits."""

    def __init__(self, port: Any) -> None:
        super().__init__(name="link-writer", daemon=True)
        self.port = port
        self.queue: queue.Queue[bytes | None] = queue.Queue(MAX_OUTGOING)
        self._stopped = threading.Event()

    def run(self) -> None:
        cut = False  # the last write failed part way: a frame on the wire is not ended
        while (data := self.queue.get()) is not None:
            try:
                # a newline first ends the cut frame: the peer drops it, not this one
                self.port.write(b"\n" + data if cut else data)
                cut = False
            except Exception as exc:  # a port that went away (or closed) mid-write
                if not getattr(self.port, "is_open", True):
                    return  # closed for good: the rest is dropped
                cut = True
                if not self._stopped.is_set():
                    log.warning("link: write failed: %s", exc)
            if self._stopped.is_set() and self.queue.empty():
                return  # (the queue was full when stop() came: no None to end it)

    def stop(self) -> None:
        """End the thread: a write waiting for the peer is cancelled (the port closes)."""
        self._stopped.set()
        with contextlib.suppress(queue.Full):
            self.queue.put_nowait(None)
        cancel = getattr(self.port, "cancel_write", None)  # a tty's; a socket's closes
        if cancel is not None:
            with contextlib.suppress(Exception):
                cancel()


class Transport:
    """``url``'s port with its threads: :meth:`open` it, :meth:`write` frames to it;
    a port that goes away is opened again by the keeper thread."""

    def __init__(self, url: str, received: Received, counters: Counters,
                 quiet: QuietLog) -> None:  # fmt: skip
        self.url = url
        self.received = received
        self.counters = counters
        self.quiet = quiet
        self._lock = threading.Lock()
        self._port: Any = None
        self._reader: Any = None
        self._writer: Writer | None = None
        self.lost = threading.Event()  #: the reader stopped: the keeper reopens
        self._closing = threading.Event()
        self.keeper: threading.Thread | None = None

    def open(self) -> None:
        """Open the port and start the reader and writer (raises if it cannot open),
        and the keeper thread that opens it again whenever it goes away."""
        self._closing.clear()
        self._open_port()
        self._keep()

    def _open_port(self, again: bool = False) -> None:
        """Open the port and start its writer and reader; ``again``: a lost port
        reopened, counted before anything it brings can ask the count."""
        port = open_port(self.url, write_timeout=None)  # whole frames (see Writer)
        self.lost.clear()
        self._port = port
        if again:
            with self._lock:
                self.counters.reopened += 1
        self._writer = Writer(port)
        self._writer.start()
        self._reader = serial.threaded.ReaderThread(port, lambda: _Receiver(self))
        self._reader.start()

    def _close_port(self) -> None:
        if self._writer is not None:
            self._writer.stop()
            self._writer = None
        if self._reader is not None:
            try:
                self._reader.close()
            except Exception as exc:
                log.debug("link: close: %s", exc)
            self._reader = None

    def close(self) -> None:
        """Close the port for good (the keeper stops); the log's held-back counts."""
        self._closing.set()
        self.lost.set()  # wakes the keeper, which sees _closing and returns
        self._close_port()
        self.quiet.flush(force=True)

    def schedule_reopen(self) -> None:
        """Open the port later (it was not there at start-up): every
        :data:`REOPEN_AFTER_S` until it opens."""
        self._closing.clear()
        self.lost.set()
        self._keep()

    def _keep(self) -> None:
        if self.keeper is None or not self.keeper.is_alive():
            self.keeper = threading.Thread(target=self._keeper_run, name="link-keeper",
                                            daemon=True)  # fmt: skip
            self.keeper.start()

    def _keeper_run(self) -> None:
        """Reopen a lost port on this thread's own schedule (the loop may sleep for a
        minute, or for ever on a virtual clock), and sum up the held-back log lines."""
        while not self._closing.is_set():
            if not self.lost.wait(LOG_WINDOW_S):
                self.quiet.flush()
                continue
            if self._closing.is_set():
                return
            self._close_port()
            while not self._closing.wait(REOPEN_AFTER_S):
                try:
                    self._open_port(again=True)
                except Exception as exc:
                    log.debug("link: reopen %s: %s", self.url, exc)
                    continue
                if self._closing.is_set():  # closed for good while it was opening
                    self._close_port()
                    return
                log.info("link: %s open again", self.url)
                break

    def write(self, data: bytes) -> None:
        """Queue one frame for the writer (dropped and counted when it is full)."""
        writer = self._writer
        if writer is None:
            self.counters.send_dropped += 1
            return
        try:
            writer.queue.put_nowait(data)
            self.counters.sent += 1
        except queue.Full:
            self.counters.send_dropped += 1
            if self.counters.send_dropped in (1, 10, 100) or self.counters.send_dropped % 1000 == 0:
                log.warning("link: the peer is not reading: %d frames dropped",
                            self.counters.send_dropped)  # fmt: skip
