"""Defects of the link found in the lab (issue 26), each failing before its fix.

Nothing in the unit's reader dies on input; a lost port is opened again on its own
schedule; a write cut short is ended before the next frame; bad input is logged
rate-limited, counts in a summary.
"""

from __future__ import annotations

import logging
import socket
import threading
import time
import zlib
from typing import Any

import pytest
import serial

from firmware.link import transport
from firmware.link.client import LinkClient
from firmware.link.protocol import MAX_REPLY, FrameSplitter, encode
from firmware.link.pytest_plugin import InProcessUnit


def _framed(body: bytes) -> bytes:
    """``body`` as a frame with a valid CRC-32."""
    return body + b"*" + b"%08x" % zlib.crc32(body) + b"\n"


def test_deep_nesting_with_a_valid_crc_gets_error_json_and_the_reader_lives(
        hil_client: LinkClient) -> None:  # fmt: skip
    """1,500 nested ``[`` (a RecursionError in json) is error ``json``; the next
    request is answered at once (the reader thread did not die)."""
    for body in (b"[" * 1500, b'{"v":1,"id":3,"op":"state","x":' + b"[" * 1500 + b"]" * 1500
                 + b"}"):  # fmt: skip
        hil_client.drain_events()
        hil_client.write(_framed(body))
        got = hil_client.wait_event(lambda m: m.get("ok") is False, 3.0)
        assert got is not None, "no error reply: the reader died"
        assert got.message["error"]["code"] == "json"
        assert "nested more than" in got.message["error"]["message"]
    assert hil_client.request("state", timeout=3)["mode"]


def _reply(conn: socket.socket, message: dict[str, Any], timeout: float = 5.0) -> dict[str, Any]:
    """Send one request on a raw socket until a good frame answers it (a port that
    has just opened drops what came before: pyserial resets its input buffer)."""
    splitter = FrameSplitter(MAX_REPLY)
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        conn.sendall(b"\n" + encode(message))
        conn.settimeout(0.5)
        try:
            while True:
                data = conn.recv(65536)
                assert data, "the unit closed the connection"
                for item in splitter.feed(data):
                    if item.message is not None and item.message.get("id") == message["id"]:
                        return item.message
        except TimeoutError:
            continue
    raise AssertionError(f"no reply to {message} within {timeout} s")


