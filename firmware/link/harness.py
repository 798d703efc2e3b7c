"""``switch16 hil``: scripted games and a built-in suite, played through the link.

The harness only talks to the unit through :class:`~.client.LinkClient`: it presses
buttons (test mode), reads the state, the transcript and each seat's frame, and checks
every frame it looks at against :func:`firmware.screens.render_seat` of the position it
replays from the unit's own transcript. The same code runs against the unit on mocked
GPIO (a pty, ``socket://``, ``rfc2217://``), ``sim --headless --link`` and a real unit.

Its rooms: :mod:`.unit_driver` (waits, presses, plays, the frame check of
:mod:`.expected`), :mod:`.suite` (the built-in suite), :mod:`.script` (``*.hil``
scripts), :mod:`.report` (PASS/FAIL).

Script format (``*.hil``, one step a line, ``#`` comments; seats 0-based)::

    newgame human,human rules=tablier [points] [first=0]  # a preset game, its roll-off
                                    # (first=: who wins it)
    dice 6,6,6 block                # force the next roll (repeatable)
    press 0 yes [MS]  |  hold 0 chip  |  release 0 chip  |  shake 600
    wait 0.5                        # seconds (virtual clock: advanced)
    expect phase decide [turn 1]    # waits up to 5 s for it
    expect state {"chip": {"held_by": 0}}   # a subset of the STATE JSON
    expect text 1 "RISK"            # the seat's expected screen says it, and the glass
                                    # equals render_seat of the replayed position
    expect frame 1 golden.png       # the glass equals a golden image (1-bit)
    expect frame 1 render           # the glass equals render_seat of the position
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from .report import Report
from .script import run_script
from .suite import suite
from .unit_driver import UnitDriver


class Harness(UnitDriver):
    """A unit driver that runs the built-in suite or ``*.hil`` scripts."""

    def suite(self, presets: Sequence[str] | None = None,
              games: Sequence[str] | None = None) -> Report:  # fmt: skip
        return suite(self, presets, games)

    def run_script(self, path: Path) -> Report:
        return run_script(self, path)
