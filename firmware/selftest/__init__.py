"""``switch16 selftest``: the bring-up check a maker runs after wiring the kit.

:class:`SelfTest` (:mod:`.runner`) walks through its steps, one module each:
:mod:`.displays` (a test pattern per seat), :mod:`.buttons` (YES, NO, CHIP on every
seat at once), :mod:`.shaker`, :mod:`.buzzer`, :mod:`.leds`. Each step is a
:class:`SelfTestStep`: it plans its report rows, then checks them through a shared
:class:`Context`. The run returns a :class:`Report` (:mod:`.report`): one
PASS/FAIL/SKIPPED :class:`Check` per item, naming its config key and pin.
Single-threaded like the unit loop: it blocks on ``hal.events`` until the next
deadline, and all time comes from ``hal.clock``.

Real time::

    with open_backend(None, config) as hal:
        report = SelfTest(hal, config).run()      # Ctrl-C: the partial report
    print(report.format())

Virtual time (tests): pass ``block(timeout) -> Event | None``, which stands in for
``hal.events.get(timeout)``: it may drive pins in answer to :attr:`SelfTest.asks`
and moves the virtual clock on.
"""

from __future__ import annotations

from .buttons import ORDER
from .buzzer import NOTE_S, scale
from .context import RESULT_S, Ask, Context, SelfTestStep
from .displays import PATTERN_S, bus_of, pattern_lines
from .report import STEPS, Check, Report, Status, Step, gpio
from .runner import DEFAULT_TIMEOUT_S, STAGES, SelfTest, open_backend
from .shaker import REFRESH_S

__all__ = [
    "DEFAULT_TIMEOUT_S",
    "NOTE_S",
    "ORDER",
    "PATTERN_S",
    "REFRESH_S",
    "RESULT_S",
    "STAGES",
    "STEPS",
    "Ask",
    "Check",
    "Context",
    "Report",
    "SelfTest",
    "SelfTestStep",
    "Status",
    "Step",
    "bus_of",
    "gpio",
    "open_backend",
    "pattern_lines",
    "scale",
]
