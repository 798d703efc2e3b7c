"""The link against lab tools as they ship (issue 26): Debian's ser2net exporting the
unit as RFC 2217, a virtual-clock unit behind a slow link.

The ser2net tests start a real ``ser2net`` on 127.0.0.1 and are skipped, with the
reason, where it is not installed (``apt-get install ser2net``).
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from firmware.games.switch16.hil_scenarios import block_mid_discard, refused_green
from firmware.link import unit_driver
from firmware.link.cable import Ser2net, ser2net_path
from firmware.link.client import LinkClient
from firmware.link.harness import Harness
from firmware.link.ports import port_url
from firmware.link.pytest_plugin import InProcessUnit
from firmware.link.suite import protocol_steps
from firmware.link.target import MockTarget


@pytest.fixture
def ser2net() -> None:
    if ser2net_path() is None:
        reason = "ser2net is not installed (apt-get install ser2net): lab tests skipped"
        print(reason)
        pytest.skip(reason)


@pytest.fixture
def labgrid() -> None:
    if importlib.util.find_spec("labgrid") is None:
        reason = "labgrid is not installed (pip install -e '.[lab]'): --lg-env test skipped"
        print(reason)
        pytest.skip(reason)


def test_rfc2217_urls_ignore_the_control_answer_unless_they_say() -> None:
    assert port_url("rfc2217://lab:4001") == "rfc2217://lab:4001?ign_set_control"
    assert port_url("rfc2217://lab:4001?logging=debug") == (
        "rfc2217://lab:4001?logging=debug&ign_set_control")  # fmt: skip
    assert port_url("rfc2217://lab:4001?ign_set_control") == "rfc2217://lab:4001?ign_set_control"
    assert port_url("socket://lab:4001") == "socket://lab:4001"
    assert port_url("/dev/ttyUSB0") == "/dev/ttyUSB0"


def test_the_documented_url_reaches_a_unit_through_a_real_ser2net(ser2net: None) -> None:
    """``rfc2217://host:port`` as docs/LINK.md writes it, against ser2net 4.x as it
    ships (``accepter: telnet(rfc2217),tcp,…``): pyserial alone times out waiting for
    option 'control'."""
    with InProcessUnit() as unit, Ser2net(unit.url) as bridge:
        assert "?" not in bridge.url
        with LinkClient(bridge.url) as client:
            assert client.request("hello")["protocol"] == 1
            assert client.image(0).size == (128, 64)


def test_switch16_hil_port_through_a_real_ser2net_on_a_virtual_clock(ser2net: None) -> None:
    """``switch16 hil --port rfc2217://127.0.0.1:PORT SCRIPT`` against a virtual-clock
    unit exported by ser2net: every step passes (the harness advances the clock)."""
    script = Path(__file__).parent / "scripts" / "refused_green.hil"
    with MockTarget("ser2net", virtual_clock=True) as target:
        target.connect().close()
        done = subprocess.run([sys.executable, "-m", "firmware.cli", "hil", "--port",
                               target.url, str(script)], capture_output=True, text=True,
                              timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "'clock': 'virtual'" in done.stdout and "PASS: 22/22 steps" in done.stdout


def test_the_harness_through_a_real_ser2net_on_a_real_clock(ser2net: None) -> None:
    with MockTarget("ser2net") as target:
        harness = Harness(target.connect())
        assert not harness.virtual
        protocol_steps(harness)
        with harness.step("block mid-discard"):
            block_mid_discard(harness)
        assert harness.report.ok, harness.report.text()


def test_on_a_virtual_clock_the_harness_waits_in_unit_time_however_slow_the_link(
        monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    """A virtual-clock unit behind a slow link (ser2net as it ships: ~44 ms a request):
    the harness's waits are unit time it advances, not wall time. Here every request
    costs the harness 1 s of its wall clock; a roll-off of 0.2 s must still be waited
    out (it failed "the game starts: not within 10 s … (rolloff)")."""
    wall = [0.0]
    fake = types.SimpleNamespace(monotonic=lambda: wall[0], perf_counter=lambda: wall[0],
                                 sleep=lambda s: None)  # fmt: skip
    monkeypatch.setattr(unit_driver, "time", fake)
    with InProcessUnit(virtual_clock=True) as unit, LinkClient(unit.url) as client:
        real_request = client.request

        def slow(op: str, timeout: float | None = None, **fields: Any) -> dict[str, Any]:
            wall[0] += 1.0
            return real_request(op, timeout, **fields)

        client.request = slow  # type: ignore[method-assign]
        harness = Harness(client)
        assert harness.virtual
        with harness.step("refused green"):
            refused_green(harness)
        assert harness.report.ok, harness.report.text()


def test_pytest_lg_env_runs_the_link_tests_on_every_unit_of_a_rig(
        ser2net: None, labgrid: None, tmp_path: Path) -> None:  # fmt: skip
    """``pytest tests/hil --lg-env FILE``: the ``hil_client`` tests run once per target,
    each on the URL of its serial resource. One unit process, reached as two targets:
    ``cable`` (a RawSerialPort: the pty end itself) and ``exported`` (a
    NetworkSerialPort: that end exported by a real ser2net, RFC 2217)."""
    with MockTarget("ser2net") as target:
        assert isinstance(target.bridge, Ser2net)
        target.connect().close()
        env = tmp_path / "rig.yaml"
        env.write_text(
            "targets:\n"
            "  cable:\n    resources:\n      RawSerialPort:\n"
            f"        port: {target.pair.ends[1]}\n"
            "  exported:\n    resources:\n      NetworkSerialPort:\n"
            f"        host: 127.0.0.1\n        port: {target.bridge.port}\n",
            encoding="utf-8",
        )
        root = Path(__file__).resolve().parents[2]
        done = subprocess.run([sys.executable, "-m", "pytest", "tests/hil/test_link.py", "-k",
                               "read_only", "--lg-env", str(env), "-p", "no:cacheprovider",
                               "-n", "0", "-vv"], cwd=root, capture_output=True, text=True,
                              timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "test_read_only_ops[cable] PASSED" in done.stdout
    assert "test_read_only_ops[exported] PASSED" in done.stdout
