"""docs/LINK.md and the unit agree (issue 26): the doc's examples are real frames
whose results carry the fields the unit sends, the order of checks is the doc's table,
and each place the two disagreed has a test of the behaviour the doc now states.
"""

from __future__ import annotations

import base64
import itertools
import json
import re
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from firmware.link import ops, server
from firmware.link.client import LinkClient
from firmware.link.protocol import MAX_REQUEST, FrameError, decode, encode
from firmware.link.pytest_plugin import InProcessUnit

DOC = Path(__file__).resolve().parents[2] / "docs" / "LINK.md"


def _examples() -> list[tuple[str, bytes]]:
    """Every example frame of the doc: (direction, frame without its newline)."""
    return [(m.group(1), m.group(2).encode("ascii"))
            for m in re.finditer(r"^([<>]) (\{.*)$", DOC.read_text("utf-8"), re.M)]  # fmt: skip


def _crc_frame(body: bytes) -> bytes:
    return body + b"*" + b"%08x" % zlib.crc32(body) + b"\n"


def _error(client: LinkClient, frame: bytes) -> dict[str, Any]:
    """The error reply to one raw frame."""
    client.drain_events()
    client.write(frame)
    got = client.wait_event(lambda m: m.get("ok") is False, 3.0)
    assert got is not None, f"no error reply to {frame[:80]!r}"
    return got.message


