"""The Pi Zero 2 W CPU factor K the benchmarks scale this machine's CPU time by
(evidence: ``ZERO_FACTOR.md`` beside this file), calibrated to the host in the same run.

K was derived against one machine on one day (the *reference*: the CPU loop of
ZERO_FACTOR.md in 20.9 s a repeat). Shared machines differ about 2x from day to day, so a
benchmark times :func:`reference_work` on its own host, before and after what it
measures, and scales K by how much faster or slower the host ran it than the reference
(:class:`Calibration`). ``python3 benchmarks/zero_factor.py`` prints the host's factor.
"""

from __future__ import annotations

import argparse
import statistics
import time
from dataclasses import dataclass, field

#: Printed side by side: the estimate from evidence, the planning value, the cautious end.
FACTORS = (17.0, 25.0, 40.0)
#: Targets are checked, and costs in bus bytes derived, at this factor.
PLAN_FACTOR = 25.0

#: The CPU loop of ZERO_FACTOR.md on the reference machine, seconds a repeat.
REFERENCE_LOOP_S = 20.9
#: :func:`reference_work`'s CPU time on the reference machine, seconds: measured beside
#: the CPU loop on one host, interleaved (ZERO_FACTOR.md, "Calibrating to the host"), and
#: scaled by REFERENCE_LOOP_S / that host's loop time.
REFERENCE_WORK_S = 0.119


def reference_work() -> float:
    """A fixed pure-Python workload of the loop's kind (float arithmetic, big-integer
    powers, divisions) with some of the unit's (dict, list and attribute traffic).
    Deterministic: returns a checksum so that nothing can be optimised away."""
    total = 0.0
    table: dict[int, float] = {}
    for i in range(240):
        for x in range(1, 400):
            total += 1.000001 * (2**x % 1_000_003)
        for x in range(1, 2000):
            total += x / 2.718281 + 2.718281 / x
        for x in range(200):
            table[(i * 200 + x) & 1023] = total
        total += sum(table.values()) * 1e-9 + len([v for v in table.values() if v > 0])
    return total


def time_work(repeats: int = 5) -> float:
    """The median CPU seconds of ``repeats`` runs of :func:`reference_work` here."""
    spent = []
    for _ in range(repeats):
        start = time.process_time()
        reference_work()
        spent.append(time.process_time() - start)
    return statistics.median(spent)


@dataclass
class Calibration:
    """The host's speed against the reference, from timings taken around a measurement.

    ``scale`` > 1: the host is faster than the reference, so its CPU times are multiplied
    by ``K * scale`` to stand for the Zero.
    """

    samples: list[float] = field(default_factory=list)

    def measure(self, repeats: int = 5) -> float:
        """Time the reference work now (call before and after the measurement)."""
        seconds = time_work(repeats)
        self.samples.append(seconds)
        return seconds

    @property
    def host_work_s(self) -> float:
        if not self.samples:
            raise RuntimeError("the host was not timed: call measure() first")
        return statistics.median(self.samples)

    @property
    def scale(self) -> float:
        return REFERENCE_WORK_S / self.host_work_s

    def factor(self, k: float) -> float:
        """K on the reference, as a factor for this host's CPU times."""
        return k * self.scale

    def describe(self) -> str:
        spread = ", ".join(f"{s * 1000:.0f}" for s in self.samples)
        return (
            f"host calibration: the reference work took {self.host_work_s * 1000:.1f} ms "
            f"here ({spread} ms; reference {REFERENCE_WORK_S * 1000:.1f} ms), so this host "
            f"runs x{self.scale:.2f} the reference's speed: K = "
            + " / ".join(f"{k:g}" for k in FACTORS)
            + " on the reference is "
            + " / ".join(f"{self.factor(k):.1f}" for k in FACTORS)
            + " here"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=9, help="runs of the work (median)")
    args = parser.parse_args()
    if args.repeats < 1:
        parser.error("--repeats must be at least 1")
    cal = Calibration()
    cal.measure(args.repeats)
    print(cal.describe())


if __name__ == "__main__":
    main()
