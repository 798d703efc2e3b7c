"""Cables for a unit without a cable: a pty pair and a TCP bridge (ser2net in small).

* :class:`PtyPair` is ``socat pty,raw,echo=0 pty,raw,echo=0``: two pseudo-terminals
  whose bytes cross over. The unit opens one end's path (``[link] port``), the harness
  the other: two real ttys, opened by pyserial like /dev/serial0 or /dev/ttyUSB0.
* :class:`TcpBridge` exports a serial port (any pyserial URL, e.g. a PtyPair end) on a
  TCP port for one client at a time: raw (reach it with ``socket://host:port``) or
  RFC 2217 (``rfc2217://host:port``, through pyserial's own
  :class:`serial.rfc2217.PortManager`, as its example server does). That is what
  ser2net or labgrid do for a unit on a lab's serial server.
* :class:`Ser2net` runs the real thing: Debian's ``ser2net`` (4.x, ``apt-get install
  ser2net``) exporting a device as RFC 2217 with the config a lab writes.

    python3 -m firmware.link.cable pty                # prints the two ends' paths
    python3 -m firmware.link.cable tcp URL --port 7000 [--rfc2217]
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import select
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import tty
from pathlib import Path
from typing import Any

import serial
import serial.rfc2217

log = logging.getLogger("switch16.link.cable")


class PtyPair:
    """Two raw ptys, crossed over; :attr:`ends` are the paths to open."""

    def __init__(self) -> None:
        self._fds: list[tuple[int, int]] = []
        self.ends: tuple[str, str]
        paths = []
        for _ in range(2):
            master, slave = os.openpty()
            tty.setraw(slave)  # no echo, no line editing: a wire
            self._fds.append((master, slave))  # the slave stays open: no EIO when unused
            paths.append(os.ttyname(slave))
        self.ends = (paths[0], paths[1])
        self._stop_r, self._stop_w = os.pipe()
        self._thread = threading.Thread(target=self._relay, name="pty-pair", daemon=True)
        self._thread.start()

    def _relay(self) -> None:
        a, b = self._fds[0][0], self._fds[1][0]
        other = {a: b, b: a}
        while True:
            ready, _, _ = select.select([a, b, self._stop_r], [], [])
            if self._stop_r in ready:
                return
            for fd in ready:
                try:
                    data = os.read(fd, 4096)
                except OSError:
                    continue
                with contextlib.suppress(OSError):
                    os.write(other[fd], data)

    def close(self) -> None:
        os.write(self._stop_w, b"x")
        self._thread.join(2)
        for master, slave in self._fds:
            for fd in (master, slave):
                with contextlib.suppress(OSError):
                    os.close(fd)
        os.close(self._stop_r)
        os.close(self._stop_w)

    def __enter__(self) -> PtyPair:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _QuietLines:
    """A serial port whose modem lines (which a pty does not have) never raise, for
    :class:`serial.rfc2217.PortManager`; everything else passes through."""

    def __init__(self, port: Any) -> None:
        object.__setattr__(self, "_port", port)

    def __getattr__(self, name: str) -> Any:
        if name in ("cts", "dsr", "ri", "cd"):
            try:
                return getattr(self._port, name)
            except Exception:
                return False
        return getattr(self._port, name)

    def __setattr__(self, name: str, value: Any) -> None:
        try:
            setattr(self._port, name, value)
        except Exception as exc:
            log.debug("bridge: %s = %r ignored: %s", name, value, exc)


class _Writes:
    """The connection PortManager writes its telnet answers to: ``write`` = sendall."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock

    def write(self, data: bytes) -> None:
        self.sock.sendall(data)


class TcpBridge:
    """Serve the serial port ``url`` on ``host:port`` (0: any free port, see :attr:`port`)."""

    def __init__(self, url: str, host: str = "127.0.0.1", port: int = 0, *,
                 rfc2217: bool = False) -> None:  # fmt: skip
        self.serial = serial.serial_for_url(url, baudrate=115200, timeout=0.2)
        self.rfc2217 = rfc2217
        self.listener = socket.create_server((host, port))
        self.port: int = self.listener.getsockname()[1]
        self.clients = 0
        self._alive = True
        self._client: socket.socket | None = None  #: the client being served
        self._thread = threading.Thread(target=self._serve, name="tcp-bridge", daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while self._alive:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            self._client = client
            if not self._alive:  # closed while it was accepting: close() missed it
                _shut(client)
            self.clients += 1
            client.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            self._redirect(client)
            self._client = None

    def _redirect(self, client: socket.socket) -> None:
        """Like pyserial's examples: a thread serial -> socket, this one socket -> serial."""
        manager: Any = None
        if self.rfc2217:
            manager = serial.rfc2217.PortManager(_QuietLines(self.serial), _Writes(client))
        done = threading.Event()

        def serial_to_socket() -> None:
            while not done.is_set():
                try:
                    data = self.serial.read(self.serial.in_waiting or 1)
                    if data:
                        client.sendall(b"".join(manager.escape(data)) if manager else data)
                except Exception:
                    break
            done.set()

        reader = threading.Thread(target=serial_to_socket, name="tcp-bridge-serial",
                                  daemon=True)  # fmt: skip
        reader.start()
        try:
            while not done.is_set():
                data = client.recv(4096)
                if not data:
                    break
                self.serial.write(b"".join(manager.filter(data)) if manager else data)
        except OSError:
            pass
        finally:
            done.set()
            with contextlib.suppress(OSError):
                client.close()
            reader.join(5)  # it reads with a timeout: it sees ``done`` within one

    def close(self) -> None:
        """Stop serving: the threads end before this returns. Closing a socket does not
        wake a thread blocked in ``accept()`` or ``recv()`` on Linux; shutting it down does."""
        self._alive = False
        _shut(self.listener)
        client = self._client
        if client is not None:
            _shut(client)
        self._thread.join(5)
        self.serial.close()

    def __enter__(self) -> TcpBridge:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _shut(sock: socket.socket) -> None:
    """Shut ``sock`` down (waking any thread blocked on it) and close it."""
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)
    with contextlib.suppress(OSError):
        sock.close()


