"""The unit's end of the link: a pyserial port served on the unit's loop thread.

A :class:`serial.threaded.ReaderThread` splits the bytes into frames and only queues
them (as :class:`LinkReceived` events on the HAL's queue, like a button callback); the
loop thread answers them (:meth:`LinkServer.dispatch`) and hands the replies to a
writer thread through a bounded queue, so a slow or vanished peer never blocks the
game. The link is a client of :class:`~firmware.unit.loop.Unit` (an extension, plus
``on_commit``/``on_frame`` listeners): nothing it receives reaches the engine except
test-mode input, which goes through the HAL like a finger.
"""

from __future__ import annotations

import hashlib
import heapq
import logging
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hal.events import Event

from .ops import READ_OPS, TEST_OPS, Ops, RequestError, cut, short
from .protocol import FrameError, encode
from .snapshot import UnitSnapshot, encode_image
from .transport import Counters, QuietLog, Transport

if TYPE_CHECKING:
    from firmware.unit import Unit

log = logging.getLogger("switch16.link")

#: Frames waiting for the loop at most; more are dropped (a flood) and counted.
MAX_PENDING = 64
#: Error replies per second at most (a garbage flood is counted, not answered).
ERROR_REPLIES_PER_S = 20
#: Request ids are JSON-safe integers: 0 … 2^53 - 1.
MAX_ID = 2**53 - 1


@dataclass(frozen=True, slots=True)
class LinkReceived(Event):
    """A frame from the link (or why one was dropped), queued by the reader thread."""

    message: dict[str, Any] | None
    error: FrameError | None = None


def config_hash(source: Path | None) -> str:
    """sha256 of the config file the unit runs (of ``"reference"`` without one)."""
    try:
        data = source.read_bytes() if source is not None else b"reference"
    except OSError:
        data = b"unreadable"
    return hashlib.sha256(data).hexdigest()[:16]


