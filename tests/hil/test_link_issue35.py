"""Defects of the link found by a hostile rig (issue 35), each failing before its fix:
no frame of any content ends the unit, a frame is written whole or not at all, the
link reports an action only once it is on disk, a request schedules boundedly, and a
cable closes at once."""

from __future__ import annotations

import socket
import threading
from typing import Any

import pytest

from firmware.link import transport
from firmware.link.cable import PtyPair, TcpBridge
from firmware.link.client import LinkClient, LinkError
from firmware.link.harness import Harness
from firmware.link.press_play import play_by_presses
from firmware.link.protocol import (
    MAX_DEPTH,
    MAX_REPLY,
    MAX_REQUEST,
    FrameError,
    FrameSplitter,
    decode,
    encode,
)
from firmware.link.pytest_plugin import InProcessUnit
from firmware.link.target import MockTarget
from firmware.unit import journal
from tools.link_fuzz import deep_frame


def _bridge_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith("tcp-bridge")]


def test_closing_a_tcp_bridge_ends_its_threads() -> None:
    """``close()`` wakes the thread blocked in ``accept()`` (closing the socket alone
    does not, on Linux) and the one serving a client: none is left once it returns."""
    before = set(_bridge_threads())
    with PtyPair() as pair:
        idle = TcpBridge(pair.ends[1])
        idle.close()
        assert set(_bridge_threads()) <= before, "close() left the accept() thread behind"
        serving = TcpBridge(pair.ends[1])
        with socket.create_connection(("127.0.0.1", serving.port)) as conn:
            conn.sendall(b"x")
            while serving.clients == 0:  # the bridge took the client
                threading.Event().wait(0.01)
            serving.close()
            assert set(_bridge_threads()) <= before, "close() left a client's threads behind"


def test_shake_requests_schedule_one_timer_each_and_the_loop_answers() -> None:
    """Ten 60 s shakes back to back: each request waits as one timer (its edges are
    scheduled one after the other), not 3,000 (re-sorted per edge: minutes of a frozen
    loop before); ``state`` is answered; the edges all come as the clock moves."""
    unit = InProcessUnit(virtual_clock=True)
    try:
        with LinkClient(unit.url, timeout=10) as client:
            edges: list[int] = []
            unit.server.ops.fingers.shake_edge = lambda: edges.append(1)  # type: ignore[method-assign]
            for _ in range(10):
                assert client.request("shake", ms=60_000)["edges"] == 3000
            assert client.request("state")["mode"]
            assert len(unit.server._timed) <= 10
            client.request("advance", seconds=0.51)
            assert len(edges) == 10 * 26  # 0, 20, …, 500 ms of each shake
            assert len(unit.server._timed) == 10
    finally:
        unit.close()


def _deep_frame(op: str, field: str, depth: int, kind: str = "[") -> bytes:
    """A request of ``op`` whose ``field`` nests ``depth`` deep (valid CRC)."""
    return deep_frame(op, field, depth, kind, 7)


#: The op whose own field each nested field is (any other field: ``state``'s unknown one).
_OP_OF = {"events": "subscribe", "seats": "newgame", "rolls": "dice"}


def test_no_deeply_nested_frame_ends_a_unit_process() -> None:
    """``switch16 run``: a frame under the size limit whose ``id``, ``op``, ``events``
    or ``seats`` nests 980–992 deep (986 ended the process before: json parsed it, the
    error message's ``repr`` ran out of stack). After each the unit answers; every one
    was refused as ``json`` (the depth is checked before parsing)."""
    with MockTarget("pty") as target:
        client = target.connect()
        sent = 0
        for field in ("id", "op", "events", "seats"):
            for depth in range(980, 993):
                client.write(_deep_frame(_OP_OF.get(field, "state"), field, depth))
                sent += 1
                assert client.request("state")["mode"], f"{field} {depth} deep"
                assert target.proc is not None and target.proc.poll() is None
        assert client.request("stats")["by_code"]["json"] == sent


