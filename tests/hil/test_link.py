"""The serial link and the HIL harness (docs/LINK.md).

``hil_client`` is an in-process mocked unit over a pty unless ``--hil-port URL`` is
given (firmware/link/pytest_plugin.py): then the same tests run against that unit.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from firmware.games.switch16.config import Switch16Timing
from firmware.link.client import LinkClient, LinkError
from firmware.link.harness import Harness
from firmware.link.press_play import play_by_presses
from firmware.link.protocol import FrameError, FrameSplitter, decode, encode
from firmware.link.pytest_plugin import InProcessUnit
from firmware.link.suite import block_mid_discard, protocol_steps, refused_green
from firmware.link.target import MockTarget


# ------------------------------------------------------------------ protocol
def test_frames_round_trip_and_bad_frames_name_the_problem() -> None:
    frame = encode({"id": 1, "op": "hello"})
    assert frame.endswith(b"\n") and decode(frame[:-1]) == {"v": 1, "id": 1, "op": "hello"}
    with pytest.raises(FrameError, match=r"checksum .* does not match") as exc:
        decode(frame[:-2] + b"0")
    assert exc.value.code == "checksum"
    body = b'{"v":1,"op":"x"}'
    with pytest.raises(FrameError, match="no '\\*'"):
        decode(body)
    with pytest.raises(FrameError, match="field 'v' is 2"):
        decode(encode({"v": 2, "op": "x"})[:-1])
    with pytest.raises(FrameError, match="JSON object, not list"):
        decode(encode({"v": 1})[:-1].replace(b'{"v":1}', b"[1]").rsplit(b"*", 1)[0]
               + b"*" + b"%08x" % __import__("zlib").crc32(b"[1]"))  # fmt: skip


def test_splitter_drops_overlong_and_stale_partial_frames() -> None:
    now = [0.0]
    splitter = FrameSplitter(64, clock=lambda: now[0])
    out = splitter.feed(b"x" * 100 + b"tail\n" + encode({"op": "a"}))
    assert [r.error.code if r.error else r.message["op"] for r in out] == ["overlong", "a"]
    splitter.feed(b'{"v":1,"op":"half')  # the peer vanishes mid-frame
    now[0] = 2.0
    out = splitter.feed(encode({"op": "b"}))
    assert [r.error.code if r.error else r.message["op"] for r in out] == ["stale", "b"]


# ------------------------------------------------------------- in-process
def test_read_only_ops(hil_client: LinkClient) -> None:
    hello = hil_client.request("hello")
    assert hello["protocol"] == 1 and hello["seats"] >= 2
    assert set(hil_client.request("state")) >= {"state", "mode", "actions"}
    image = hil_client.image(0)
    assert image.size == (128, 64)
    assert hil_client.request("subscribe", events=["phase"]) == {"events": ["phase"]}
    ui = hil_client.request("ui", glass=True)
    assert {"mode", "menus", "banners", "tumble", "lines", "pending"} <= set(ui)
    assert len(ui["glass"]) == hello["seats"] and ui["glass"][0]["width"] == 128
    with pytest.raises(LinkError, match="bad_field: field 'events'"):
        hil_client.request("subscribe", events=["everything"])


def test_bad_input_and_scenarios_by_the_harness(hil_client: LinkClient) -> None:
    harness = Harness(hil_client)
    protocol_steps(harness)
    with harness.step("block mid-discard"):
        block_mid_discard(harness, {})
    with harness.step("refused green"):
        refused_green(harness, {})
    print(harness.report.text())
    assert harness.report.ok, harness.report.text()
    assert harness.report.frames_checked > 0 and harness.report.press_to_frame


def test_a_production_unit_refuses_test_ops_and_changes_nothing() -> None:
    unit = InProcessUnit(test_mode=False)
    try:
        with LinkClient(unit.url) as client:
            before = client.request("state")
            refused = [("press", {"seat": 0, "button": "yes"}), ("shake", {"ms": 500}),
                       ("dice", {"rolls": []}), ("newgame", {"seats": ["human"] * 2})]  # fmt: skip
            for op, fields in refused:
                with pytest.raises(LinkError, match="not_test_mode"):
                    client.request(op, **fields)
            time.sleep(0.2)
            after = client.request("state")
            assert (after["state"], after["mode"], after["actions"]) == (
                before["state"], before["mode"], before["actions"])  # fmt: skip
            assert unit.pi.hal.events.empty()
    finally:
        unit.close()


def test_fuzzed_frames_leave_the_state_alone() -> None:
    """The hypothesis fuzz of tools/link_fuzz.py, short: 400 random frames to a
    read-only unit mid-game; after each its state is the same and it answers."""
    from tools.link_fuzz import fuzz, live_unit

    unit = live_unit()
    try:
        with LinkClient(unit.url, timeout=10) as client:
            assert client.request("state")["mode"] == "play"
            out = fuzz(client, 400)
            assert not out.problems and out.examples == 400
            assert client.request("stats")["bad"] > 50
    finally:
        unit.close()


# ------------------------------------------------- another process, cables
@pytest.mark.parametrize("via", ["pty", "socket", "rfc2217"])
def test_harness_against_a_mocked_unit_process(via: str) -> None:
    with MockTarget(via) as target:
        harness = Harness(target.connect())
        protocol_steps(harness)
        with harness.step("block mid-discard"):
            block_mid_discard(harness, {})
        if via == "pty":
            with harness.step("power cut"):
                harness.new_game(["human", "expert"], "pressman-2003")
                play_by_presses(harness, "switch16", 20, max_turns=3)
                lines = harness.c.request("transcript")["lines"]
                harness.c = target.power_cut()
                harness.wait_for("resumed", lambda s: s["mode"] == "play", timeout=10)
                assert harness.c.request("transcript")["lines"][: len(lines)] == lines
        assert harness.report.ok, harness.report.text()


def test_advance_moves_a_virtual_clock_and_nothing_else_does() -> None:
    """On a virtual clock the roll-off, a press and the bot wait for ``advance``."""
    unit = InProcessUnit(virtual_clock=True)
    try:
        with LinkClient(unit.url, timeout=10) as client:
            assert client.request("hello")["clock"] == "virtual"
            t0 = client.request("state")["time"]
            assert client.request("advance", seconds=1.5)["time"] == pytest.approx(t0 + 1.5)
            client.request("newgame", seats=["human", "expert"], rules="tablier", first=0)
            time.sleep(0.4)  # real time: the roll-off (0.2 s of unit time) stays up
            assert client.request("state")["mode"] == "rolloff"
            client.request("advance", seconds=0.5)
            st = client.request("state")
            assert (st["mode"], st["state"]["turn"], st["actions"]) == ("play", 0, 0)
            client.request("press", seat=0, button="yes", ms=60)
            time.sleep(0.3)  # the debouncer and the tumble wait for unit time too
            assert client.request("state")["actions"] == 0
            client.request("advance", seconds=0.2)
            assert client.request("state")["actions"] >= 1  # rolled
            with pytest.raises(LinkError, match="bad_field"):
                client.request("advance", seconds=-1)
    finally:
        unit.close()
    with (InProcessUnit() as real, LinkClient(real.url) as client,
          pytest.raises(LinkError, match="real_clock")):  # fmt: skip
        client.request("advance", seconds=1)


@pytest.mark.parametrize(("name", "steps"), [("refused_green.hil", 22),
                                              ("swytch_opening.hil", 10)])  # fmt: skip
def test_a_hil_script_through_switch16_hil(name: str, steps: int) -> None:
    """``switch16 hil --mock pty SCRIPT``: the example scripts pass (Swytch's through
    ``newgame … game=swytch``), exit status 0."""
    script = Path(__file__).parent / "scripts" / name
    done = subprocess.run([sys.executable, "-m", "firmware.cli", "hil", "--mock", "pty",
                           "--clock", "virtual", str(script)], capture_output=True, text=True,
                          timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "FAIL" not in done.stdout and f"PASS: {steps}/{steps} steps" in done.stdout


def test_a_failing_script_exits_1(tmp_path: Path) -> None:
    script = tmp_path / "wrong.hil"
    script.write_text('newgame human,human first=1\nexpect text 0 "no such words"\n')
    done = subprocess.run([sys.executable, "-m", "firmware.cli", "hil", "--mock", "pty",
                           "--clock", "virtual", str(script)], capture_output=True, text=True,
                          timeout=120)  # fmt: skip
    assert done.returncode == 1 and "FAIL wrong.hil:2" in done.stdout


def test_harness_against_sim_headless_with_the_link() -> None:
    """``sim --headless --link socket://… --players 2`` in another process: the harness
    plays it by presses (virtual clock) and checks every frame; a power cut resumes."""
    with MockTarget("socket", sim=True, virtual_clock=True) as target:
        harness = Harness(target.connect())
        assert harness.hello["input"] == "simulator input" and harness.hello["seats"] == 2
        protocol_steps(harness)
        with harness.step("refused green"):
            refused_green(harness, {})
        with harness.step("a whole game"):
            harness.new_game(["human", "expert"], "pressman-2003")
            play_by_presses(harness, "switch16", 60)
            harness.check_all_frames("game over")
        with harness.step("power cut"):
            harness.new_game(["human", "human"], "tablier", first=0)
            harness.press(0, "yes")
            harness.wait_for("a roll", lambda s: s["actions"] >= 1)
            lines = harness.c.request("transcript")["lines"]
            harness.c = target.power_cut()
            harness.wait_for("resumed", lambda s: s["mode"] == "play", timeout=10)
            assert harness.c.request("transcript")["lines"] == lines
            harness.check_all_frames("resumed")
        assert harness.report.ok, harness.report.text()
        assert harness.report.frames_checked > 50


def test_advance_next_stops_at_the_units_next_deadline() -> None:
    """``advance`` with ``next``: up to the next thing the unit does by itself (the
    roll-off's end here), never past ``seconds``; with nothing due, ``seconds``."""
    with InProcessUnit(virtual_clock=True) as unit, LinkClient(unit.url) as client:
        client.request("newgame", seats=["human", "expert"], rules="tablier", first=0)
        t0 = client.request("state")["time"]
        t1 = client.request("advance", seconds=30, next=True)["time"]
        assert t0 < t1 < t0 + 30
        assert client.request("advance", seconds=0.001, next=True)["time"] <= t1 + 0.001 + 1e-9
        steps = 0
        while client.request("state")["mode"] != "play":
            client.request("advance", seconds=30, next=True)
            steps += 1
            assert steps < 50
        assert client.request("state")["time"] < t0 + 1  # the 0.2 s roll-off, not 30 s


def test_the_scenarios_pass_with_the_reference_timing() -> None:
    """A lab runs the unit as it ships (``hardware/unit.toml``): a turn-ending roll stays
    up ``roll_show_s`` and takes the next press, which acted for nothing before."""
    pace = Switch16Timing()
    timing = {"roll_show_s": pace.roll_show, "discard_window_s": pace.discard_window}
    assert timing["roll_show_s"] > 0
    with InProcessUnit(virtual_clock=True, timing=timing) as unit, LinkClient(unit.url) as client:
        harness = Harness(client)
        with harness.step("block mid-discard"):
            block_mid_discard(harness, {})
        with harness.step("refused green"):
            refused_green(harness, {})
        assert harness.report.ok, harness.report.text()
