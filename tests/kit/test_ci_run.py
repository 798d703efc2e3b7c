"""``.ci/run``: the README's test command in a fresh virtual environment (issue 22).

Run on a copy of the script next to a README whose test command is a probe, so the
script itself is what is tested, not the suite it would start."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def ci_run(tmp_path: Path, command: str, *options: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / ".ci").mkdir()
    shutil.copy(ROOT / ".ci" / "run", tmp_path / ".ci" / "run")
    (tmp_path / "README.md").write_text(
        f"# x\n\nRun the tests (what CI runs):\n\n```sh\n{command}\n```\n", encoding="utf-8"
    )
    return subprocess.run(["bash", str(tmp_path / ".ci" / "run"), *options], capture_output=True,
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


#: Run by the README command under ``--stress``: how many CPU hogs .ci/run has running.
HOGS_PROBE = """
import os
from pathlib import Path

def parent(pid):
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])

ancestors = [os.getppid()]  # .ci/run, or bash -c COMMAND under it
ancestors.append(parent(ancestors[0]))
tasks = [t for pid in ancestors for t in Path(f"/proc/{pid}/task").iterdir()]
children = [c for t in tasks for c in (t / "children").read_text().split()]
hogs = [c for c in children if b"while True" in Path(f"/proc/{c}/cmdline").read_bytes()]
print("hogs:", len(hogs))
"""


def test_ci_stress_runs_the_command_beside_two_cpu_hogs_and_ends_them(tmp_path: Path) -> None:
    (tmp_path / "probe.py").write_text(HOGS_PROBE, encoding="utf-8")
    done = ci_run(tmp_path, f"python3 {tmp_path / 'probe.py'}", "--stress")
    assert done.returncode == 0 and "hogs: 2" in done.stdout, done.stdout + done.stderr
    (line,) = (x for x in done.stdout.splitlines() if "two CPU hogs" in x)
    pids = line.rsplit("pids ", 1)[1].rstrip(")").split()
    assert len(pids) == 2 and not any(Path(f"/proc/{pid}").exists() for pid in pids)
