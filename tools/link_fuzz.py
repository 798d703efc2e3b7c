"""Fuzz a live unit's link with hypothesis: every random frame must leave the game's
state unchanged and the loop answering.

    python3 -m tools.link_fuzz --frames 10000 [--port URL] [--test-mode]

The unit (default: in-process on mocked GPIO, over a pty, **not** in test mode, a
human-vs-human tablier game in progress) gets one hypothesis example at a time: random
bytes, random lines, near-valid frames (real ops with random fields, then maybe a
flipped byte, a cut, a wrong checksum), valid frames of every op, frames of every size
up to the limit, and frames with one field (any op's, ``id``, ``op``, an unknown one)
nested 1 to ~2,000 deep in lists or objects. After each, a newline (ending any partial
frame) and a ``state`` request: its reply must come within :data:`ANSWER_S` and show
the same position, mode and action count as before. ``--test-mode`` fuzzes a unit in
test mode with the nested frames only (every one must be refused: valid test ops
would change the position). The suite runs short versions (tests/hil); this prints
the figure for the README.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import zlib
from dataclasses import dataclass, field
from typing import Any

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from firmware.games.switch16.setup import GameSetup
from firmware.link.client import LinkClient, LinkError
from firmware.link.ops import READ_OPS, TEST_OPS
from firmware.link.protocol import MAX_REQUEST, encode
from firmware.link.pytest_plugin import InProcessUnit

#: A reply slower than this means the loop is not responsive.
ANSWER_S = 2.0
OPS = [*READ_OPS, *TEST_OPS, "boom", ""]
FIELDS = ["seat", "button", "ms", "rolls", "seats", "seconds", "events", "glass", "rules",
          "points", "first", "next", "game", "ranks", "v", "op"]  # fmt: skip
#: Request ids of fuzzed frames: never one the client's own requests use (1, 2, 3, …),
#: or a fuzzed frame's reply could pass for the reply to the check's ``state``.
_ids = st.one_of(st.integers(10**9, 2**53 + 5), st.integers(-5, 0), st.none(), st.text(max_size=3),
                 st.floats(allow_nan=False))  # fmt: skip

_values = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**63), 2**63), st.floats(allow_nan=False),
    st.text(max_size=12), st.sampled_from(["yes", "no", "chip", "human", "tablier"]),
    st.lists(st.integers(-2, 8), max_size=7),
    st.lists(st.dictionaries(st.sampled_from(["dice", "switch"]),
                             st.one_of(st.lists(st.integers(0, 7), max_size=7),
                                       st.text(max_size=6))), max_size=3),
)  # fmt: skip
_messages = st.builds(lambda op, fields, rid: {"id": rid, "op": op, **fields},
                      st.sampled_from(OPS), st.dictionaries(st.sampled_from(FIELDS), _values,
                                                            max_size=4),
                      _ids)  # fmt: skip


def _mangle(frame: bytes, how: int, at: int, byte: int) -> bytes:
    i = at % max(1, len(frame) - 1)
    if how == 0:
        return frame  # valid
    if how == 1:
        return frame[:i] + bytes([byte]) + frame[i + 1 :]  # a flipped byte
    if how == 2:
        return frame[:i]  # cut short
    if how == 3:
        body = frame[: frame.rindex(b"*")]
        return body + b"*%08x\n" % (zlib.crc32(body) ^ 1)  # a wrong checksum
    return frame[:i] + frame[i + 1 :]  # a byte dropped


def deep_frame(op: str, field: str, depth: int, kind: str, rid: int) -> bytes:
    """A frame (valid CRC) of ``op`` whose ``field`` nests ``depth`` deep: written as
    text (``json.dumps`` itself would run out of stack)."""
    value = "[" * depth + "]" * depth if kind == "[" else '{"a":' * depth + "0" + "}" * depth
    message = {"v": 1, "id": rid, "op": op, field: None}
    body = json.dumps(message, separators=(",", ":")).replace("null", value, 1).encode()
    return body + b"*%08x\n" % zlib.crc32(body)


def _sized(message: dict[str, Any], size: int) -> bytes:
    """``message`` padded (an unknown field) to a frame of ``size`` bytes where it can."""
    frame = encode({**message, "pad": ""})
    return encode({**message, "pad": "x" * max(0, size - len(frame))})


#: Frames with one field nested 1 to ~2,000 deep (the parser's own limit is ~1,000;
#: near it, a value json parses can be too deep to ``repr``).
DEEP = st.builds(deep_frame, st.sampled_from(OPS), st.sampled_from([*FIELDS, "id", "x"]),
                 st.one_of(st.integers(1, 40), st.integers(970, 1000), st.integers(1, 2100)),
                 st.sampled_from("[{"), st.integers(10**9, 2**53 - 1))  # fmt: skip
#: Frames of every size up to the unit's limit (and just past it).
SIZED = st.builds(_sized, _messages, st.integers(0, MAX_REQUEST + 2))


#: One fuzz input: the bytes sent to the unit in one go.
FRAMES = st.one_of(
    st.binary(max_size=300),
    st.builds(lambda b: b + b"\n", st.binary(max_size=300)),
    st.builds(lambda t: t.encode("utf-8", "replace") + b"\n", st.text(max_size=200)),
    st.builds(lambda m, how, at, byte: _mangle(encode(m), how, at, byte), _messages,
              st.integers(0, 4), st.integers(0, 5000), st.integers(0, 255)),
    st.builds(lambda n: b"x" * n + b"\n", st.integers(4000, 6000)),  # overlong
    DEEP,
    SIZED,
)  # fmt: skip


@dataclass
class Outcome:
    examples: int = 0
    problems: list[str] = field(default_factory=list)
    answer_ms: list[float] = field(default_factory=list)


def _key(reply: dict[str, Any]) -> tuple[Any, ...]:
    return reply["state"], reply["mode"], reply["actions"]


def fuzz(client: LinkClient, examples: int, seed: int | None = 1,
         frames: st.SearchStrategy[bytes] = FRAMES) -> Outcome:  # fmt: skip
    """Send ``examples`` hypothesis inputs (of ``frames``) to the unit behind ``client``."""
    out = Outcome()
    before = _key(client.request("state"))

    @settings(max_examples=examples, deadline=None, database=None,
              derandomize=seed is not None, suppress_health_check=list(HealthCheck),
              phases=[Phase.generate, Phase.shrink])  # fmt: skip
    @given(frame=frames)
    def one(frame: bytes) -> None:
        out.examples += 1
        client.write(frame + b"\n")
        started = time.perf_counter()
        try:
            now = client.request("state", timeout=ANSWER_S)
        except LinkError as exc:
            out.problems.append(f"no answer after {frame[:80]!r}: {exc}")
            raise
        out.answer_ms.append((time.perf_counter() - started) * 1000)
        if _key(now) != before:
            out.problems.append(f"the state changed after {frame[:80]!r}: {now}")
            raise AssertionError(out.problems[-1])

    try:
        one()
    except Exception as exc:  # hypothesis re-raises the (shrunk) failure
        if not out.problems:
            out.problems.append(repr(exc))
    return out


def live_unit(test_mode: bool = False) -> Any:
    """A unit on mocked GPIO (production: read-only) with a human game in progress."""
    setup = GameSetup.of(["human", "human"], "tablier")
    unit = InProcessUnit(test_mode=test_mode, setup=setup)
    end = time.monotonic() + 10
    while str(unit.unit.controller.ui().mode) != "play" and time.monotonic() < end:
        time.sleep(0.05)
    return unit


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=10_000, help="hypothesis examples")
    parser.add_argument("--seed", type=int, default=1, help="derandomized (0: random)")
    parser.add_argument("--port", help="a unit's link URL (default: in-process, read-only)")
    parser.add_argument("--test-mode", action="store_true",
                        help="a unit in test mode, nested frames only (all refused)")  # fmt: skip
    args = parser.parse_args(argv)
    unit = None if args.port else live_unit(args.test_mode)
    url = args.port or unit.url
    started = time.perf_counter()
    try:
        with LinkClient(url, timeout=10) as client:
            frames = DEEP if args.test_mode else FRAMES
            out = fuzz(client, args.frames, args.seed or None, frames)
            stats = client.request("stats")
    finally:
        if unit is not None:
            unit.close()
    ms = sorted(out.answer_ms) or [0.0]
    took = time.perf_counter() - started
    if out.problems:
        print(f"{out.examples} hypothesis frames: {len(out.problems)} problems")
    else:
        print(f"{out.examples} hypothesis frames in {took:.1f} s: state unchanged after every "
              f"one; the next request answered in median {ms[len(ms) // 2]:.1f} ms, p99 "
              f"{ms[int(len(ms) * 0.99)]:.1f} ms, max {ms[-1]:.1f} ms")  # fmt: skip
    print(f"unit counted: {stats}")
    for problem in out.problems[:10]:
        print(f"PROBLEM: {problem}", file=sys.stderr)
    return 1 if out.problems else 0


if __name__ == "__main__":
    sys.exit(main())
