"""Defects of the link found by a hostile rig (issue 35), each failing before its fix:
no frame of any content ends the unit, a frame is written whole or not at all, the
link reports an action only once it is on disk, a request schedules boundedly, and a
cable closes at once."""

from __future__ import annotations

import socket
import threading

from firmware.link.cable import PtyPair, TcpBridge
from firmware.link.client import LinkClient
from firmware.link.pytest_plugin import InProcessUnit


def _bridge_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith("tcp-bridge")]


def test_closing_a_tcp_bridge_ends_its_threads() -> None:
    """``close()`` wakes the thread blocked in ``accept()`` (closing the socket alone
    does not, on Linux) and the one serving a client: none is left once it returns."""
    assert not _bridge_threads()
    with PtyPair() as pair:
        idle = TcpBridge(pair.ends[1])
        idle.close()
        assert not _bridge_threads(), "close() left the accept() thread behind"
        serving = TcpBridge(pair.ends[1])
        with socket.create_connection(("127.0.0.1", serving.port)) as conn:
            conn.sendall(b"x")
            while serving.clients == 0:  # the bridge took the client
                threading.Event().wait(0.01)
            serving.close()
            assert not _bridge_threads(), "close() left a client's threads behind"


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
