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

import base64
import contextlib
import hashlib
import logging
import queue
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from firmware import package_version
from firmware.engine import SWITCH_DIE, Action, Roll, State
from firmware.engine.actions import Face
from firmware.engine.notation import action_to_json
from firmware.engine.seats import seat_name
from firmware.transcript import header_line
from hal.events import Button, Event

from .fingers import Fingers
from .ports import open_port
from .protocol import MAX_REQUEST, PROTOCOL_VERSION, FrameError, FrameSplitter, crc, encode

if TYPE_CHECKING:
    from firmware.unit import Unit

log = logging.getLogger("switch16.link")

#: Frames waiting for the loop at most; more are dropped (a flood) and counted.
MAX_PENDING = 64
#: Replies waiting for the writer at most; more are dropped (a peer that stopped reading).
MAX_OUTGOING = 256
#: Error replies per second at most (a garbage flood is counted, not answered).
ERROR_REPLIES_PER_S = 20
#: A port that closed (cable out, gadget unplugged) is opened again after this long,
#: and again every this long until it opens (a thread's schedule, not the loop's).
REOPEN_AFTER_S = 1.0
#: A write the peer does not take within this long fails (the frame is ended later).
WRITE_TIMEOUT_S = 2.0
#: Bad frames and refused requests logged one by one at most per :data:`LOG_WINDOW_S`;
#: the rest are counted and summed up in one line when the window ends.
LOG_LINES_PER_WINDOW = 10
LOG_WINDOW_S = 60.0
#: Request ids are JSON-safe integers: 0 … 2^53 - 1.
MAX_ID = 2**53 - 1
#: Events a subscription may ask for.
EVENT_KINDS = ("action", "phase", "frame")
#: Operations answered whatever the mode, and those that need ``test_mode``.
READ_OPS = ("hello", "state", "frame", "ui", "transcript", "subscribe", "stats")
TEST_OPS = ("press", "hold", "release", "shake", "dice", "advance", "newgame")
#: Longest press, hold or shake a test may ask for (ms).
MAX_MS = 60_000


@dataclass(frozen=True, slots=True)
class LinkReceived(Event):
    """A frame from the link (or why one was dropped), queued by the reader thread."""

    message: dict[str, Any] | None
    error: FrameError | None = None


class RequestError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass
class Counters:
    received: int = 0  #: good frames
    bad: int = 0  #: frames that could not be read
    dropped: int = 0  #: frames dropped because the loop had too many waiting
    unanswered: int = 0  #: bad frames not answered (error replies rate-limited)
    rejected: int = 0  #: good frames answered with an error
    sent: int = 0
    send_dropped: int = 0  #: replies dropped because the writer was full
    reopened: int = 0
    by_code: dict[str, int] = field(default_factory=dict)


class _QuietLog:
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


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:40] + "…"


def config_hash(source: Path | None) -> str:
    """sha256 of the config file the unit runs (of ``"reference"`` without one)."""
    try:
        data = source.read_bytes() if source is not None else b"reference"
    except OSError:
        data = b"unreadable"
    return hashlib.sha256(data).hexdigest()[:16]


def encode_image(image: Any) -> dict[str, Any]:
    """A 1-bit image for the wire: rows top to bottom, 8 pixels a byte, MSB leftmost."""
    mono = image if image.mode == "1" else image.convert("1")
    width, height = mono.size
    data = mono.tobytes()
    return {"width": width, "height": height, "encoding": "1bpp-rows-msb",
            "data": base64.b64encode(data).decode("ascii"),
            "crc": crc(data)}  # fmt: skip


class _Receiver:
    """The reader thread's protocol (:class:`serial.threaded.Protocol`): split, queue."""

    def __init__(self, server: LinkServer) -> None:
        self.server = server
        self.splitter = FrameSplitter(MAX_REQUEST)

    def connection_made(self, transport: Any) -> None:
        log.info("link: %s open", self.server.url)

    def data_received(self, data: bytes) -> None:
        try:
            items = self.splitter.feed(data)
        except Exception:  # never on input (protocol.py is total); the reader lives on
            log.exception("link: reader: %d bytes dropped", len(data))
            self.splitter = FrameSplitter(MAX_REQUEST)
            return
        for item in items:
            self.server._queue(item.message, item.error)

    def connection_lost(self, exc: BaseException | None) -> None:
        if exc is not None:
            log.warning("link: %s lost: %s", self.server.url, exc)
        self.server._lost.set()