def stop_process(proc: subprocess.Popen[bytes], timeout: float) -> None:
    """SIGTERM, then SIGKILL after ``timeout`` s; waits for it."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def ser2net_path() -> str | None:
    """The ser2net program (Debian installs it in /usr/sbin), or None."""
    found = shutil.which("ser2net") or "/usr/sbin/ser2net"
    return found if os.access(found, os.X_OK) else None


class Ser2net:
    """A real ser2net exporting ``device`` (a tty path) on ``host``: RFC 2217 as a lab
    configures it (``accepter: telnet(rfc2217),tcp,HOST,PORT``), reached with
    ``rfc2217://HOST:PORT`` (:attr:`url`). ``nodelay`` adds what makes it answer in
    ~1 ms instead of ~44 ms: ``tcp(nodelay)`` and ``chardelay: false`` (docs/LINK.md).
    """

    def __init__(self, device: str, host: str = "127.0.0.1", port: int = 0, *,
                 nodelay: bool = False) -> None:  # fmt: skip
        program = ser2net_path()
        if program is None:
            raise FileNotFoundError("ser2net is not installed (apt-get install ser2net)")
        if not port:
            with socket.socket() as probe:  # a free port (ser2net cannot pick one)
                probe.bind((host, 0))
                port = probe.getsockname()[1]
        self.host, self.port = host, port
        self._tmp = tempfile.TemporaryDirectory(prefix="switch16-ser2net-")
        self.config = Path(self._tmp.name) / "ser2net.yaml"
        tcp = "tcp(nodelay)" if nodelay else "tcp"
        self.config.write_text(
            "connection: &unit\n"
            f"    accepter: telnet(rfc2217),{tcp},{host},{port}\n"
            f"    connector: serialdev,{device},115200n81,local\n"
            "    options:\n"
            "      kickolduser: true\n"
            + ("      chardelay: false\n" if nodelay else ""),
            encoding="utf-8",
        )  # fmt: skip
        self.log = Path(self._tmp.name) / "ser2net.log"
        with open(self.log, "wb") as sink:
            # -n: stay in the foreground; -u: no UUCP lock files
            self.proc = subprocess.Popen(
                [program, "-n", "-u", "-c", str(self.config),
                 "-P", str(Path(self._tmp.name) / "ser2net.pid")],
                stdout=sink, stderr=sink)  # fmt: skip
        self._wait_listening()

    @property
    def url(self) -> str:
        return f"rfc2217://{self.host}:{self.port}"

    def _wait_listening(self, timeout: float = 10.0) -> None:
        end = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                self.close()
                raise RuntimeError(f"ser2net exited ({self.proc.returncode}): "
                                   f"{self.log.read_text(errors='replace').strip()}")  # fmt: skip
            try:
                with socket.create_connection((self.host, self.port), timeout=0.5):
                    return
            except OSError:
                if time.monotonic() > end:
                    self.close()
                    raise RuntimeError(f"ser2net is not listening on {self.port}") from None
                time.sleep(0.05)

    def close(self) -> None:
        stop_process(self.proc, 5)
        self._tmp.cleanup()

    def __enter__(self) -> Ser2net:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    sub.add_parser("pty", help="a crossed pty pair: prints both ends, runs until ^C")
    tcp = sub.add_parser("tcp", help="export a serial port on TCP")
    tcp.add_argument("url")
    tcp.add_argument("--host", default="127.0.0.1")
    tcp.add_argument("--port", type=int, default=7000)
    tcp.add_argument("--rfc2217", action="store_true", help="speak RFC 2217 (telnet)")
    args = parser.parse_args(argv)
    cable: PtyPair | TcpBridge
    if args.what == "pty":
        cable = PtyPair()
        print(*cable.ends, flush=True)
    else:
        cable = TcpBridge(args.url, args.host, args.port, rfc2217=args.rfc2217)
        scheme = "rfc2217" if args.rfc2217 else "socket"
        print(f"{scheme}://{args.host}:{cable.port}", flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        pass
    finally:
        cable.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
