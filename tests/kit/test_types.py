"""mypy over firmware/, hal/ and sim/ with the ``[tool.mypy]`` settings of pyproject.toml
(strict for Switch 16's engine, the kernel and ``hal``): CI runs only pytest, so the check
lives here."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import mypy  # noqa: F401  (in the test extra: a missing mypy fails here, never skips)
import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_mypy_finds_no_type_errors() -> None:
    # A subprocess: mypy reads pyproject.toml from its working directory and keeps
    # its incremental cache in .mypy_cache there (a few seconds once warm).
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-color-output"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    if result.returncode != 0:
        pytest.fail(f"mypy:\n{(result.stdout + result.stderr).strip()}", pytrace=False)
