"""Sleeping until the next input without polling.

``pygame.event.wait(timeout)`` polls (about 1.7 % of a core while the window is idle).
On X11 :class:`InputWaiter` instead blocks in ``select()`` on the X connection's socket
until X has something for the window or the timeout passes; elsewhere it falls back
to ``pygame.event.wait``.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import select

import pygame


def x11_socket() -> int | None:
    """The file descriptor of the window's X connection, or None (not X11, no libX11)."""
    if pygame.display.get_driver() != "x11":
        return None
    capsule = pygame.display.get_wm_info().get("display")
    library = ctypes.util.find_library("X11")
    if capsule is None or library is None:
        return None
    try:
        get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
        get_pointer.restype = ctypes.c_void_p
        get_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
        x11 = ctypes.CDLL(library)
        x11.XConnectionNumber.argtypes = [ctypes.c_void_p]
        fd = x11.XConnectionNumber(get_pointer(capsule, b"display"))
    except (OSError, ValueError, AttributeError):
        return None
    return fd if fd >= 0 else None


class InputWaiter:
    """Blocks until window input arrives or ``timeout`` seconds pass."""

    def __init__(self) -> None:
        self.fd = x11_socket()

    def wait(self, timeout: float) -> list[pygame.event.Event]:
        """The events that arrived (possibly none, after the timeout)."""
        events = pygame.event.get()
        if events or timeout <= 0:
            return events
        if self.fd is None:
            event = pygame.event.wait(max(1, round(timeout * 1000)))
            return [] if event.type == pygame.NOEVENT else [event]
        select.select([self.fd], [], [], timeout)
        return pygame.event.get()
