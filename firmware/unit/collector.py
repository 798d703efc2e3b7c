"""Python's cyclic garbage collector, kept off the press path.

CPython collects when the count of container objects allocated minus freed passes a
threshold, in the middle of whatever code allocates: on a Pi Zero 2 W a young
collection during a press costs milliseconds, a full one (every object the process
holds) about a second. :class:`Collector` (``switch16 run`` sets one up):

* :meth:`settle` after start-up: one full collection, then :func:`gc.freeze` moves
  every object left (modules, odds tables, the bots' models, fonts) out of the
  collector's sight, so later collections only look at what the game made since;
  the automatic threshold is raised above what any press allocates;
* :meth:`idle` whenever the loop is about to wait with nothing due: a collection of
  what the last presses left, the full one every :data:`FULL_EVERY` idle collections;
  what a full one leaves is frozen too, so the next full one looks only at what came
  since (on a Zero a full collection of a game's caches and states took ~150 ms, as
  long as a press that arrives during it waits; the price: a reference cycle among
  frozen objects that dies later is never collected, its objects freed by reference
  counting only).
"""

from __future__ import annotations

import gc

#: Automatic young collections only after this many more containers allocated than
#: freed (Python's default: 700). A press allocates a few hundred to ~2,000
#: (``benchmarks/press_latency.py``), and the loop collects while idle between
#: presses, so the automatic collection is a safety net that a press never reaches.
GEN0_THRESHOLD = 20_000
#: Idle collections of the young generations between two full ones.
FULL_EVERY = 50


class Collector:
    """Runs the collector at start-up and while the loop idles, not during a press."""

    def __init__(self, threshold: int = GEN0_THRESHOLD, full_every: int = FULL_EVERY) -> None:
        self.threshold = threshold
        self.full_every = full_every
        self.idle_collections = 0

    def settle(self) -> None:
        """Start-up is done: collect it, freeze what is left, raise the threshold."""
        gc.collect()
        gc.freeze()
        _, gen1, gen2 = gc.get_threshold()
        gc.set_threshold(self.threshold, gen1, gen2)

    def idle(self) -> None:
        """The loop has nothing to do now: collect what the last presses left."""
        if gc.get_count()[0] == 0:
            return
        self.idle_collections += 1
        if self.idle_collections % self.full_every:
            gc.collect(1)
            return
        gc.collect(2)
        gc.freeze()
