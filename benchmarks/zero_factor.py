"""The Pi Zero 2 W CPU factor K the benchmarks scale this machine's CPU time by
(evidence: ``ZERO_FACTOR.md`` beside this file)."""

#: Printed side by side: the estimate from evidence, the planning value, the old one.
FACTORS = (17.0, 25.0, 40.0)
#: Targets are checked, and costs in bus bytes derived, at this factor.
PLAN_FACTOR = 25.0
