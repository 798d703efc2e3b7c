"""A suite that ends (issue 35): nothing is stopped by raising from a signal handler,
and a test that hangs fails with its stack instead of holding CI."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: A timer signal whose handler raises lands anywhere: inside ``__del__`` (swallowed: the
#: command under test runs for ever) or halfway through an import.
TIMER_SIGNALS = re.compile(r"\bSIGALRM\b|\bsignal\.alarm\(|\bsetitimer\(")


def test_no_code_is_stopped_by_a_timer_signal() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for top in ("firmware", "hal", "sim", "tests", "tools", "benchmarks")
        for path in sorted((ROOT / top).rglob("*.py"))
        if path != Path(__file__).resolve()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if TIMER_SIGNALS.search(line)
    ]
    assert not found, "stop a subprocess instead (SIGTERM, as a user would):\n" + "\n".join(found)


def test_a_hung_test_fails_with_its_stack(tmp_path: Path) -> None:
    (tmp_path / "test_hangs.py").write_text(
        "import threading\n\n\ndef test_waits_for_ever():\n    threading.Event().wait()\n"
    )
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-c", str(ROOT / "pyproject.toml"),
         "--rootdir", str(tmp_path), "-n", "0", "-o", "timeout=1", "-p", "no:cacheprovider",
         str(tmp_path / "test_hangs.py")],
        capture_output=True, text=True, stdin=subprocess.DEVNULL, cwd=tmp_path,
    )  # fmt: skip
    said = done.stdout + done.stderr
    assert done.returncode != 0, said
    assert "Timeout" in said and "test_waits_for_ever" in said, said
