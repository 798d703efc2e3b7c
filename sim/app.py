"""``sim``: the Switch 16 unit in a window, running the real unit loop on :class:`SimHal`.

The window is a frame-driven host of :class:`firmware.unit.Unit`: every wake-up it
feeds pygame input to the HAL, calls :meth:`Unit.step` and redraws what changed, then
sleeps (:mod:`sim.idle`) until the next input, unit deadline or frame.
Without a display it says so in one line and runs the headless demo instead.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from firmware.api import make_unit
from hal.clock import MonotonicClock
from hal.config import ConfigError
from sim.display import NO_DISPLAY, NoDisplayError, check_visible_driver, display_available
from sim.hal import SimHal
from sim.linked import attach_link, run_headless_link
from sim.options import load_settings, parse_args, preset_setup, user_data_dir

#: With a link the window wakes this often (s): link frames arrive off the X socket.
LINK_WAIT = 0.01


NO_PYGAME = (
    "sim: pygame is not installed: in the checkout run python3 -m pip install -e '.[sim]' "
    "(with a wheel: python3 -m pip install pygame)"
)


def main(argv: Sequence[str] | None = None) -> int:
    """Console entry point."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    args = parse_args(argv)
    try:
        return _run(args)
    except ConfigError as exc:  # --config, or the config found without it
        print(f"sim: {exc}", file=sys.stderr)
        return 2


def _run(args: argparse.Namespace) -> int:
    if args.replay:
        from sim.replay import main as replay  # lazy: pygame, the sim extra (checked below)

        return replay(args)
    if args.headless and args.link:
        return run_headless_link(args)
    if importlib.util.find_spec("pygame") is None:  # the wheel without its sim extra
        print(NO_PYGAME, file=sys.stderr)
        return 2
    if args.headless:
        return _demo(args)
    if not display_available():
        print(NO_DISPLAY, flush=True)
        return _demo(args)
    try:
        return run_window(args)
    except NoDisplayError as exc:
        print(NO_DISPLAY, flush=True)
        print(f"sim: ({exc})", flush=True)
        return _demo(args)
    except KeyboardInterrupt:
        return 130


def _demo(args: argparse.Namespace) -> int:
    from sim.demo import run_demo  # lazy: pygame, the sim extra

    try:
        return run_demo(args)
    except KeyboardInterrupt:
        print("sim: demo interrupted", file=sys.stderr)
        return 130


def fit_scale(seats: int, screen: tuple[int, int] | None) -> int:
    """The largest OLED scale (1–4) whose window fits ``screen`` (3 when unknown)."""
    from sim.layout import make_layout  # lazy: pygame, the sim extra

    if not screen or min(screen) <= 0:
        return 3
    for scale in (4, 3, 2):
        width, height = make_layout(seats, scale).size
        if width <= screen[0] * 0.96 and height <= screen[1] * 0.9:
            return scale
    return 1


def default_state_dir() -> Path:
    """The simulator's journal directory (apart from a desktop ``switch16 run``)."""
    return user_data_dir("sim")


def run_window(args: argparse.Namespace) -> int:
    """Play in a window until it is closed."""
    # lazy: pygame, the sim extra (main says how to install it when it is missing)
    import pygame

    from sim.host import SimHost
    from sim.window import SimWindow

    settings = load_settings(args)
    if settings is None:
        return 2
    setup = preset_setup(args)
    try:
        pygame.display.init()
        check_visible_driver()
        pygame.font.init()
        sizes = pygame.display.get_desktop_sizes()
    except pygame.error as exc:
        raise NoDisplayError(str(exc)) from exc
    seats = setup.players if setup is not None else len(settings.hardware.seats)
    hal = SimHal(settings.hardware, clock=MonotonicClock(), seats=seats, audible=not args.mute)
    scale = args.scale or fit_scale(seats, sizes[0] if sizes else None)
    try:
        window = SimWindow(hal, scale=scale, oled=args.oled, shots=args.shots)
    except pygame.error as exc:
        pygame.display.quit()
        raise NoDisplayError(str(exc)) from exc
    unit = make_unit(hal, settings, state_dir=args.state_dir or default_state_dir(),
                     seed=args.seed, setup=setup, game=args.game)  # fmt: skip
    if setup is not None:
        unit.journal.archive()  # the options ask for a new game: keep any old one in games/
    link = None
    if args.link:
        link = attach_link(unit, args.link, settings.source)
    host = SimHost(unit, window, fps=args.fps, seed=args.seed,
                   max_wait=LINK_WAIT if link is not None else None)  # fmt: skip
    print(f"sim: journal in {unit.journal.dir}; keys: see the window (Esc quits)", flush=True)
    if link is not None:
        print(f"sim: link on {args.link} (test mode)", flush=True)
    try:
        host.run()
    finally:
        if link is not None:
            link.close()
        unit.close()
        pygame.mixer.quit()
        pygame.display.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
