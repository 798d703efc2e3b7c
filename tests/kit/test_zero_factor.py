"""benchmarks/zero_factor.py scales K to the host it runs on (ZERO_FACTOR.md,
"Calibrating to the host"): the arithmetic, not the host's speed."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from benchmarks.zero_factor import REFERENCE_WORK_S, Calibration, reference_work


def test_a_host_twice_as_fast_as_the_reference_doubles_k() -> None:
    cal = Calibration([REFERENCE_WORK_S / 2, REFERENCE_WORK_S / 2.2, REFERENCE_WORK_S / 1.8])
    assert cal.scale == pytest.approx(2.0)
    assert cal.factor(25.0) == pytest.approx(50.0)
    assert "x2.00" in cal.describe() and "50.0" in cal.describe()


def test_a_slower_host_lowers_k_and_an_untimed_one_is_refused() -> None:
    assert Calibration([REFERENCE_WORK_S * 2]).factor(25.0) == pytest.approx(12.5)
    with pytest.raises(RuntimeError, match="measure"):
        Calibration().factor(25.0)


def test_the_reference_work_is_fixed() -> None:
    assert reference_work() == reference_work()
    cal = Calibration()
    assert cal.measure(repeats=1) > 0 and len(cal.samples) == 1


def test_swytch_bots_zero_estimate_is_calibrated_to_the_host(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """benchmarks/swytch_bots.py scales CPU per move by zero_factor's K calibrated to the
    host (it had its own K = 25 and range 17-40, as on the reference whatever the host)."""
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[2] / "benchmarks"))
    bots = importlib.import_module("swytch_bots")
    line = bots._cpu_line("hard", [0.010] * 9, Calibration([REFERENCE_WORK_S / 2]))
    assert "median 10.0 ms" in line
    assert "Zero (x25, x50.0 here): median 0.50 s (x17/25/40: 0.34-0.50-0.80 s)" in line
