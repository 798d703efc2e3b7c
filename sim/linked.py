"""``sim --link URL``: the simulator serving the unit's serial link for a test rig.

``sim --headless --link URL --players N`` runs the unit on :class:`~sim.hal.SimHal`
with N human seats and no window: nobody plays but the harness (``switch16 hil --port
URL``), which presses the seats' buttons, shakes and forces dice through the link's
test mode (on the simulator it always is: no table, nobody to surprise). The clock is
real time (``--clock real``, the default) or virtual (``--clock virtual``): then time
moves only when the link's ``advance`` moves it. Without ``--headless`` the window
serves the link too, in real time, and a person can play along.
"""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from firmware.api import Unit, make_unit, serve_link
from hal.clock import Clock, MonotonicClock, VirtualClock
from hal.signals import handling_signals
from sim.hal import SimHal
from sim.options import load_settings, preset_setup

if TYPE_CHECKING:
    from firmware.api import LinkServer

log = logging.getLogger("sim.link")


def attach_link(unit: Unit, url: str, config_source: Path | None) -> LinkServer:
    """Serve ``url`` for ``unit`` in test mode (opened again later if it cannot open now)."""
    link, error = serve_link(unit, url, config_source=config_source)
    if error is not None:
        print(f"sim: link: cannot open {url}: {error} (retrying)", file=sys.stderr, flush=True)
    return link


def run_headless_link(args: argparse.Namespace) -> int:
    """The unit with human seats on SimHal, serving ``args.link``, until a signal."""
    logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                        format="%(levelname)s %(name)s: %(message)s")  # fmt: skip
    settings = load_settings(args)
    if settings is None:
        return 2
    setup = preset_setup(args)
    seats = args.players or (setup.players if setup is not None else 2)
    clock: Clock = VirtualClock() if args.clock == "virtual" else MonotonicClock()
    hal = SimHal(settings.hardware, clock=clock, seats=seats)
    state_dir = Path(args.state_dir) if args.state_dir else args.out / "journal"
    unit = make_unit(hal, settings, state_dir=state_dir, seed=args.seed, setup=setup,
                     unwatched=True, game=args.game)  # fmt: skip
    link = attach_link(unit, args.link, settings.source)
    print(f"sim: {seats} seats ({', '.join(setup.seats) if setup else 'set-up menu'}), "
          f"{args.clock} clock, link on {args.link} (test mode), journal in "
          f"{unit.journal.dir}", flush=True)  # fmt: skip

    def on_signal(signum: int, frame: object) -> None:
        unit.stop()

    try:
        with handling_signals(on_signal):
            unit.run()
    finally:
        link.close()
        unit.close()
    return 0
