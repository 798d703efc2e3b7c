"""The serial link: the unit's read-only (and, in test mode, test-rig) port, and the
harness that plays scripted games through it (docs/LINK.md).

* :mod:`.protocol`: frames (newline-delimited JSON + CRC-32), pure.
* :mod:`.server`: the unit's end, served on the unit loop (``[link] port``).
* :mod:`.client`: the harness's end (pyserial ``serial_for_url`` + ``serial.threaded``).
* :mod:`.harness`: scripts, the built-in suite and the report of ``switch16 hil``.
"""

from .protocol import PROTOCOL_VERSION, FrameError, decode, encode

__all__ = ["PROTOCOL_VERSION", "FrameError", "decode", "encode"]
