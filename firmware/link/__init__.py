"""The serial link: the unit's read-only (and, in test mode, test-rig) port, and the
harness that plays scripted games through it (docs/LINK.md).

* :mod:`.protocol`: frames (newline-delimited JSON + CRC-32), pure.
* :mod:`.server`: the unit's end, served on the unit loop (``[link] port``), over
  :mod:`.transport` (the port and its threads), :mod:`.ops` (the op handlers) and
  :mod:`.snapshot` (what it reports of the unit).
* :mod:`.client`: the harness's end (pyserial ``serial_for_url`` + ``serial.threaded``).
* :mod:`.harness`: ``switch16 hil``'s entry, over :mod:`.unit_driver` (waits, presses,
  plays), :mod:`.expected` (the expected-frame check), :mod:`.suite` (the built-in
  suite), :mod:`.script` (``*.hil`` scripts) and :mod:`.report` (PASS/FAIL).
"""

from .protocol import PROTOCOL_VERSION, FrameError, decode, encode

__all__ = ["PROTOCOL_VERSION", "FrameError", "decode", "encode"]