class _Writer(threading.Thread):
    """Writes queued frames to the port; the loop only ever ``put_nowait``s."""

    def __init__(self, port: Any) -> None:
        super().__init__(name="link-writer", daemon=True)
        self.port = port
        self.queue: queue.Queue[bytes | None] = queue.Queue(MAX_OUTGOING)

    def run(self) -> None:
        cut = False  # the last write failed part way: a frame on the wire is not ended
        while (data := self.queue.get()) is not None:
            try:
                # a newline first ends the cut frame: the peer drops it, not this one
                self.port.write(b"\n" + data if cut else data)
                cut = False
            except Exception as exc:  # a write timeout, a port that went away
                cut = True
                log.warning("link: write failed: %s", exc)

    def stop(self) -> None:
        with contextlib.suppress(queue.Full):
            self.queue.put_nowait(None)


class LinkServer:
    """Serve ``url`` for ``unit``: :meth:`open`, then the unit's loop does the rest."""

    def __init__(self, unit: Unit, url: str, *, test_mode: bool = False,
                 config_source: Path | None = None) -> None:  # fmt: skip
        self.unit = unit
        self.url = url
        self.test_mode = test_mode
        self.config_hash = config_hash(config_source)
        self.counters = Counters()
        self.fingers = Fingers(unit.hal)
        self.subscribed: set[str] = set()
        self._pending = 0
        self._lock = threading.Lock()
        self._port: Any = None
        self._reader: Any = None
        self._writer: _Writer | None = None
        self._lost = threading.Event()  #: the reader stopped: the keeper reopens
        self._closing = threading.Event()
        self._keeper: threading.Thread | None = None
        self._errors_window = (0.0, 0)  # (second started, error replies in it)
        self._quiet = _QuietLog()
        self._timed: list[tuple[float, int, Any]] = []  # (at, order, callable): test input
        self._order = 0
        self._phase: tuple[str, int] | None = None
        self._frames: dict[int, Any] = {}
        self._game: tuple[Any, list[str]] = (None, [])
        self._advancing = False
        #: (seat, button) -> when the finger of the last ``press`` lifts (unit clock)
        self._lifts: dict[tuple[int, Button], float] = {}
        unit.extensions.append(self)
        unit.on_commit.append(self._committed)
        unit.on_frame.append(self._frame_shown)

    # ------------------------------------------------------------------ port
    def open(self) -> None:
        """Open the port and start the reader and writer (raises if it cannot open),
        and the keeper thread that opens it again whenever it goes away."""
        if self.test_mode:
            log.warning("link: TEST MODE on %s: the link can press buttons, shake and "
                        "force dice. Never on a table where people play.", self.url)  # fmt: skip
        else:
            log.info("link: serving %s (read-only; test mode off)", self.url)
        self._closing.clear()
        self._open_port()
        self._keep()

    def _open_port(self) -> None:
        import serial.threaded

        port = open_port(self.url, write_timeout=WRITE_TIMEOUT_S)
        self._lost.clear()
        self._port = port
        self._writer = _Writer(port)
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
        self._lost.set()  # wakes the keeper, which sees _closing and returns
        self._close_port()
        self._quiet.flush(force=True)

    def schedule_reopen(self) -> None:
        """Open the port later (it was not there at start-up): every
        :data:`REOPEN_AFTER_S` until it opens."""
        self._closing.clear()
        self._lost.set()
        self._keep()

    def _keep(self) -> None:
        if self._keeper is None or not self._keeper.is_alive():
            self._keeper = threading.Thread(target=self._keeper_run, name="link-keeper",
                                            daemon=True)  # fmt: skip
            self._keeper.start()

    def _keeper_run(self) -> None:
        """Reopen a lost port on this thread's own schedule (the loop may sleep for a
        minute, or for ever on a virtual clock), and sum up the held-back log lines."""
        while not self._closing.is_set():
            if not self._lost.wait(LOG_WINDOW_S):
                self._quiet.flush()
                continue
            if self._closing.is_set():
                return
            self._close_port()
            while not self._closing.wait(REOPEN_AFTER_S):
                try:
                    self._open_port()
                except Exception as exc:
                    log.debug("link: reopen %s: %s", self.url, exc)
                    continue
                if self._closing.is_set():  # closed for good while it was opening
                    self._close_port()
                    return
                with self._lock:
                    self.counters.reopened += 1
                log.info("link: %s open again", self.url)
                break

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
        self._request(event.message)
        return True

    def next_deadline(self) -> float | None:
        return min(at for at, _, _ in self._timed) if self._timed else None

    def poll(self, now: float) -> None:
        while self._timed and self._timed[0][0] <= now:
            _, _, call = self._timed.pop(0)
            call()

    def _later(self, at: float, call: Any) -> None:
        self._order += 1
        self._timed.append((at, self._order, call))
        self._timed.sort(key=lambda item: item[:2])

    # ----------------------------------------------------------- replies
    def send(self, message: dict[str, Any]) -> None:
        """Queue one frame for the writer (dropped and counted when it is full)."""
        writer = self._writer
        if writer is None:
            self.counters.send_dropped += 1
            return
        try:
            writer.queue.put_nowait(encode(message))
            self.counters.sent += 1
        except queue.Full:
            self.counters.send_dropped += 1
            if self.counters.send_dropped in (1, 10, 100) or self.counters.send_dropped % 1000 == 0:
                log.warning("link: the peer is not reading: %d frames dropped",
                            self.counters.send_dropped)  # fmt: skip

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
            what = "is missing" if "id" not in message else f"is {_short(request_id)}"
            self._reject(None, "bad_field", f"field 'id' {what}; it must be an integer "
                         "0…2^53-1 (nothing done)")  # fmt: skip
            return
        op = message.get("op")
        if not isinstance(op, str):
            what = "is missing" if "op" not in message else f"is {_short(op)}"
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
            result = getattr(self, f"_op_{op}")(_Args(message))
        except RequestError as exc:
            self._reject(request_id, exc.code, str(exc))
            return
        self.send({"id": request_id, "ok": True, "result": result})

    def _reject(self, request_id: Any, code: str, message: str) -> None:
        self.counters.rejected += 1
        self.counters.by_code[code] = self.counters.by_code.get(code, 0) + 1
        self._quiet.info(code, f"rejected ({code}): {message}")
        self._error(request_id, code, message)

    # ------------------------------------------------------------ read ops
    def _op_hello(self, args: _Args) -> dict[str, Any]:
        args.done()
        clock = "virtual" if hasattr(self.unit.clock, "set") else "real"
        return {"protocol": PROTOCOL_VERSION, "firmware": package_version(),
                "config_hash": self.config_hash, "seats": len(self.unit.hal.seats),
                "test_mode": self.test_mode, "clock": clock, "input": self.fingers.path,
                "max_request": MAX_REQUEST}  # fmt: skip

    def _transcript(self) -> tuple[list[str], int]:
        """The open (or last) game's transcript lines and how many of them the state
        the unit plays reflects (a round's roll-off is journaled before it is shown)."""
        header, lines = self.unit.journal.open_game
        if header is None:
            header, lines = self._game
        out = [] if header is None else [header_line(header), *lines]
        return out, len(out) - (1 if out and self.unit.round_ahead else 0)

    def _actions(self) -> int:
        """The actions of the game the state shows: its transcript's action lines."""
        return max(0, self._transcript()[1] - 1)

    def _op_state(self, args: _Args) -> dict[str, Any]:
        args.done()
        st = self.unit.state
        ctl = self.unit.controller
        return {"state": None if st is None else st.to_json(), "mode": ctl.mode.value,
                "kinds": list(ctl.kinds), "actions": self._actions(),
                "frames": self.unit.frames, "finished": self.unit.finished,
                "time": self.unit.clock.now()}  # fmt: skip

    def _op_frame(self, args: _Args) -> dict[str, Any]:
        seat = args.seat(len(self.unit.hal.seats))
        args.done()
        glass = getattr(self.unit.hal, "glass", None)
        image = glass(seat) if glass is not None else self._frames.get(seat)
        if image is None:
            raise RequestError("no_frame", f"{seat_name(seat)} has shown no frame yet")
        return {"seat": seat, "source": "glass" if glass is not None else "sent",
                **encode_image(image)}  # fmt: skip

    def _op_ui(self, args: _Args) -> dict[str, Any]:
        """The unit's UI state (what :func:`firmware.unit.views.seat_view` reads besides
        the engine state), the journal lines that state reflects, and with ``glass``
        every seat's frame, all from one moment of the loop: enough for a harness to
        render each seat itself and compare with the glass."""
        with_glass = args.get("glass", bool, False)
        args.done()
        unit, ctl = self.unit, self.unit.controller
        reflected = self._transcript()[1]
        ui = ctl.ui().to_json()
        out: dict[str, Any] = {
            "mode": ui.pop("mode"), "kinds": ui.pop("kinds"), "actions": max(0, reflected - 1),
            "frames": unit.frames, "pending": unit.refresh_pending,
            "saving": unit.journal.saving, "lines": reflected, **ui,
            "sent": [None if (im := self._frames.get(s)) is None else encode_image(im)["crc"]
                     for s in range(len(unit.hal.seats))],
        }  # fmt: skip
        if with_glass:
            out["glass"] = [self._op_frame(_Args({"seat": s}))
                            for s in range(len(unit.hal.seats))]  # fmt: skip
        return out

    def _op_transcript(self, args: _Args) -> dict[str, Any]:
        args.done()
        return {"lines": self._transcript()[0]}

    def _op_subscribe(self, args: _Args) -> dict[str, Any]:
        kinds = args.get("events", list, list(EVENT_KINDS))
        unknown = [k for k in kinds if k not in EVENT_KINDS]
        if unknown:
            raise RequestError("bad_field", f"field 'events': unknown {unknown!r} (of "
                               f"{', '.join(EVENT_KINDS)})")  # fmt: skip
        args.done()
        self.subscribed = set(kinds)
        return {"events": sorted(self.subscribed)}

    def _op_stats(self, args: _Args) -> dict[str, Any]:
        args.done()
        c = self.counters
        return {"received": c.received, "bad": c.bad, "dropped": c.dropped,
                "unanswered": c.unanswered, "rejected": c.rejected, "sent": c.sent,
                "send_dropped": c.send_dropped, "reopened": c.reopened,
                "by_code": dict(c.by_code)}  # fmt: skip

    # ------------------------------------------------------------ test ops
    def _op_press(self, args: _Args) -> dict[str, Any]:
        seat, button = args.seat(len(self.unit.hal.seats)), args.button()
        ms = args.number("ms", 80, 1, MAX_MS)
        args.done()
        now = self.unit.clock.now()
        lifts = self._lifts.get((seat, button))
        if lifts is not None and lifts > now:
            # the finger of the previous press is still down: a finger lifts before it
            # presses again, so this press goes down a debounce time after that one lifts
            down = lifts + 2 * self._debounce()
            self._later(down, lambda: self.fingers.button(seat, button, True))
        else:
            down = now
            self.fingers.button(seat, button, True)
        self._lifts[seat, button] = down + ms / 1000
        self._later(down + ms / 1000, lambda: self.fingers.button(seat, button, False))
        return {"seat": seat, "button": button.value, "ms": ms, "delay": round(down - now, 4)}

    def _debounce(self) -> float:
        timing = getattr(getattr(self.unit.hal, "config", None), "timing", None)
        return float(getattr(timing, "debounce_s", 0.03))

    def _op_hold(self, args: _Args) -> dict[str, Any]:
        seat, button = args.seat(len(self.unit.hal.seats)), args.button()
        args.done()
        self.fingers.button(seat, button, True)
        return {"seat": seat, "button": button.value}

    def _op_release(self, args: _Args) -> dict[str, Any]:
        seat, button = args.seat(len(self.unit.hal.seats)), args.button()
        args.done()
        self.fingers.button(seat, button, False)
        return {"seat": seat, "button": button.value}

    def _op_shake(self, args: _Args) -> dict[str, Any]:
        ms = args.number("ms", 500, 1, MAX_MS)
        args.done()
        now = self.unit.clock.now()
        edges = max(1, int(ms // 20))
        for i in range(edges):
            self._later(now + i * 0.02, self.fingers.shake_edge)
        return {"ms": ms, "edges": edges}

    def _op_dice(self, args: _Args) -> dict[str, Any]:
        rolls = args.get("rolls", list)
        parsed: list[Roll] = []
        for i, item in enumerate(rolls):
            if not isinstance(item, dict):
                raise RequestError("bad_field", f"rolls[{i}] must be an object")
            dice, face = item.get("dice"), item.get("switch")
            if not isinstance(dice, list) or not 1 <= len(dice) <= 6 or not all(
                    isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6
                    for d in dice):  # fmt: skip
                raise RequestError("bad_field", f"rolls[{i}].dice must be 1–6 dice of 1–6")
            faces = sorted({f.value for f in SWITCH_DIE})
            if face not in faces:
                raise RequestError("bad_field", f"rolls[{i}].switch must be one of {faces}")
            parsed.append(Roll(tuple(dice), Face(face)))
        if len(parsed) + len(self.unit.forced_rolls) > 1000:
            raise RequestError("bad_field", "at most 1000 forced rolls may wait")
        args.done()
        self.unit.forced_rolls.extend(parsed)
        return {"queued": len(self.unit.forced_rolls)}

    def _op_advance(self, args: _Args) -> dict[str, Any]:
        """``seconds`` of virtual time; with ``next``, only up to the unit's next
        deadline (the next thing it does by itself), at most ``seconds``."""
        seconds = args.number("seconds", None, 0, 86_400)
        to_next = args.get("next", bool, False)
        args.done()
        if not hasattr(self.unit.clock, "set"):
            raise RequestError("real_clock", "this unit runs on a real clock: nothing to advance")
        if self._advancing:
            raise RequestError("busy", "already advancing the clock")
        self._advancing = True
        try:
            due = self.unit.next_deadline() if to_next else None
            if due is not None:
                seconds = min(seconds, max(0.001, due - self.unit.clock.now()))
            self.unit.run_for(seconds)
        finally:
            self._advancing = False
        return {"time": self.unit.clock.now()}

    def _op_newgame(self, args: _Args) -> dict[str, Any]:
        from firmware.engine import RulesError, make_rules
        from firmware.unit.setup import SEAT_KINDS, GameSetup

        seats = args.get("seats", list)
        if not 2 <= len(seats) <= len(self.unit.hal.seats) or not all(
                k in SEAT_KINDS for k in seats):  # fmt: skip
            raise RequestError("bad_field", f"field 'seats': 2–{len(self.unit.hal.seats)} of "
                               f"{', '.join(SEAT_KINDS)}")  # fmt: skip
        rules = args.get("rules", str, self.unit.controller.defaults.preset)
        try:
            make_rules(rules)
        except RulesError as exc:
            raise RequestError("bad_field", f"field 'rules': {exc}") from None
        points = args.get("points", bool, False)
        first = args.get("first", int, None)
        if first is not None and not 0 <= first < len(seats):
            raise RequestError("bad_field", f"field 'first' must be 0…{len(seats) - 1}")
        args.done()
        self.unit.controller.preset = GameSetup.of(list(seats), rules, points)
        self.unit.forced_first = first
        self.unit.new_game()
        out = {"seats": seats, "rules": rules, "points": points}
        return out if first is None else {**out, "first": first}

    # ------------------------------------------------------------ events
    def _committed(self, action: Action, state: State) -> None:
        self._game = self.unit.journal.open_game
        if "action" in self.subscribed:
            self.send({"event": "action", "action": action_to_json(action),
                       "actions": self._actions(), "phase": state.phase.value,
                       "turn": state.turn})  # fmt: skip
        phase = (state.phase.value, state.turn)
        if phase != self._phase:
            self._phase = phase
            if "phase" in self.subscribed:
                self.send({"event": "phase", "phase": phase[0], "turn": phase[1]})

    def _frame_shown(self, seat: int, image: Any) -> None:
        self._frames[seat] = image
        if "frame" in self.subscribed:
            encoded = encode_image(image)
            self.send({"event": "frame", "seat": seat, "frames": self.unit.frames,
                       "crc": encoded["crc"]})  # fmt: skip


class _Args:
    """A request's fields, checked one by one; :meth:`done` names any left over."""

    def __init__(self, message: dict[str, Any]) -> None:
        self.message = message
        self.used = {"v", "id", "op"}

    def get(self, name: str, kind: type, default: Any = ...) -> Any:
        self.used.add(name)
        if name not in self.message:
            if default is ...:
                raise RequestError("bad_field", f"field {name!r} is missing")
            return default
        value = self.message[name]
        if not isinstance(value, kind) or (kind is not bool and isinstance(value, bool)):
            raise RequestError("bad_field", f"field {name!r} must be {kind.__name__}, not "
                               f"{type(value).__name__}")  # fmt: skip
        return value

    def number(self, name: str, default: Any, low: float, high: float) -> float:
        self.used.add(name)
        value = self.message.get(name, default)
        if value is None or isinstance(value, bool) or not isinstance(value, int | float):
            raise RequestError("bad_field", f"field {name!r} must be a number")
        if not low <= value <= high:
            raise RequestError("bad_field", f"field {name!r} must be {low}…{high}, not {value}")
        return float(value)

    def seat(self, seats: int) -> int:
        seat = self.get("seat", int)
        if not 0 <= seat < seats:
            raise RequestError("bad_field", f"field 'seat' must be 0…{seats - 1}, not {seat}")
        return int(seat)

    def button(self) -> Button:
        name = self.get("button", str)
        try:
            return Button(name)
        except ValueError:
            names = ", ".join(b.value for b in Button)
            raise RequestError(
                "bad_field", f"field 'button' must be one of {names}, not {name[:20]!r}"
            ) from None

    def done(self) -> None:
        extra = sorted(set(self.message) - self.used)
        if extra:
            raise RequestError("bad_field", f"unknown field(s) {', '.join(map(repr, extra[:5]))}")
