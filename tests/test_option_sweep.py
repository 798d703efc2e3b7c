"""Every option of ``sim`` and of every ``switch16`` subcommand, given bad values
(issue 22): a usage error naming the option (exit 2), or a run that goes on or ends
without a traceback. The options come from the argparse parsers themselves."""

from __future__ import annotations

import argparse
import signal
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType

import pytest

from firmware import cli
from sim import app
from sim.options import build_parser

ROOT = Path(__file__).resolve().parents[1]
GAME = str(ROOT / "tests" / "fixtures" / "transcripts" / "complete_game.jsonl")
#: Seconds an accepted value may run before the sweep moves on (a unit runs forever).
CAP = 1.0


class StillRunning(BaseException):
    """The command accepted the value and is still at work (not an error)."""


def bad_values(tmp: Path) -> list[str]:
    a_file = tmp / "a-file"
    a_file.write_text("not a directory\n", encoding="utf-8")
    return ["0", "-3", "", str(a_file), str(a_file / "under"), "/proc/x/y"]


def base_argv(tmp: Path) -> dict[str, list[str]]:
    """A good run of each command, short or capped, that a bad value is added to."""
    return {
        "sim": ["--headless", "--players", "2", "--seed", "1", "--out", str(tmp / "out")],
        "check-config": [],
        "hil": ["--mock", "pty", "--presets", "tablier"],
        "odds": ["--rules", "tablier"],
        "replay": [GAME],
        "review": [GAME],
        "run": ["--hal", "mock", "--state-dir", str(tmp / "state")],
        "selfplay": ["--games", "2", "--seats", "rulebook,rulebook"],
        "selftest": ["--hal", "mock"],
    }


def value_options(parser: argparse.ArgumentParser) -> Iterator[argparse.Action]:
    """The parser's arguments that take a value (options and positionals)."""
    for action in parser._actions:
        if action.nargs != 0 and not isinstance(action, argparse._SubParsersAction):
            yield action


def commands() -> dict[str, argparse.ArgumentParser]:
    (sub,) = (a for a in cli.build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return {"sim": build_parser(), **sub.choices}


def with_value(base: list[str], action: argparse.Action, value: str) -> list[str]:
    if action.option_strings:
        return [*base, action.option_strings[-1], value]
    # a positional: the bad value instead of the base's own (the file), options kept
    return [*(arg for arg in base if arg != GAME), value]


def name_of(action: argparse.Action) -> str:
    if action.option_strings:
        return action.option_strings[-1]
    return str(action.metavar or action.dest)


def named(action: argparse.Action, value: str, said: str) -> bool:
    """The message names the option, or the value as given (``FILE: why``)."""
    return name_of(action) in said or (bool(value) and f"{value}:" in said)


def run_capped(main: Callable[[list[str]], int], argv: list[str]) -> int | str:
    def stop(signum: int, frame: FrameType | None) -> None:
        raise StillRunning

    old = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, CAP)
    try:
        return main(argv)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 1
    except StillRunning:
        return "running"
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def test_the_sweep_knows_every_command() -> None:
    assert set(commands()) == set(base_argv(Path()))


@pytest.mark.parametrize("command", sorted(commands()))
def test_bad_values_never_reach_a_traceback(
    command: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setattr("builtins.input", lambda *a: "")  # nobody at the keyboard
    parser = commands()[command]
    main: Callable[[list[str]], int] = app.main if command == "sim" else cli.main
    prefix = [] if command == "sim" else [command]
    base = base_argv(tmp_path)[command]
    problems = []
    for action in value_options(parser):
        if action.dest == "help":
            continue
        for value in bad_values(tmp_path):
            argv = [*prefix, *with_value(base, action, value)]
            try:
                status = run_capped(main, argv)
            except Exception as exc:  # the traceback a user would see
                problems.append(f"{' '.join(argv)!r}: {type(exc).__name__}: {exc}")
                continue
            out = capsys.readouterr()
            said = out.out + out.err + caplog.text
            caplog.clear()
            if "Traceback" in said:
                problems.append(f"{' '.join(argv)!r}: a traceback in the output")
            elif status == 2 and not named(action, value, said):
                problems.append(f"{' '.join(argv)!r}: exit 2 without naming "
                                f"{name_of(action)} or {value!r}: {said.strip()!r}")  # fmt: skip
    assert not problems, "\n".join(problems)
