"""What a newcomer meets first (issue 10): commands that used to crash or mislead."""

from __future__ import annotations

import io
import logging
from pathlib import Path

import pytest

from firmware import cli
from sim.options import parse_args, preset_setup


@pytest.mark.parametrize("argv", [["--rules", "tablier"], ["--points"]])
def test_sim_game_options_without_players_or_bots(argv: list[str]) -> None:
    setup = preset_setup(parse_args(argv))
    assert setup is not None and setup.players == 2 and setup.seats == ("human", "human")


def test_run_without_gpio_says_what_to_do(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from gpiozero import Device

    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "no-such-factory")  # as on a laptop
    monkeypatch.setattr(Device, "pin_factory", None)
    with caplog.at_level(logging.ERROR):
        assert cli.main(["run", "--state-dir", str(tmp_path)]) == 1
    assert "no GPIO here" in caplog.text and "sim" in caplog.text
    assert cli.main(["selftest"]) == 1


@pytest.mark.parametrize("command", ["run", "selftest"])
def test_the_sim_backend_is_refused_with_a_pointer_to_sim(
    command: str, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    assert cli.main([command, "--hal", "sim"]) == 2
    said = capsys.readouterr().err + caplog.text
    assert "run `sim` instead" in said


@pytest.mark.parametrize("option", ["--save", "--plots"])
def test_selfplay_into_a_directory_it_cannot_write(
    option: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as done:
        cli.main(["selfplay", "--games", "2", option, "/proc/nope"])
    assert done.value.code == 2
    assert f"{option}: /proc/nope: " in capsys.readouterr().err


def test_replay_wording_and_standard_input(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["replay", "/no/such/file.jsonl"]) == 1
    assert "ERROR: cannot read: No such file or directory" in capsys.readouterr().out
    header = '{"switch16": 1, "players": 2, "first": 1, "rules": "pressman-2003"}\n'
    monkeypatch.setattr("sys.stdin", io.StringIO(header))
    assert cli.main(["replay", "-"]) == 0
    assert "seat 2 started" in capsys.readouterr().out  # "first": 1 reads seat 2


@pytest.mark.parametrize("main", ["firmware.cli", "sim.app"])
def test_version(main: str, capsys: pytest.CaptureFixture[str]) -> None:
    import importlib

    with pytest.raises(SystemExit) as done:
        importlib.import_module(main).main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out.split()[1][0].isdigit()