@pytest.mark.parametrize("field", ["id", "op", "events", "seats", "rolls", "x"])
def test_a_frame_nested_past_the_limit_is_refused_naming_it(field: str) -> None:
    """Any field nested deeper than :data:`MAX_DEPTH` (in lists or objects) is refused
    as ``json``, the message naming the limit; the unit's position is unchanged."""
    unit = InProcessUnit(test_mode=True)
    try:
        with LinkClient(unit.url, timeout=10) as client:
            before = client.request("state")
            for depth in (MAX_DEPTH + 1, 988, 2040):
                for kind in "[{":
                    frame = _deep_frame(_OP_OF.get(field, "state"), field, depth, kind)
                    if len(frame) > MAX_REQUEST:
                        continue
                    client.drain_events()
                    client.write(frame)
                    got = client.wait_event(lambda m: m.get("ok") is False, 10.0)
                    assert got is not None, f"{field} {depth} deep: no reply"
                    error = got.message["error"]
                    assert error["code"] == "json", error
                    assert f"more than {MAX_DEPTH}" in error["message"]
            after = client.request("state")
            assert (after["state"], after["mode"], after["actions"]) == (
                before["state"], before["mode"], before["actions"])  # fmt: skip
    finally:
        unit.close()


def test_the_protocol_depth_is_counted_outside_strings() -> None:
    """Brackets inside a string are text, not nesting; escaped quotes stay inside it."""
    text = "[" * 100 + '\\"' + "{" * 100
    message = decode(encode({"id": 1, "op": "state", "note": text})[:-1])
    assert message["note"] == text
    assert decode(encode({"a": _nested_value(MAX_DEPTH - 1)})[:-1])
    with pytest.raises(FrameError, match="more than"):
        decode(encode({"a": _nested_value(MAX_DEPTH)})[:-1])


def _nested_value(depth: int) -> Any:
    value: Any = 0
    for _ in range(depth):
        value = [value]
    return value


def test_an_op_that_fails_is_an_error_reply_and_the_unit_goes_on(caplog: Any) -> None:
    """Any exception in an op handler (not only a refusal) is an ``internal`` error
    reply, logged with its traceback; the loop goes on."""
    unit = InProcessUnit(test_mode=False)
    try:
        with LinkClient(unit.url, timeout=10) as client:

            def fails(args: Any) -> Any:
                raise KeyError("x" * 500)

            unit.server.ops._op_stats = fails  # type: ignore[method-assign]
            with pytest.raises(LinkError, match="internal") as refused:
                client.request("stats")
            assert len(str(refused.value)) < 300  # the value quoted cut short
            assert client.request("state")["mode"]
            assert unit.thread.is_alive()
        assert any(r.exc_info and "KeyError" in r.getMessage() + str(r.exc_info[0])
                   for r in caplog.records)  # fmt: skip
    finally:
        unit.close()


def test_a_bad_value_is_quoted_cut_short() -> None:
    """A bad ``id`` that is a long, wide list: the message quotes a bounded preview."""
    unit = InProcessUnit(test_mode=False)
    try:
        with LinkClient(unit.url, timeout=10) as client:
            client.drain_events()
            client.write(encode({"id": [[1] * 300] * 3, "op": "state"}))
            got = client.wait_event(lambda m: m.get("ok") is False, 10.0)
            assert got is not None
            message = got.message["error"]["message"]
            assert "field 'id' is [[1, 1," in message and len(message) < 200
    finally:
        unit.close()


def test_a_peer_that_stops_reading_gets_whole_frames_only(monkeypatch: Any) -> None:
    """1,200 requests for every seat's frame (~6 KB a reply: more than the socket's
    buffers hold) while the peer reads nothing, then it reads again: every line it
    gets is a whole frame with a valid CRC (the unit's write used to time out part way,
    after ``WRITE_TIMEOUT_S``, leaving the frame cut: shortened here so the stall
    outlasts it); what did not fit was dropped whole and counted."""
    monkeypatch.setattr(transport, "WRITE_TIMEOUT_S", 0.01, raising=False)
    listener = socket.create_server(("127.0.0.1", 0))
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # a peer that fills up
    listener.settimeout(10)
    unit = InProcessUnit(port=f"socket://127.0.0.1:{listener.getsockname()[1]}")
    counters = unit.server.counters
    try:
        conn, _ = listener.accept()
        with conn:
            for batch in range(24):  # paced by the unit: none dropped as a flood
                conn.sendall(b"".join(encode({"id": 1 + batch * 50 + n, "op": "ui", "glass": True})
                                      for n in range(50)))  # fmt: skip
                while counters.received + counters.bad + counters.dropped < (batch + 1) * 50:
                    threading.Event().wait(0.005)
            splitter, got = FrameSplitter(MAX_REPLY), []
            conn.settimeout(1.0)
            stats = 5000  # asked again while the reply may be dropped (the queue full)
            conn.sendall(encode({"id": stats, "op": "stats"}))
            while not any(r.message is not None and r.message.get("id", 0) >= 5000 for r in got):
                try:
                    data = conn.recv(65536)
                except TimeoutError:
                    stats += 1
                    conn.sendall(encode({"id": stats, "op": "stats"}))
                    continue
                assert data, "the unit closed the connection"
                got += splitter.feed(data)
        assert not [r.error for r in got if r.error is not None]
        replies = [r.message for r in got if r.message is not None]
        assert len(replies) > 10 and all(m.get("ok") for m in replies)
        assert counters.send_dropped > 0  # the peer did stop the unit's writes
    finally:
        unit.close()
        listener.close()