class LinkServer:
    """Serve ``url`` for ``unit``: :meth:`open`, then the unit's loop does the rest.
    Its rooms: :class:`~.transport.Transport` (the port and its threads),
    :class:`~.ops.Ops` (the op handlers), :class:`~.snapshot.UnitSnapshot` (what it
    reports of the unit)."""

    def __init__(self, unit: Unit, url: str, *, test_mode: bool = False,
                 config_source: Path | None = None) -> None:  # fmt: skip
        self.unit = unit
        self.url = url
        self.test_mode = test_mode
        self.counters = Counters()
        self._quiet = QuietLog()
        self.transport = Transport(url, self._queue, self.counters, self._quiet)
        self.snapshot = UnitSnapshot(unit)
        self.ops = Ops(unit, self.snapshot, self.counters, self._later, test_mode=test_mode,
                       config_hash=config_hash(config_source))  # fmt: skip
        self._pending = 0
        self._lock = threading.Lock()
        self._errors_window = (0.0, 0)  # (second started, error replies in it)
        #: (at, order, callable): test input, a heap
        self._timed: list[tuple[float, int, Any]] = []
        self._order = 0
        self._phase: tuple[str, int | None] | None = None
        #: Events of committed actions, sent once they are on disk (:meth:`_report_saved`).
        self._unsaved: list[dict[str, Any]] = []
        unit.extensions.append(self)
        unit.on_commit.append(self._committed)
        unit.on_frame.append(self._frame_shown)

    # ------------------------------------------------------------------ port
    def open(self) -> None:
        """Open the port (raises if it cannot), and keep it open."""
        if self.test_mode:
            log.warning("link: TEST MODE on %s: the link can press buttons, shake and "
                        "force dice. Never on a table where people play.", self.url)  # fmt: skip
        else:
            log.info("link: serving %s (read-only; test mode off)", self.url)
        self.transport.open()

    def close(self) -> None:
        """Close the port for good (the keeper stops); the log's held-back counts."""
        self.transport.close()

    def schedule_reopen(self) -> None:
        """Open the port later (it was not there at start-up)."""
        self.transport.schedule_reopen()

    # -------------------------------------------------- reader thread -> loop
    def _queue(self, message: dict[str, Any] | None, error: FrameError | None) -> None:
        with self._lock:
            if self._pending >= MAX_PENDING:
                self.counters.dropped += 1
                if self.counters.dropped in (1, 10, 100) or self.counters.dropped % 1000 == 0:
                    log.warning("link: flood: %d frames dropped so far (more than %d "
                                "waiting)", self.counters.dropped, MAX_PENDING)  # fmt: skip
                return
            self._pending += 1
        self.unit.hal.events.put(LinkReceived(self.unit.clock.now(), message, error))

    # ----------------------------------------------------- loop: Extension
    def dispatch(self, event: Event) -> bool:
        if not isinstance(event, LinkReceived):
            return False
        with self._lock:
            self._pending -= 1
        if event.error is not None:
            self.counters.bad += 1
            code = event.error.code
            self.counters.by_code[code] = self.counters.by_code.get(code, 0) + 1
            self._quiet.info(code, f"bad frame #{self.counters.bad} ({code}): {event.error}")
            self._error(None, code, str(event.error))
            return True
        assert event.message is not None
        self.counters.received += 1
        self._report_saved()  # a reply reflects only actions on disk, after their events
        self._request(event.message)
        return True

    def next_deadline(self) -> float | None:
        if self._unsaved:
            return self.unit.clock.now()
        return self._timed[0][0] if self._timed else None

    def poll(self, now: float) -> None:
        while self._timed and self._timed[0][0] <= now:
            _, _, call = heapq.heappop(self._timed)
            try:
                call()
            except Exception:  # a test finger that fails: logged, the unit goes on
                log.exception("link: a timed test input failed")
        self._report_saved()

    def _report_saved(self) -> None:
        """Wait until the journal has every committed action on disk, as a display
        does before it shows one (:meth:`~firmware.unit.loop.Unit.saved`), then send
        their events."""
        self.unit.saved()
        unsaved, self._unsaved = self._unsaved, []
        for message in unsaved:
            self.send(message)

    def _later(self, at: float, call: Any) -> None:
        self._order += 1
        heapq.heappush(self._timed, (at, self._order, call))

    # ----------------------------------------------------------- replies
    def send(self, message: dict[str, Any]) -> None:
        """Queue one frame for the writer (dropped and counted when it is full)."""
        self.transport.write(encode(message))

    def _error(self, request_id: Any, code: str, message: str) -> None:
        second, count = self._errors_window
        now = time.monotonic()
        if now - second >= 1.0:
            second, count = now, 0
        if count >= ERROR_REPLIES_PER_S:
            self.counters.unanswered += 1
            self._quiet.unanswered += 1
            self._errors_window = (second, count)
            return
        self._errors_window = (second, count + 1)
        self.send({"id": request_id, "ok": False, "error": {"code": code, "message": message}})

    def _request(self, message: dict[str, Any]) -> None:
        """Checks in the order docs/LINK.md gives: id, op, the op known, test mode,
        then the op's fields; a request failing one is answered and not executed."""
        request_id = message.get("id")
        if type(request_id) is not int or not 0 <= request_id <= MAX_ID:
            what = "is missing" if "id" not in message else f"is {short(request_id)}"
            self._reject(None, "bad_field", f"field 'id' {what}; it must be an integer "
                         "0…2^53-1 (nothing done)")  # fmt: skip
            return
        op = message.get("op")
        if not isinstance(op, str):
            what = "is missing" if "op" not in message else f"is {short(op)}"
            self._reject(request_id, "bad_field", f"field 'op' {what}; it must be a string")
            return
        if op not in READ_OPS and op not in TEST_OPS:
            self._reject(request_id, "unknown_op", f"unknown op {op[:40]!r} (one of "
                         f"{', '.join(READ_OPS + TEST_OPS)})")  # fmt: skip
            return
        if op in TEST_OPS and not self.test_mode:
            self._reject(request_id, "not_test_mode", f"op {op!r} needs [link] test_mode = "
                         "true; this unit is not in test mode and changed nothing")  # fmt: skip
            return
        try:
            result = self.ops.answer(op, message)
        except RequestError as exc:
            self._reject(request_id, exc.code, str(exc))
            return
        except Exception as exc:  # a defect: answered and logged, the unit goes on
            log.exception("link: op %r (request %d) failed", op, request_id)
            self._reject(request_id, "internal", f"op {op!r} failed: {type(exc).__name__}: "
                         f"{cut(exc)}; nothing more was done")  # fmt: skip
            return
        self.send({"id": request_id, "ok": True, "result": result})

    def _reject(self, request_id: Any, code: str, message: str) -> None:
        self.counters.rejected += 1
        self.counters.by_code[code] = self.counters.by_code.get(code, 0) + 1
        self._quiet.info(code, f"rejected ({code}): {message}")
        self._error(request_id, code, message)

    # ------------------------------------------------------------ events
    def _committed(self, action: Any, state: Any) -> None:
        """An action committed (its journal sync running): its events wait until it
        is on disk (:meth:`_report_saved`, after the loop's refresh)."""
        self.snapshot.committed(action, state)
        subscribed = self.ops.subscribed
        phase = self._phase_of(state)
        if "action" in subscribed:
            self._unsaved.append({"event": "action",
                                  "action": self.unit.game.action_to_json(action),
                                  "actions": self.snapshot.actions(), "phase": phase[0],
                                  "turn": phase[1]})  # fmt: skip
        if phase != self._phase:
            self._phase = phase
            if "phase" in subscribed:
                self._unsaved.append({"event": "phase", "phase": phase[0], "turn": phase[1]})

    def _phase_of(self, state: Any) -> tuple[str, int | None]:
        """(phase, turn) of a position: its JSON's where the game has phases (Switch 16),
        else "play" or "over" and the seat the game waits for."""
        obj = state.to_json()
        if "phase" in obj:
            return obj["phase"], obj.get("turn")
        return ("over" if state.game_over else "play"), self.unit.game.waiting_seat(state)

    def _frame_shown(self, seat: int, image: Any) -> None:
        self._report_saved()  # the events of what it shows first (on disk: it waited)
        self.snapshot.frame_shown(seat, image)
        if "frame" in self.ops.subscribed:
            encoded = encode_image(image)
            self.send({"event": "frame", "seat": seat, "frames": self.unit.frames,
                       "crc": encoded["crc"]})  # fmt: skip