@pytest.fixture
def unit() -> Iterator[InProcessUnit]:
    """A test-mode unit on a virtual clock (so ``advance`` works), error replies not
    rate-limited (these tests send many bad frames on purpose)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(server, "ERROR_REPLIES_PER_S", 10**6)
        with InProcessUnit(virtual_clock=True) as u:
            yield u


@pytest.fixture
def client(unit: InProcessUnit) -> Iterator[LinkClient]:
    with LinkClient(unit.url, timeout=10) as c:
        yield c


# ------------------------------------------------------------- examples
def test_every_example_in_the_doc_is_a_real_frame() -> None:
    """Every frame decodes, but the request of the bad-checksum example, which must
    fail as its reply says."""
    examples = _examples()
    assert len(examples) > 30
    replies = {i: decode(f) for i, (way, f) in enumerate(examples) if way == "<"}
    for i, (way, frame) in enumerate(examples):
        code = replies.get(i + 1, {}).get("error", {}).get("code")
        if way == ">" and code == "checksum":
            with pytest.raises(FrameError, match="does not match"):
                decode(frame)
        else:
            assert decode(frame)["v"] == 1


def test_the_doc_examples_results_have_the_fields_the_unit_sends(client: LinkClient) -> None:
    """Each example request sent to a unit: its result has exactly the example reply's
    keys (``ui`` had an undocumented ``reviews``)."""
    client.request("advance", seconds=5)  # the start-up screens are shown
    examples = _examples()
    checked = set()
    for (way, request), (way2, reply) in itertools.pairwise(examples):
        if way != ">" or way2 != "<" or not (want := decode(reply)).get("ok"):
            continue
        message = decode(request)
        fields = {k: v for k, v in message.items() if k not in ("v", "id", "op")}
        result = client.request(message["op"], **fields)
        assert sorted(result) == sorted(want["result"]), message["op"]
        checked.add(message["op"])
    assert checked >= set(ops.READ_OPS) | set(ops.TEST_OPS)


# ------------------------------------------------------- disagreements
def test_a_frames_crc_is_the_crc32_of_its_bytes(client: LinkClient) -> None:
    """``frame``'s ``crc``, ``ui``'s ``sent`` and the ``frame`` event's ``crc`` are
    CRC-32s as the doc says (they were a SHA-256 prefix)."""
    client.request("subscribe", events=["frame"])
    client.request("newgame", seats=["human", "human"], rules="tablier", first=0)
    client.request("advance", seconds=5)
    ui = client.request("ui", glass=True)
    assert not ui["pending"]
    for seat, glass in enumerate(ui["glass"]):
        data = base64.b64decode(glass["data"])
        assert glass["crc"] == f"{zlib.crc32(data):08x}"
        assert ui["sent"][seat] == glass["crc"]  # the mocked glass shows what was sent
    client.request("press", seat=0, button="chip", ms=60)
    client.request("advance", seconds=1)
    seat0 = [a.message["crc"] for a in client.drain_events()
             if a.message.get("event") == "frame" and a.message["seat"] == 0]  # fmt: skip
    data = base64.b64decode(client.request("frame", seat=0)["data"])
    assert seat0 and seat0[-1] == f"{zlib.crc32(data):08x}"


def test_version_true_is_not_version_1(client: LinkClient) -> None:
    reply = _error(client, _crc_frame(b'{"v":true,"id":1,"op":"hello"}'))
    assert reply["error"]["code"] == "version"


def test_a_request_without_an_id_is_refused_and_not_executed(client: LinkClient) -> None:
    body = json.dumps({"v": 1, "op": "dice", "rolls": [{"dice": [6], "switch": "block"}]},
                      separators=(",", ":")).encode()  # fmt: skip
    reply = _error(client, _crc_frame(body))
    assert (reply["id"], reply["error"]["code"]) == (None, "bad_field")
    assert "'id' is missing" in reply["error"]["message"]
    assert client.request("dice", rolls=[])["queued"] == 0  # the roll was not queued


@pytest.mark.parametrize("bad", ["7", 1.5, True, -1, 2**53, None])
def test_an_id_of_the_wrong_kind_or_range_is_bad_field(client: LinkClient, bad: Any) -> None:
    body = json.dumps({"v": 1, "id": bad, "op": "hello"}, separators=(",", ":")).encode()
    reply = _error(client, _crc_frame(body))
    assert (reply["id"], reply["error"]["code"]) == (None, "bad_field")
    assert "field 'id'" in reply["error"]["message"] and "2^53-1" in reply["error"]["message"]


def test_the_largest_id_is_answered(client: LinkClient) -> None:
    client.drain_events()
    client.write(encode({"id": 2**53 - 1, "op": "hello"}))
    got = client.wait_event(lambda m: "ok" in m, 3)
    assert got is not None and got.message["ok"] and got.message["id"] == 2**53 - 1


def test_a_missing_op_is_bad_field_with_the_id_echoed(client: LinkClient) -> None:
    reply = _error(client, encode({"id": 41}))
    assert (reply["id"], reply["error"]["code"]) == (41, "bad_field")
    assert "'op' is missing" in reply["error"]["message"]


def test_a_crlf_line_end_is_framing_and_a_cr_in_the_json_encoding(client: LinkClient) -> None:
    frame = encode({"id": 5, "op": "hello"})
    reply = _error(client, frame[:-1] + b"\r\n")
    assert reply["error"]["code"] == "framing"  # the checksum is then 9 bytes: not 8 hex
    body = b'{"v":1,"id":5,"op":"hello"}\r'
    reply = _error(client, _crc_frame(body))
    assert reply["error"]["code"] == "encoding" and "0x0d" in reply["error"]["message"]


def test_state_actions_count_the_actions_of_the_game_shown(client: LinkClient) -> None:
    """``actions`` is the game's transcript's action count (it counted across games)."""
    for _ in range(2):
        client.request("newgame", seats=["human", "expert"], rules="tablier", first=0)
        client.request("advance", seconds=1)
        assert client.request("state")["actions"] == 0
        client.request("press", seat=0, button="yes", ms=60)
        client.request("advance", seconds=8)  # the roll, then the bot's turn
        actions = client.request("state")["actions"]
        lines = client.request("transcript")["lines"]
        assert actions >= 2 and actions == len(lines) - 1
        assert client.request("ui")["actions"] == actions


# ------------------------------------------------------ order of checks
def _order() -> list[str]:
    """The doc's table of checks, in its order: each row's key (its error code; for
    ``bad_field`` the field it names: ``id``, ``op``, or ``fields``)."""
    text = DOC.read_text("utf-8")
    table = text[text.index("The unit checks a frame in this order") :]
    table = table[table.index("| problem | error |") : table.index("\n\n", table.index("|"))]
    keys = []
    for row in table.splitlines()[2:]:
        problem, error = (cell.strip() for cell in row.strip("|").split("|"))
        code = re.match(r"`(\w+)`", error)
        assert code is not None, row
        key = code.group(1)
        if key == "bad_field":
            named = re.match(r"`(\w+)`", problem)
            key = named.group(1) if named else "fields"
        keys.append(key)
    return keys


#: How to give a request each problem, by the level it lives at: the message, its
#: JSON body, its bytes, its checksum, the frame. Problems touching the same part
#: (``op``, the checksum) cannot be combined.
MESSAGE: dict[str, Callable[[dict[str, Any]], None]] = {
    "version": lambda m: m.update(v=True),
    "id": lambda m: m.update(id="5"),
    "op": lambda m: m.pop("op"),
    "unknown_op": lambda m: m.update(op="explode"),
    "not_test_mode": lambda m: m.update(op="press", button="yes"),
    "fields": lambda m: m.update(seat="one"),
}
BODY: dict[str, Callable[[bytes], bytes]] = {
    "malformed": lambda b: b"[" + b + b"]",
    "json": lambda b: b + b"}",
    "encoding": lambda b: b[:1] + b"\x80" + b[1:],
}
SAME_PART = [{"op", "unknown_op", "not_test_mode"}, {"framing", "checksum"}]
ERROR = {"id": "bad_field", "op": "bad_field", "fields": "bad_field"}


def _frame_with(problems: set[str]) -> bytes:
    message: dict[str, Any] = {"v": 1, "id": 5, "op": "frame", "seat": 0}
    for key, change in MESSAGE.items():
        if key in problems:
            change(message)
    body = json.dumps(message, separators=(",", ":")).encode()
    for key in ("malformed", "json", "encoding"):
        if key in problems:
            body = BODY[key](body)
    check = b"%08x" % zlib.crc32(body)
    if "checksum" in problems:
        check = b"%08x" % (zlib.crc32(body) ^ 1)
    if "framing" in problems:
        check = check.upper().replace(b"0", b"G")  # not 8 lowercase hex digits
    frame = body + b"*" + check
    if "overlong" in problems:
        frame = body + b" " * MAX_REQUEST + b"*" + check
    return frame + b"\n"


def test_checks_run_in_the_order_the_doc_gives() -> None:
    """For every two rows of the doc's table, a frame with both problems gets the
    error of the earlier row (on a production unit, so ``not_test_mode`` applies)."""
    order = _order()
    assert set(order) == set(MESSAGE) | set(BODY) | {"overlong", "framing", "checksum"}
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(server, "ERROR_REPLIES_PER_S", 10**6)
        with InProcessUnit(test_mode=False) as unit, LinkClient(unit.url) as client:
            pairs = 0
            for i, first in enumerate(order):
                for later in order[i + 1 :]:
                    if any({first, later} <= part for part in SAME_PART):
                        continue
                    frame = _frame_with({first, later})
                    reply = _error(client, frame)
                    got = reply["error"]["code"]
                    assert got == ERROR.get(first, first), (first, later, reply)
                    if first in ("id", "op"):
                        assert f"field '{first}'" in reply["error"]["message"]
                    pairs += 1
            assert pairs > 50
