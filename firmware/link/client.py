"""The harness's end of the link: pyserial ``serial_for_url`` + ``serial.threaded``.

:class:`LinkClient` opens any pyserial URL (a tty, a pty, ``socket://``,
``rfc2217://``), sends requests and waits for their replies by ``id``; events the unit
pushes (after ``subscribe``) queue up with the time they arrived.
"""

from __future__ import annotations

import base64
import itertools
import queue
import threading
import time
from dataclasses import dataclass
from typing import Any

import serial
import serial.threaded

from .ports import open_port
from .protocol import MAX_REPLY, FrameError, FrameSplitter, encode


class LinkError(RuntimeError):
    """The unit answered with an error, or did not answer."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


@dataclass(frozen=True, slots=True)
class Arrived:
    """An event from the unit and when it arrived (``time.perf_counter()``)."""

    message: dict[str, Any]
    at: float


class _Protocol(serial.threaded.Packetizer):
    """Frames from the port: replies to their waiters, events to the queue."""

    TERMINATOR = b"\n"

    def __init__(self, client: LinkClient) -> None:
        super().__init__()
        self.client = client
        self.splitter = FrameSplitter(MAX_REPLY)

    def data_received(self, data: bytes) -> None:
        for item in self.splitter.feed(data):
            self.client._arrived(item.message, item.error)

    def connection_lost(self, exc: BaseException | None) -> None:
        self.transport = None
        self.client.lost = exc or EOFError("port closed")


class LinkClient:
    """A connection to a unit's link at ``url``."""

    def __init__(self, url: str, timeout: float = 5.0) -> None:
        self.url = url
        self.timeout = timeout
        self.port = open_port(url, write_timeout=timeout)
        #: a write failed (timed out) part way: the next one ends that frame first
        self._cut = False
        self.events: queue.Queue[Arrived] = queue.Queue()
        self.lost: BaseException | None = None
        self.bad_frames: list[FrameError] = []
        self._ids = itertools.count(1)
        self._waiting: dict[int, tuple[threading.Event, list[dict[str, Any]]]] = {}
        self._lock = threading.Lock()
        self.reader = serial.threaded.ReaderThread(self.port, lambda: _Protocol(self))
        self.reader.start()
        self.reader.connect()
        self.write(b"\n")  # ends any partial frame a previous peer left on the unit

    def close(self) -> None:
        if self.reader.alive:
            self.reader.close()

    def __enter__(self) -> LinkClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def write(self, data: bytes) -> None:
        """Raw bytes to the unit (the fuzzer's way in). After a write that failed part
        way a newline goes first, so the unit drops the cut frame, not the next one."""
        try:
            self.reader.write(b"\n" + data if self._cut else data)
        except Exception:
            self._cut = True
            raise
        self._cut = False

    def _arrived(self, message: dict[str, Any] | None, error: FrameError | None) -> None:
        if message is None:
            assert error is not None
            self.bad_frames.append(error)
            return
        if "event" in message:
            self.events.put(Arrived(message, time.perf_counter()))
            return
        request_id = message.get("id")
        with self._lock:
            waiter = self._waiting.get(request_id) if isinstance(request_id, int) else None
        if waiter is not None:
            waiter[1].append(message)
            waiter[0].set()
        else:  # an unsolicited error, or a reply nobody waits for (any more)
            self.events.put(Arrived(message, time.perf_counter()))

    def request(self, op: str, timeout: float | None = None, **fields: Any) -> dict[str, Any]:
        """Send one request; its ``result``, or :class:`LinkError`."""
        request_id = next(self._ids)
        done: tuple[threading.Event, list[dict[str, Any]]] = (threading.Event(), [])
        with self._lock:
            self._waiting[request_id] = done
        try:
            self.write(encode({"id": request_id, "op": op, **fields}))
            if not done[0].wait(self.timeout if timeout is None else timeout):
                why = f" (port lost: {self.lost})" if self.lost else ""
                wait = self.timeout if timeout is None else timeout
                raise LinkError("timeout", f"no reply to {op!r} within {wait} s{why}")
        finally:
            with self._lock:
                self._waiting.pop(request_id, None)
        reply = done[1][0]
        if not reply.get("ok"):
            error = reply.get("error") or {}
            raise LinkError(str(error.get("code")), str(error.get("message")))
        result: dict[str, Any] = reply.get("result") or {}
        return result

    def frame(self, seat: int) -> tuple[bytes, tuple[int, int]]:
        """A seat's 1-bit frame: (bytes as PIL ``Image.frombytes("1", size, …)`` takes
        them, size)."""
        result = self.request("frame", seat=seat)
        return base64.b64decode(result["data"]), (result["width"], result["height"])

    def image(self, seat: int) -> Any:
        # lazy: switch16 --help loads this module (hil's --via choices); PIL only for a picture
        from PIL import Image

        data, size = self.frame(seat)
        return Image.frombytes("1", size, data)

    def drain_events(self) -> list[Arrived]:
        out = []
        while True:
            try:
                out.append(self.events.get_nowait())
            except queue.Empty:
                return out

    def wait_event(self, match: Any, timeout: float) -> Arrived | None:
        """The first queued event for which ``match(message)`` holds, waiting up to
        ``timeout`` s (other events are dropped)."""
        end = time.monotonic() + timeout
        while (left := end - time.monotonic()) > 0:
            try:
                item = self.events.get(timeout=left)
            except queue.Empty:
                return None
            if match(item.message):
                return item
        return None