def test_a_reopened_port_is_counted_before_it_serves_a_request(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The keeper counts a reopened port before its reader starts: a ``stats`` request
    that came on it found the count (a busy machine ran the reader first: 0)."""
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(10)
    url = f"socket://127.0.0.1:{listener.getsockname()[1]}"
    unit = InProcessUnit(virtual_clock=True, port=url)
    counted: list[int] = []
    start = serial.threaded.ReaderThread.start

    def started(reader: Any) -> None:
        counted.append(unit.server.counters.reopened)
        start(reader)

    monkeypatch.setattr(serial.threaded.ReaderThread, "start", started)
    try:
        conn, _ = listener.accept()
        conn.close()  # lost: the keeper opens it again
        conn, _ = listener.accept()
        with conn:
            assert _reply(conn, {"id": 1, "op": "hello"})["ok"]
        assert counted[-1] == 1, counted
    finally:
        unit.close()
        listener.close()


def test_a_lost_port_is_opened_again_within_seconds_while_the_loop_sleeps() -> None:
    """The unit serves ``socket://`` (it connects to us); we drop the connection. On a
    virtual clock nothing is ever due, so the loop sleeps: the port must come back on
    its own schedule (every second), not when the loop next wakes."""
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(10)
    url = f"socket://127.0.0.1:{listener.getsockname()[1]}"
    unit = InProcessUnit(virtual_clock=True, port=url)
    try:
        conn, _ = listener.accept()
        with conn:
            assert _reply(conn, {"id": 1, "op": "hello"})["ok"]
        lost = time.monotonic()
        listener.settimeout(6)  # before the fix: not before the loop wakes (never here)
        conn, _ = listener.accept()
        with conn:
            assert time.monotonic() - lost < 6
            assert _reply(conn, {"id": 2, "op": "hello"})["ok"]
            stats = _reply(conn, {"id": 3, "op": "stats"})["result"]
            assert stats["reopened"] == 1
    finally:
        unit.close()
        listener.close()


class _StallingPort:
    """A port whose first write times out half way, as pyserial's does when the peer
    stops reading (``serial.SerialTimeoutException`` after part of the data went)."""

    def __init__(self) -> None:
        self.wire = bytearray()
        self.stall = 1

    def write(self, data: bytes) -> int:
        if self.stall:
            self.stall -= 1
            self.wire += data[: len(data) // 2]
            raise serial.SerialTimeoutException("Write timeout")
        self.wire += data
        return len(data)


def test_a_write_cut_short_is_ended_before_the_next_frame() -> None:
    """Half a reply on the wire, then the next reply: the peer must get the next one
    whole (the cut one is ended by a newline first), not one glued line of both."""
    port = _StallingPort()
    writer = transport.Writer(port)
    writer.start()
    writer.queue.put(encode({"id": 7014, "ok": True, "result": {"a": "x" * 40}}))
    writer.queue.put(encode({"id": 7015, "ok": True, "result": {}}))
    writer.stop()
    writer.join(5)
    got = FrameSplitter(MAX_REPLY).feed(bytes(port.wire))
    assert [r.message["id"] for r in got if r.message is not None] == [7015]
    assert len([r for r in got if r.error is not None]) == 1  # the cut half, dropped


def test_bad_frames_are_logged_rate_limited_with_counts_in_a_summary(caplog: Any) -> None:
    """300 garbage lines: at most LOG_LINES_PER_WINDOW log lines one by one, the rest
    in one summary line with the counts (every bad frame was one INFO line before)."""
    unit = InProcessUnit(test_mode=False)
    try:
        with caplog.at_level(logging.INFO, logger="switch16.link"), LinkClient(unit.url) as c:
            for _ in range(6):
                c.write(b"garbage\n" * 50)
                time.sleep(0.05)  # no flood: every line reaches the loop
            bad = c.request("stats")["bad"]
            unit.server.close()  # the summary of what was held back
        assert bad >= 250
        one_by_one = [r for r in caplog.records if "bad frame #" in r.getMessage()]
        assert len(one_by_one) == transport.LOG_LINES_PER_WINDOW
        summary = [r.getMessage() for r in caplog.records if "not logged" in r.getMessage()]
        assert len(summary) == 1 and f"{bad - transport.LOG_LINES_PER_WINDOW} more" in summary[0]
        assert "framing" in summary[0] and "held back by the rate limit" in summary[0]
    finally:
        unit.close()


def test_the_keeper_stops_with_the_server() -> None:
    unit = InProcessUnit()
    keeper = unit.server.transport.keeper
    assert keeper is not None and keeper.is_alive()
    unit.close()
    keeper.join(3)
    assert not keeper.is_alive()
    assert not [t for t in threading.enumerate() if t.name == "link-keeper" and t is keeper]


def test_the_harness_ends_a_request_cut_short_before_the_next() -> None:
    """The same rule the other way: the client's next request after a write that
    failed part way starts with a newline, so the unit drops only the cut one."""
    port = _StallingPort()
    client = LinkClient.__new__(LinkClient)  # no port: only its write path
    client._cut = False
    client.reader = port  # type: ignore[assignment]
    with pytest.raises(serial.SerialTimeoutException):
        client.write(encode({"id": 1, "op": "transcript"}))
    client.write(encode({"id": 2, "op": "state"}))
    got = FrameSplitter(MAX_REPLY).feed(bytes(port.wire))
    assert [r.message["id"] for r in got if r.message is not None] == [2]


def test_a_press_of_a_button_whose_lift_is_due_but_not_done_waits_for_that_lift(
    tmp_path: Any,
) -> None:
    """A press sent the moment the same button's last press is due to lift, before the
    server's timer has lifted it (a rig pressing as soon as the unit took the last
    press), goes down after that lift: pressed while the finger is still down it would
    be no edge at all, and the press lost."""
    from firmware.link.ops import Ops
    from firmware.link.snapshot import UnitSnapshot
    from firmware.link.target import hil_config
    from firmware.link.transport import Counters
    from firmware.settings import load_unit_config
    from firmware.unit import Unit
    from hal.clock import VirtualClock
    from hal.events import ButtonDown
    from hal.testing import mock_pi_hal

    settings = load_unit_config(hil_config(tmp_path))
    clock = VirtualClock()
    timers: list[tuple[float, Any]] = []
    with mock_pi_hal(settings.hardware, clock=clock) as pi:  # type: ignore[arg-type]
        unit = Unit.from_settings(pi.hal, settings.game, state_dir=tmp_path / "state", seed=1)
        ops = Ops(unit, UnitSnapshot(unit), Counters(), lambda at, call: timers.append((at, call)),
                  test_mode=True, config_hash="")  # fmt: skip
        press = {"seat": 0, "button": "chip", "ms": 60}
        ops.answer("press", press)
        clock.set(timers[0][0])  # its lift is due; the server's timers have not run yet
        assert ops.answer("press", press)["delay"] > 0
        while timers:  # the server's timers in time order, the debouncers polled between
            timers.sort(key=lambda timer: timer[0])
            at, call = timers.pop(0)
            clock.set(max(at, clock.now()))
            pi.hal.poll()
            call()
        clock.set(clock.now() + 1.0)
        pi.hal.poll()
        assert sum(isinstance(event, ButtonDown) for event in pi.hal.events.drain()) == 2
        unit.close(close_hal=False)
