"""Values a user gives that used to crash, hang or pass without a word (issue 22): a
usage error at start naming the option (exit 2), and where things are written."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

import pygame
import pytest

from firmware import cli
from sim import app

ROOT = Path(__file__).resolve().parents[1]
GAME = str(ROOT / "tests" / "fixtures" / "transcripts" / "complete_game.jsonl")


@pytest.mark.parametrize(
    ("main", "argv", "option"),
    [
        (app.main, ["--headless", "--shots-every", "0"], "--shots-every"),
        (app.main, ["--headless", "--out", "/etc/passwd"], "--out"),  # a file
        (app.main, ["--headless", "--out", "/proc/x"], "--out"),  # root cannot write there either
        (app.main, ["--state-dir", "/etc/passwd", "--players", "2"], "--state-dir"),
        (app.main, ["--shots", "/proc/x", "--players", "2", "--bots", "2"], "--shots"),
        (app.main, ["--headless", "--link", "bogus://x"], "--link"),
        (app.main, ["--link", "bogus://x"], "--link"),
        (app.main, ["--replay", GAME, "--speed", "0"], "--speed"),
        (app.main, ["--replay", GAME, "--headless", "--lines", ""], "--lines"),
        (app.main, ["--replay", GAME, "--headless", "--lines", ","], "--lines"),
        (app.main, ["--fps", "0"], "--fps"),
        (cli.main, ["review", GAME, "--plots", "/proc/x"], "--plots"),
        (cli.main, ["review", GAME, "--plots", "/etc/passwd/x"], "--plots"),  # under a file
        (cli.main, ["replay", GAME, "--jobs", "-3"], "--jobs"),
        (cli.main, ["replay", GAME, "--jobs", "0"], "--jobs"),
        (cli.main, ["run", "--link", "bogus://x"], "--link"),
        (cli.main, ["hil", "--port", "bogus://x"], "--port"),
        (cli.main, ["hil", "--mock", "pty", "--game-seconds", "0"], "--game-seconds"),
        (cli.main, ["hil", "--mock", "pty", "/no/such.hil"], "SCRIPT"),
        (cli.main, ["hil", "--mock", "pty", "--games", "chess"], "--games"),
        (cli.main, ["selfplay", "--rules", "nope"], "--rules"),
        (cli.main, ["selfplay", "--games", "0"], "--games"),
    ],
)
def test_refused_at_start_naming_the_option(
    main: Callable[[list[str]], int],
    argv: list[str],
    option: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as done:
        main(argv)
    assert done.value.code == 2
    err = capsys.readouterr().err
    assert f"argument {option}" in err or f"error: {option}:" in err, err


def test_naming_a_directory_creates_nothing(tmp_path: Path) -> None:
    from sim.options import parse_args

    args = parse_args(["--shots", str(tmp_path / "a" / "b"), "--out", str(tmp_path / "c")])
    assert args.shots == tmp_path / "a" / "b" and not any(tmp_path.iterdir())


def test_a_screenshot_that_cannot_be_saved_is_said_and_the_game_goes_on(
    caplog: pytest.LogCaptureFixture,
) -> None:
    from sim.hal import SimHal
    from sim.window import SimWindow

    pygame.display.init()
    pygame.font.init()
    try:
        window = SimWindow(SimHal(seats=2), scale=2, shots="/proc/x")
        window.draw()
        with caplog.at_level(logging.ERROR):
            window.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_p, mod=0, unicode="p"))
        assert window.running and window.last_shot is None
        assert window.shot_note.startswith("screenshot not saved: ")
        assert "screenshot not saved" in caplog.text and "--shots" in caplog.text
        assert window.needs_redraw()  # the note shows in the window
        window.draw()
    finally:
        pygame.display.quit()


def test_the_demo_writes_to_the_user_data_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    checkout, data = tmp_path / "checkout", tmp_path / "data"
    checkout.mkdir()
    monkeypatch.chdir(checkout)
    monkeypatch.setenv("XDG_DATA_HOME", str(data))
    assert app.main(["--headless", "--players", "2", "--seed", "3", "--shots-every", "50"]) == 0
    assert not any(checkout.iterdir())  # `git status` stays clean
    demo = data / "switch16" / "sim-demo"
    assert (demo / "transcript.jsonl").exists()
    assert f"in {demo}" in capsys.readouterr().out.splitlines()[-1]
