"""Every option of ``sim`` and of every ``switch16`` subcommand, given bad values
(issue 22): a usage error naming the option (exit 2), or a run that goes on or ends
without a traceback. The options come from the argparse parsers themselves."""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware import cli
from sim.options import build_parser

ROOT = Path(__file__).resolve().parents[1]
GAME = str(ROOT / "tests" / "fixtures" / "transcripts" / "complete_game.jsonl")
#: Seconds an accepted value may run after its first output before the sweep moves on
#: (a unit runs for ever).
CAP = 1.0
#: Seconds a command may take to stop on SIGTERM (systemd waits 90 s, then kills).
STOP = 90.0
PYTHONPATH = os.environ.get("PYTHONPATH", "")


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


def run_capped(module: str, argv: list[str], cwd: Path) -> tuple[int | str, str]:
    """Run ``python -m module argv`` as a user would (its output and exit status). A
    command still at work :data:`CAP` seconds after its first line of output has
    accepted the value: it is stopped as a terminal stops a job, SIGTERM to its whole
    process group (``hil --mock`` runs a unit beside it), and its status is
    ``"running"``. Never stopped by raising into it (issue 35: an exception from a
    signal handler lands anywhere, or is swallowed, and the unit idles for ever)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), PYTHONPATH]))}
    with subprocess.Popen([sys.executable, "-m", module, *argv], cwd=cwd, env=env,
                          stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, bufsize=0,
                          start_new_session=True) as process:  # fmt: skip
        assert process.stdout is not None
        try:
            # its first word, or its end (unbuffered: the rest is left to communicate)
            first = process.stdout.readline()
            try:
                rest, _ = process.communicate(timeout=CAP)
                status: int | str = process.returncode
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGTERM)
                try:
                    rest, _ = process.communicate(timeout=STOP)
                except subprocess.TimeoutExpired:
                    rest = f"\n(not stopped by SIGTERM within {STOP} s)".encode()
                status = "running"
        finally:  # nothing it started outlives it
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
    return status, (first + rest).decode("utf-8", "replace")


def test_the_sweep_knows_every_command() -> None:
    assert set(commands()) == set(base_argv(Path()))


def sweep() -> Iterator[tuple[str, argparse.Action]]:
    for command, parser in sorted(commands().items()):
        for action in value_options(parser):
            if action.dest != "help":
                yield command, action


@pytest.mark.parametrize(("command", "action"), [
    pytest.param(command, action, id=f"{command} {name_of(action)}")
    for command, action in sweep()
])  # fmt: skip
def test_bad_values_never_reach_a_traceback(
    command: str, action: argparse.Action, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    module, prefix = ("sim.app", []) if command == "sim" else ("firmware.cli", [command])
    base = base_argv(tmp_path)[command]
    problems = []
    for value in bad_values(tmp_path):
        argv = [*prefix, *with_value(base, action, value)]
        status, said = run_capped(module, argv, tmp_path)
        if "Traceback" in said or "not stopped by SIGTERM" in said:
            problems.append(f"{' '.join(argv)!r}: a traceback in the output:\n{said}")
        elif status == 2 and not named(action, value, said):
            problems.append(f"{' '.join(argv)!r}: exit 2 without naming "
                            f"{name_of(action)} or {value!r}: {said.strip()!r}")  # fmt: skip
    assert not problems, "\n".join(problems)
