"""systemd integration (issue 14): READY once the displays show the first frame, and
WATCHDOG pings from the loop itself, so a hung loop gets restarted."""

from __future__ import annotations

import configparser
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware.games.switch16.setup import GameSetup
from firmware.unit import Unit
from firmware.unit.service import ServiceNotifier
from hal.config import REFERENCE_CONFIG, load_config
from hal.testing import mock_pi_hal

from .conftest import TIMING, ScriptedRng


@pytest.fixture
def notify_socket(tmp_path: Path) -> Iterator[socket.socket]:
    """A fake systemd: the datagram socket NOTIFY_SOCKET names."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(tmp_path / "notify"))
    sock.setblocking(False)
    yield sock
    sock.close()


def received(sock: socket.socket) -> list[str]:
    out = []
    while True:
        try:
            out.append(sock.recv(4096).decode())
        except BlockingIOError:
            return out


def test_ready_after_the_first_frame_then_pings_from_the_loop(
    tmp_path: Path, notify_socket: socket.socket, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NOTIFY_SOCKET", notify_socket.getsockname())
    monkeypatch.setenv("WATCHDOG_USEC", "2000000")
    service = ServiceNotifier()
    assert service.interval == 1.0
    with mock_pi_hal(load_config(REFERENCE_CONFIG)) as pi:
        unit = Unit(pi.hal, tmp_path / "state", setup=GameSetup.of(["easy", "rulebook"]),
                    rng=ScriptedRng(2), timing=TIMING, service=service)  # fmt: skip
        unit.start()
        first = received(notify_socket)
        assert first[0].startswith("READY=1") and all(d.lit() > 0 for d in pi.displays[:2])
        unit.run_for(10)
        pings = received(notify_socket)
        assert 9 <= pings.count("WATCHDOG=1") <= 11  # one a second, from the loop's steps
        pi.clock.advance(30)  # the loop hangs: time passes, nobody steps it
        assert received(notify_socket) == []
        unit.run_for(2)  # it runs again
        assert "WATCHDOG=1" in received(notify_socket)


def test_outside_systemd_nothing_is_sent(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    service = ServiceNotifier()
    assert not service.enabled and service.interval is None
    service.ready()
    service.ping()  # no socket, no error


def test_the_service_waits_for_ready_and_has_a_watchdog() -> None:
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.read(Path(REFERENCE_CONFIG).parent / "systemd" / "switch16.service")
    service = unit["Service"]
    assert service["Type"] == "notify" and int(service["WatchdogSec"]) > 0
    assert service["NotifyAccess"] == "main"


def test_sigterm_tells_systemd_stopping(tmp_path: Path, notify_socket: socket.socket) -> None:
    """`switch16 run` as systemd runs it: READY, then SIGTERM -> STOPPING=1, exit 0."""
    env = {**os.environ, "NOTIFY_SOCKET": notify_socket.getsockname(), "SWITCH16_HAL": "mock"}
    env.pop("WATCHDOG_USEC", None)
    cmd = [sys.executable, "-m", "firmware.cli", "run", "--seats", "easy,easy",
           "--state-dir", str(tmp_path / "state")]  # fmt: skip
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        notify_socket.settimeout(60)
        assert notify_socket.recv(4096).decode().startswith("READY=1")
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 0, err.decode()
    notify_socket.setblocking(False)
    assert "STOPPING=1" in received(notify_socket)
