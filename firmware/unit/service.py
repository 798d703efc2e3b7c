"""Telling systemd how the unit is doing (``Type=notify`` with ``WatchdogSec=``).

The loop sends READY once every display shows its first frame, then a WATCHDOG ping
from the loop itself at half the watchdog period: a loop that hangs (a bus that
blocks, a bug) stops pinging and systemd restarts the unit. Outside systemd
(``NOTIFY_SOCKET`` unset) nothing is sent. The socket protocol is sdnotify's.
"""

from __future__ import annotations

import os


class ServiceNotifier:
    """sd_notify messages for the unit loop; inert when not run by systemd."""

    def __init__(self) -> None:
        env = os.environ  # NOTIFY_SOCKET, WATCHDOG_USEC, WATCHDOG_PID, as systemd sets them
        self.enabled = bool(env.get("NOTIFY_SOCKET"))
        self._notifier = None
        if self.enabled:
            # lazy: sdnotify only under systemd
            import sdnotify

            self._notifier = sdnotify.SystemdNotifier()
        usec = env.get("WATCHDOG_USEC", "")
        pid = env.get("WATCHDOG_PID", "")
        for_us = not pid or pid == str(os.getpid())
        #: Seconds between watchdog pings (half systemd's period), None: no watchdog.
        self.interval: float | None = (
            int(usec) / 2e6 if self.enabled and usec.isdigit() and int(usec) > 0 and for_us
            else None
        )  # fmt: skip
        self.ready_sent = False

    def ready(self, status: str = "") -> None:
        if not self.ready_sent:
            self._send("READY=1" + (f"\nSTATUS={status}" if status else ""))
            self.ready_sent = True

    def ping(self) -> None:
        self._send("WATCHDOG=1")

    def stopping(self) -> None:
        self._send("STOPPING=1")

    def _send(self, message: str) -> None:
        if self._notifier is not None:
            self._notifier.notify(message)