class _SlowCard:
    """The journal's ``fdatasync`` taking 0.3 s (a slow SD card): ``lines`` is how many
    journal lines are on disk (counted when a sync ends)."""

    def __init__(self, real: Any) -> None:
        self.real = real
        self.lines = 0

    def __call__(self, fd: int) -> None:
        with open(f"/proc/self/fd/{fd}", "rb") as journal:  # what this sync makes durable
            lines = journal.read().count(b"\n")
        threading.Event().wait(0.3)
        self.real(fd)
        self.lines = max(self.lines, lines)


@pytest.mark.parametrize("game", ["switch16", "swytch"])
def test_the_link_reports_an_action_only_once_it_is_on_disk(monkeypatch: Any, game: str) -> None:
    """With every sync slowed to 0.3 s, a game played by presses (human vs bot): each
    ``action`` event, ``state`` and ``transcript`` reply the unit puts on the wire
    holds only actions whose sync has ended (as the glass waits for it; the link sent
    them at once before)."""
    card = _SlowCard(journal._datasync)
    monkeypatch.setattr(journal, "_datasync", card)
    wire: list[tuple[dict[str, Any], int]] = []  # (message, journal lines on disk then)
    unit = InProcessUnit(virtual_clock=True, durable=True)
    send = unit.server.send

    def record(message: dict[str, Any]) -> None:
        wire.append((message, card.lines))
        send(message)

    unit.server.send = record  # type: ignore[method-assign]
    try:
        with LinkClient(unit.url, timeout=30) as client:
            client.request("subscribe", events=["action"])
            d = Harness(client, seed=5)
            if game == "swytch":
                d.new_game("swytch", ["human", "easy"], first=0, ranks=8)
                play_by_presses(d, "swytch", 3600.0, max_turns=8)
            else:
                d.new_game("switch16", ["human", "expert"], rules="pressman-2003", first=0)
                play_by_presses(d, "switch16", 3600.0, max_turns=8)
    finally:
        unit.close()
    assert len([m for m, _ in wire if m.get("event") == "action"]) >= 8
    for message, on_disk in wire:  # (the header is synced on its own, not counted)
        result = message.get("result") or {}
        if message.get("event") == "action":
            assert message["actions"] + 1 <= on_disk, message  # the header, its actions
        elif isinstance(lines := result.get("lines"), list) and len(lines) > 1:
            assert len(lines) <= on_disk, result  # a transcript
        elif result.get("actions"):
            assert result["actions"] + 1 <= on_disk, result


def test_the_fuzz_nests_every_field_of_every_op_in_test_mode() -> None:
    """tools/link_fuzz.py's nested frames (every op, every field, ``id``, ``op``, 1 to
    ~2,000 deep) to a unit in test mode mid-game: each is refused, the unit answers
    and its position is unchanged after every one."""
    from tools.link_fuzz import DEEP, fuzz, live_unit

    unit = live_unit(test_mode=True)
    try:
        with LinkClient(unit.url, timeout=10) as client:
            assert client.request("state")["mode"] == "play"
            out = fuzz(client, 300, frames=DEEP)
            assert not out.problems and out.examples == 300
            stats = client.request("stats")
            assert stats["by_code"].get("json", 0) > 50 and stats["by_code"]["bad_field"] > 50
            assert unit.thread.is_alive()
    finally:
        unit.close()
