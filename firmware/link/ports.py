"""Opening a link's port: any pyserial URL, as the lab's serial servers ship.

``rfc2217://`` (ser2net, labgrid's exporter): pyserial's client asks the server to
raise DTR and RTS when it opens and waits 3 s for each answer. Debian's ser2net 4.3
serving a port without modem lines (a pty, a bare UART) never answers, so pyserial
3.5 fails with ``timeout while waiting for option 'control'``. The link uses no modem
lines, so :func:`port_url` adds ``ign_set_control`` (pyserial's own switch for such
servers) unless the URL already names it. pyserial's RFC 2217 client has no write
timeout: :func:`open_port` drops it there.
"""

from __future__ import annotations

from typing import Any

#: The query option that makes pyserial's RFC 2217 client ignore SET_CONTROL answers.
IGNORE_CONTROL = "ign_set_control"


def port_url(url: str) -> str:
    """``url`` as the link opens it (see the module's docstring)."""
    if not url.startswith("rfc2217://"):
        return url
    base, _, query = url.partition("?")
    options = [o for o in query.split("&") if o]
    if any(o.split("=", 1)[0] == IGNORE_CONTROL for o in options):
        return url
    return f"{base}?{'&'.join([*options, IGNORE_CONTROL])}"


def open_port(url: str, *, write_timeout: float | None, **kwargs: Any) -> Any:
    """A pyserial port for ``url`` at 115200 baud (a tty's speed; ignored by sockets)."""
    # lazy: pyserial only once a port opens (start-up on the Zero)
    import serial

    if url.startswith("rfc2217://"):
        write_timeout = None
    return serial.serial_for_url(port_url(url), baudrate=115200, write_timeout=write_timeout,
                                 **kwargs)  # fmt: skip
