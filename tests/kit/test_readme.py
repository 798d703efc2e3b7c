"""The README tells the truth: its set-up commands, CI's command and the CLI agree."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from firmware.cli import build_parser

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _shell_blocks() -> list[str]:
    return [b.strip() for b in re.findall(r"```sh\n(.*?)```", README, flags=re.S)]


def test_the_first_two_commands_set_up_sim_and_the_tests() -> None:
    sim, tests = _shell_blocks()[:2]
    assert sim.startswith("python3 -m pip install") and sim.endswith("&& sim")
    assert "'.[sim]'" in sim
    assert tests.endswith("python3 -m pytest") and "'.[test]'" in tests


def test_ci_runs_exactly_the_readme_test_command() -> None:
    # .ci/run reads it from the README (tests/kit/test_ci_run.py: how it runs it)
    ci = subprocess.run(["bash", str(ROOT / ".ci" / "run"), "--command"], capture_output=True,
                        text=True, check=True, stdin=subprocess.DEVNULL)  # fmt: skip
    assert ci.stdout.strip() == _shell_blocks()[1]


def test_every_switch16_command_in_the_readme_exists() -> None:
    subparsers = next(
        a for a in build_parser()._actions if a.__class__.__name__ == "_SubParsersAction"
    )
    named = set(re.findall(r"`switch16 ([a-z-]+)", README))
    assert named, "the README names no switch16 command"
    assert named <= set(subparsers.choices), named - set(subparsers.choices)
    assert set(subparsers.choices) <= named, "undocumented: " + ", ".join(
        sorted(set(subparsers.choices) - named)
    )


def test_what_a_user_reads_has_no_issue_numbers_or_rounds() -> None:
    """The README and docs/ say how things are, not the tracker's history."""
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = page.read_text(encoding="utf-8")
        found = re.findall(r"\b(?:[Ii]ssue|[Rr]ound) \d+\b", text)
        assert not found, f"{page.name}: {found}"


def test_the_readme_is_a_front_door() -> None:
    """Short, with every page of docs/ linked from it."""
    assert README.count("\n") < 150
    for page in sorted((ROOT / "docs").glob("*.md")):
        assert f"](docs/{page.name})" in README, page.name
