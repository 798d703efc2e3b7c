"""The link's wire format (docs/LINK.md): newline-delimited JSON with a CRC-32.

One frame is one line: the message as compact JSON (ASCII only, so a frame never
holds a raw newline or a byte above 0x7E), a ``*``, the CRC-32 (zlib, IEEE) of the
JSON bytes as 8 lowercase hex digits, and ``\\n``::

    {"v":1,"id":1,"op":"hello"}*5b0e2f3c\\n

Every message carries ``"v": PROTOCOL_VERSION``. The receiving side accepts frames of
at most its maximum length (the unit: :data:`MAX_REQUEST`) and turns every bad frame
into a :class:`FrameError` naming what is wrong, never an exception out of the reader.
This module is pure (no I/O): the unit's server and the harness's client share it.
"""

from __future__ import annotations

import json
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from firmware import jsonsafe

#: Bumped on any incompatible change; a peer speaking another version gets an error.
PROTOCOL_VERSION = 1
#: Longest frame (bytes, newline excluded) the unit reads: requests are small.
MAX_REQUEST = 4096
#: Longest frame the harness reads: a transcript of a long match fits.
MAX_REPLY = 1 << 22
#: Deepest nesting of ``[`` and ``{`` a message may have (the protocol's own nest a few levels);
#: a deeper frame is refused before it is parsed (:func:`firmware.jsonsafe.check_depth`).
MAX_DEPTH = jsonsafe.MAX_DEPTH
#: A partial frame followed by this long a silence is dropped when bytes come again
#: (the peer vanished mid-frame and a new one started).
STALE_AFTER_S = 0.5
TERMINATOR = b"\n"
SEPARATOR = b"*"


class FrameError(ValueError):
    """A frame that cannot be read; ``code`` is the error code sent back."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def crc(data: bytes) -> str:
    return f"{zlib.crc32(data) & 0xFFFFFFFF:08x}"


def encode(message: dict[str, Any]) -> bytes:
    """One frame for ``message`` (``"v"`` is added when missing)."""
    if "v" not in message:
        message = {"v": PROTOCOL_VERSION, **message}
    body = json.dumps(message, separators=(",", ":"), ensure_ascii=True).encode("ascii")
    return body + SEPARATOR + crc(body).encode("ascii") + TERMINATOR


def decode(frame: bytes) -> dict[str, Any]:
    """The message of one frame (without its newline); FrameError says what is wrong."""
    body, sep, check = frame.rpartition(SEPARATOR)
    if not sep:
        raise FrameError("framing", f"no '*' before the checksum in {_preview(frame)}")
    if len(check) != 8 or any(c not in b"0123456789abcdef" for c in check):
        raise FrameError("framing", f"checksum {_preview(check)} is not 8 lowercase hex digits")
    if crc(body) != check.decode("ascii"):
        raise FrameError("checksum", f"checksum {check.decode('ascii')} does not match the "
                         f"frame's CRC-32 {crc(body)}")  # fmt: skip
    for i, byte in enumerate(body):
        if byte < 0x20 or byte > 0x7E:
            raise FrameError("encoding", f"byte {i} is 0x{byte:02x}: frames are printable ASCII")
    try:  # before anything walks it (json.loads, a repr in a message)
        jsonsafe.check_depth(body, MAX_DEPTH)
    except jsonsafe.TooDeepError as exc:
        raise FrameError("json", str(exc)) from None
    try:
        message = json.loads(body)
    except ValueError as exc:
        raise FrameError("json", f"not JSON: {exc}") from None
    if not isinstance(message, dict):
        raise FrameError("malformed", f"a message is a JSON object, not {type(message).__name__}")
    version = message.get("v")
    if type(version) is not int or version != PROTOCOL_VERSION:  # true == 1 in Python
        raise FrameError("version", f"field 'v' is {version!r}; this end speaks protocol "
                         f"{PROTOCOL_VERSION}")  # fmt: skip
    return message


def _preview(data: bytes, width: int = 40) -> str:
    text = repr(bytes(data[:width]))
    return text + ("…" if len(data) > width else "")


@dataclass(frozen=True, slots=True)
class Received:
    """What the splitter made of the bytes: a message, or why a frame was dropped."""

    message: dict[str, Any] | None
    error: FrameError | None = None


class FrameSplitter:
    """Bytes in, :class:`Received` out: frames split at newlines, overlong frames cut
    off (the rest up to the next newline is skipped), stale partial frames dropped."""

    def __init__(self, max_frame: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.max_frame = max_frame
        self.clock = clock
        self.buffer = bytearray()
        self.skipping = False  #: inside an overlong frame: drop up to the newline
        self.last_byte = 0.0

    def feed(self, data: bytes) -> list[Received]:
        out: list[Received] = []
        now = self.clock()
        if (self.buffer or self.skipping) and now - self.last_byte > STALE_AFTER_S:
            size = len(self.buffer)
            self.buffer.clear()
            self.skipping = False
            out.append(
                Received(
                    None,
                    FrameError(
                        "stale",
                        f"partial frame of {size} bytes dropped after "
                        f"{now - self.last_byte:.1f} s of silence (the peer stopped mid-frame)",
                    ),
                )
            )
        self.last_byte = now
        start = 0
        while start < len(data):
            end = data.find(TERMINATOR, start)
            chunk = data[start:] if end < 0 else data[start:end]
            start = len(data) if end < 0 else end + 1
            if self.skipping:
                if end >= 0:
                    self.skipping = False
                continue
            self.buffer += chunk
            if len(self.buffer) > self.max_frame:
                out.append(Received(None, FrameError(
                    "overlong", f"frame longer than {self.max_frame} bytes dropped")))  # fmt: skip
                self.buffer.clear()
                self.skipping = end < 0
                continue
            if end < 0:
                break
            frame = bytes(self.buffer)
            self.buffer.clear()
            if not frame:
                continue  # an empty line resynchronises; not an error
            try:
                out.append(Received(decode(frame)))
            except FrameError as exc:
                out.append(Received(None, exc))
        return out
