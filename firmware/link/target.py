"""A unit on mocked GPIO (or the simulator) in another process, reached through a real
cable stand-in.

:class:`MockTarget` writes a test-mode config, starts ``switch16 run --hal
hal.testing:mock_backend`` (the Pi backend on gpiozero's MockFactory, emulated
panels) serving the link on one end of a :class:`~.cable.PtyPair`, and gives the
harness the other end: the pty path itself, ``socket://`` / ``rfc2217://`` through
a :class:`~.cable.TcpBridge`, or ``rfc2217://`` through a real ser2net
(:class:`~.cable.Ser2net`, ``via="ser2net"``). It can cut the power (SIGKILL) and
start the unit again on the same state directory. With ``sim=True`` it starts
``sim --headless --link`` instead: the unit on the simulator's HAL with human seats.
"""

from __future__ import annotations

import ctypes
import functools
import os
import signal
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Callable
from pathlib import Path

from firmware.settings import rig_timing
from hal.config import REFERENCE_CONFIG

from .cable import PtyPair, Ser2net, TcpBridge, stop_process
from .client import LinkClient, LinkError

#: The unit's [timing] for a harness: fast bots, no dimming or screensaver (a press
#: that only wakes the displays would confuse a script); each installed game adds its
#: own keys' pace for a rig (:func:`firmware.settings.rig_timing`).
HIL_TIMING = {"bot_thinking_s": 0.02, "dim_after_s": 0, "screensaver_after_s": 0,
              "rolloff_show_s": 0.2}  # fmt: skip
#: How long a client of a mocked unit waits for a reply: a unit process on a busy shared
#: machine (CI beside other work) can stall for seconds; one that hangs still fails.
REPLY_TIMEOUT_S = 60.0
#: linux/prctl.h
PR_SET_PDEATHSIG = 1
VIAS = ("pty", "socket", "rfc2217", "ser2net")


def hil_config(
    directory: Path, test_mode: bool = True, timing: dict[str, float] | None = None
) -> Path:
    """The reference config with :data:`HIL_TIMING` and the games' pace for a rig
    (``timing`` changes some of it) and
    ``[link] test_mode``."""
    timing = {**HIL_TIMING, **rig_timing(), **(timing or {})}
    text = REFERENCE_CONFIG.read_text(encoding="utf-8")
    data = tomllib.loads(text)
    out = []
    section = ""
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("[") and not stripped.startswith("[["):
            section = stripped.strip("[]")
        key = stripped.split("=", 1)[0].strip()
        if section == "timing" and key in timing:
            continue
        out.append(line)
        if stripped == "[timing]":
            out += [f"{k} = {v}" for k, v in timing.items()]
    if "timing" not in data:
        out += ["[timing]", *(f"{k} = {v}" for k, v in timing.items())]
    out += ["", "[link]", f"test_mode = {'true' if test_mode else 'false'}", ""]
    path = directory / "unit.toml"
    path.write_text("\n".join(out), encoding="utf-8")
    return path


def _ends_with_parent() -> Callable[[], object]:
    """What a started unit runs first: a SIGTERM when the thread that started it ends
    (Linux's PR_SET_PDEATHSIG), so a harness killed mid-run leaves no unit behind that
    reopens its pty's path for ever, and so talks to whoever gets that pty next."""
    prctl = ctypes.CDLL(None, use_errno=True).prctl
    return functools.partial(prctl, PR_SET_PDEATHSIG, signal.SIGTERM)


class MockTarget:
    """``with MockTarget("socket") as t: client = t.connect()``."""

    def __init__(self, via: str = "pty", *, test_mode: bool = True, log: Path | None = None,
                 virtual_clock: bool = False, sim: bool = False,
                 players: int = 2) -> None:  # fmt: skip
        if via not in VIAS:
            raise ValueError(f"via must be one of {VIAS}")
        self.via = via
        #: ``sim --headless --link`` (SimHal, ``players`` human seats) instead of the unit
        self.sim = sim
        self.players = players
        self.virtual_clock = virtual_clock
        self._tmp = tempfile.TemporaryDirectory(prefix="switch16-hil-")
        self.dir = Path(self._tmp.name)
        self.config = hil_config(self.dir, test_mode)
        self.state_dir = self.dir / "state"
        self.log = log or self.dir / "unit.log"
        self.pair = PtyPair()
        self.bridge: TcpBridge | Ser2net | None = None
        if via == "ser2net":
            self.bridge = Ser2net(self.pair.ends[1])
        elif via != "pty":
            self.bridge = TcpBridge(self.pair.ends[1], rfc2217=via == "rfc2217")
        self.proc: subprocess.Popen[bytes] | None = None
        self.client: LinkClient | None = None
        self.starts = 0

    @property
    def url(self) -> str:
        if self.bridge is None:
            return self.pair.ends[1]
        scheme = "rfc2217" if self.via == "ser2net" else self.via
        return f"{scheme}://127.0.0.1:{self.bridge.port}"

    def start(self) -> None:
        checkout = str(Path(__file__).resolve().parents[2])
        path = os.pathsep.join([checkout, os.environ.get("PYTHONPATH", "")])
        env = {**os.environ, "PYTHONPATH": path}
        if self.virtual_clock:
            env["SWITCH16_CLOCK"] = "virtual"
        cmd = [sys.executable, "-m", "firmware.cli", "run", "--hal", "hal.testing:mock_backend",
               "--config", str(self.config), "--state-dir", str(self.state_dir),
               "--link", self.pair.ends[0]]  # fmt: skip
        if self.sim:
            cmd = [sys.executable, "-m", "sim.app", "--headless", "--link", self.pair.ends[0],
                   "--players", str(self.players), "--config", str(self.config),
                   "--state-dir", str(self.state_dir), "--seed", "1",
                   "--clock", "virtual" if self.virtual_clock else "real"]  # fmt: skip
        with open(self.log, "ab") as sink:
            self.proc = subprocess.Popen(cmd, env=env, stdout=sink, stderr=sink,
                                         preexec_fn=_ends_with_parent())  # fmt: skip
        self.starts += 1

    def connect(self, timeout: float = 20.0) -> LinkClient:
        """Start the unit if needed; a client once it answers hello."""
        if self.proc is None:
            self.start()
        end = time.monotonic() + timeout
        client = LinkClient(self.url, timeout=2.0)
        while True:
            try:
                client.request("hello", timeout=0.5)
                break
            except LinkError:
                if time.monotonic() > end or (self.proc and self.proc.poll() is not None):
                    client.close()
                    raise RuntimeError(f"the mocked unit did not answer on {self.url}; "
                                       f"its log: {self.log}") from None  # fmt: skip
        client.timeout = REPLY_TIMEOUT_S
        self.client = client
        return client

    def power_cut(self) -> LinkClient:
        """SIGKILL the unit, start it again on the same state directory, reconnect."""
        if self.client is not None:
            self.client.close()
        if self.proc is not None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()
            self.proc = None
        return self.connect()

    def close(self) -> None:
        if self.client is not None:
            self.client.close()
        if self.proc is not None:
            stop_process(self.proc, 10)
        if self.bridge is not None:
            self.bridge.close()
        self.pair.close()
        self._tmp.cleanup()

    def __enter__(self) -> MockTarget:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
