"""The ``switch16 selftest`` command: arguments, errors, exit status, the printed report."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import firmware.selftest
from firmware.cli import build_parser, main
from firmware.commands.selftest import STEP_NAMES
from firmware.selftest import SelfTest, Step
from hal.config import UnitConfig
from tests.selftest.conftest import NO, selftest_on


def test_arguments_parse() -> None:
    args = build_parser().parse_args(
        ["selftest", "--config", "u.toml", "--hal", "pi", "--timeout", "5", "--skip", "shaker,leds"]
    )
    assert (args.command, args.config, args.hal, args.timeout) == ("selftest", "u.toml", "pi", 5.0)
    assert args.skip == ("shaker", "leds")
    defaults = build_parser().parse_args(["selftest"])
    assert (defaults.timeout, defaults.skip, defaults.config) == (30.0, (), None)
    assert STEP_NAMES.split(",") == list(Step)


@pytest.mark.parametrize(
    "bad", [["--skip", "shaker,lights"], ["--timeout", "0"], ["--timeout", "x"]]
)
def test_bad_arguments_are_usage_errors(bad: list[str], capsys: pytest.CaptureFixture) -> None:
    with pytest.raises(SystemExit) as info:
        build_parser().parse_args(["selftest", *bad])
    assert info.value.code == 2
    assert "selftest" in capsys.readouterr().err


def test_a_bad_config_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    bad = tmp_path / "unit.toml"
    bad.write_text("[unit]\nseats = 9\n")
    assert main(["selftest", "--config", str(bad)]) == 2
    assert "unit.seats" in capsys.readouterr().err


def test_hardware_that_cannot_start_exits_1_with_a_hint(capsys: pytest.CaptureFixture) -> None:
    assert main(["selftest", "--hal", "no-such-backend"]) == 1
    err = capsys.readouterr().err
    assert "unknown HAL backend 'no-such-backend'" in err
    assert "sudo systemctl stop switch16" in err


def _on_mock(monkeypatch: pytest.MonkeyPatch, pi: Any, maker: Any) -> None:
    """Make the command use the mocked Pi, and the maker answer its self-test."""

    def open_backend(name: str | None, config: UnitConfig, **kwargs: Any) -> Any:
        return pi.hal

    class Answered(SelfTest):
        def __init__(self, hal: Any, config: UnitConfig, **kwargs: Any) -> None:
            super().__init__(hal, config, block=maker.block, **kwargs)
            maker.selftest = self

    monkeypatch.setattr(firmware.selftest, "open_backend", open_backend)
    monkeypatch.setattr(firmware.selftest, "SelfTest", Answered)


def test_a_good_build_exits_0(
    reference: UnitConfig, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    with selftest_on(reference) as bench:
        pi, maker = bench.pi, bench.maker
        _on_mock(monkeypatch, pi, maker)
        assert main(["selftest"]) == 0
        assert pi.hal._closed  # the command closed the HAL: displays off, pins released
        assert all(e.lit() == 0 for e in pi.displays)
    out = capsys.readouterr().out
    assert "Buttons: on every seat press YES, then NO, then CHIP (30 s each)." in out
    assert out.rstrip().endswith("Result: PASS (22 passed, 0 failed, 0 skipped)")


def test_a_missing_press_exits_1_naming_it(
    reference: UnitConfig, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    with selftest_on(reference) as bench:
        pi, maker = bench.pi, bench.maker
        _on_mock(monkeypatch, pi, maker)
        maker.broken = {(0, NO)}
        assert main(["selftest", "--timeout", "8", "--skip", "buzzer"]) == 1
    out = capsys.readouterr().out
    assert "seat 1 NO       FAIL     seat 1.buttons.no    GPIO 27 (pin 13)" in out
    assert "not pressed within 8 s" in out
    assert "buzzer          SKIPPED" in out
    assert out.rstrip().endswith("Result: FAIL: seat 1 NO (20 passed, 1 failed, 1 skipped)")


def test_ctrl_c_prints_the_partial_report(
    reference: UnitConfig, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    with selftest_on(reference) as bench:
        pi, maker = bench.pi, bench.maker
        _on_mock(monkeypatch, pi, maker)
        maker.interrupt_in = Step.BUTTONS
        assert main(["selftest"]) == 1
        assert all(e.lit() == 0 for e in pi.displays)
    out = capsys.readouterr().out
    assert "Interrupted: the report shows what was checked so far." in out
    assert "seat 1 display  PASS" in out and "seat 1 YES      SKIPPED" in out
    assert "Result: INTERRUPTED, no failures so far (" in out
