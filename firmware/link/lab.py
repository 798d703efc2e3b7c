"""A unit in a labgrid environment: the pyserial URL of a target's serial resource.

labgrid (the lab's engine for boards and serial ports: coordinator, exporters, places)
describes a unit on a USB-serial cable as ``RawSerialPort`` / ``USBSerialPort`` (a
local tty) and one exported by ser2net or a labgrid exporter as ``NetworkSerialPort``
(``rfc2217`` or ``raw``). :func:`target_url` turns the target's resource into the URL
the link opens, as labgrid's own ``SerialDriver`` does (through labgrid's proxy
manager, so ``LG_PROXY`` works). labgrid is imported only here, and only when asked:
``pip install -e '.[lab]'``.
"""

from __future__ import annotations

from typing import Any

#: The resource classes a unit's link may be, in the order they are looked for.
SERIAL_RESOURCES = ("NetworkSerialPort", "RawSerialPort", "USBSerialPort")


class NoSerialPort(LookupError):
    """The target has no serial resource the link can open."""


def resource_url(resource: Any) -> str:
    """The pyserial URL of one labgrid serial resource."""
    # lazy: labgrid, the lab extra
    from labgrid.resource import NetworkSerialPort
    from labgrid.util.proxy import proxymanager

    if isinstance(resource, NetworkSerialPort):
        host, port = proxymanager.get_host_and_port(resource)
        if resource.protocol == "rfc2217":
            return f"rfc2217://{host}:{port}"
        if resource.protocol == "raw":
            return f"socket://{host}:{port}"
        raise NoSerialPort(f"{resource.name or 'NetworkSerialPort'}: protocol "
                           f"{resource.protocol!r} is neither rfc2217 nor raw")  # fmt: skip
    return str(resource.port)


def target_url(target: Any, timeout: float = 10.0) -> str:
    """The URL of ``target``'s serial resource (waiting up to ``timeout`` s for it to be
    available: a USB cable plugged in, a place's exporter up)."""
    for resource in target.resources:
        if type(resource).__name__ in SERIAL_RESOURCES:
            target.await_resources([resource], timeout=timeout)
            return resource_url(resource)
    kinds = ", ".join(type(r).__name__ for r in target.resources) or "none"
    raise NoSerialPort(f"labgrid target {target.name!r} has no serial resource "
                       f"({' / '.join(SERIAL_RESOURCES)}); it has: {kinds}")  # fmt: skip
