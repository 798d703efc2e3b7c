"""benchmarks/zero_factor.py scales K to the host it runs on (ZERO_FACTOR.md,
"Calibrating to the host"): the arithmetic, not the host's speed."""

from __future__ import annotations

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
