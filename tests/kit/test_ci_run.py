"""``.ci/run``: the README's test command in a fresh virtual environment (issue 22).

Run on a copy of the script next to a README whose test command is a probe, so the
script itself is what is tested, not the suite it would start."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def ci_run(tmp_path: Path, command: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / ".ci").mkdir()
    shutil.copy(ROOT / ".ci" / "run", tmp_path / ".ci" / "run")
    (tmp_path / "README.md").write_text(
        f"# x\n\nRun the tests (what CI runs):\n\n```sh\n{command}\n```\n", encoding="utf-8"
    )
    return subprocess.run(["bash", str(tmp_path / ".ci" / "run")], capture_output=True,
                          text=True, timeout=300, stdin=subprocess.DEVNULL)  # fmt: skip


def test_ci_runs_the_readme_command_in_a_fresh_venv(tmp_path: Path) -> None:
    # pygame is in this venv (the test extra); a fresh one has nothing but pip.
    probe = "python3 -c 'import sys; assert sys.prefix != sys.base_prefix; import pygame'"
    done = ci_run(tmp_path, probe)
    assert done.returncode != 0 and "No module named 'pygame'" in done.stderr, done.stderr


def test_ci_passes_when_the_command_passes(tmp_path: Path) -> None:
    done = ci_run(tmp_path, "python3 -c 'import sys; assert sys.prefix != sys.base_prefix'")
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("status", [1, 5])
def test_ci_fails_when_the_command_fails(tmp_path: Path, status: int) -> None:
    done = ci_run(tmp_path, f"python3 -c 'raise SystemExit({status})'")
    assert done.returncode == status
    assert "FAILED" in done.stderr


def test_ci_fails_without_the_readme_command(tmp_path: Path) -> None:
    done = ci_run(tmp_path, "")
    assert done.returncode != 0 and "README.md has no" in done.stderr
