"""``switch16 run``: the game unit on the configured hardware backend."""

from __future__ import annotations

import argparse
import logging
import signal
import sys
from typing import TYPE_CHECKING

from firmware.argtypes import link_url, nonempty

if TYPE_CHECKING:
    from firmware.settings import UnitSettings
    from firmware.unit import Unit
    from hal.interfaces import Hal

log = logging.getLogger("switch16.run")

HELP = "run the game unit (the firmware a player meets)"


def register(parser: argparse.ArgumentParser) -> None:
    # lazy: switch16 --help imports every command module: keep that light
    from firmware.games.command_line import add_option_arguments
    from hal.backends import add_hal_argument

    add_hal_argument(parser)
    parser.add_argument("--config", metavar="FILE", type=nonempty,
                        help="unit.toml (default: $SWITCH16_CONFIG, else "
                        "/etc/switch16/unit.toml, else the reference build)")  # fmt: skip
    parser.add_argument("--seed", type=int, metavar="S",
                        help="reproducible dice (default: the system's random source)")  # fmt: skip
    parser.add_argument("--state-dir", metavar="DIR",
                        help="journal directory (default: config [state] dir, else the user "
                        "data directory)")  # fmt: skip
    parser.add_argument("--seats", metavar="KINDS", type=nonempty,
                        help="skip the set-up menu: comma-separated seat players, e.g. "
                        "human,expert (bot levels: easy, rulebook, expert)")  # fmt: skip
    add_option_arguments(parser, words=False, when="with --seats")
    parser.add_argument("--link", metavar="URL", type=link_url,
                        help="serve the serial link on this pyserial URL (default: config "
                        "[link] port; docs/LINK.md)")  # fmt: skip
    parser.add_argument("-v", "--verbose", action="store_true", help="debug logging")


def open_unit(args: argparse.Namespace) -> Unit | int:
    """Everything ``run`` does before the loop: config, hardware, splash, set-up, journal.

    The whole config is checked first (``check-config``'s verdict), then the hardware
    opens and shows the splash; only then come the unit's imports and the journal
    replay, the slow part on a Pi Zero. Returns the started unit, or an exit code after
    logging why it cannot start.
    """
    # lazy: switch16 --help imports every command module: keep that light
    from firmware.settings import load_unit_config
    from firmware.splash import show_splash
    from hal.backends import BackendError, load_backend, standalone_backend
    from hal.config import ConfigError

    try:
        standalone_backend(args.hal)
    except BackendError as exc:
        log.error("%s", exc)
        return 2
    try:
        settings = load_unit_config(args.config)
    except ConfigError as exc:
        log.error("%s", exc)
        return 2
    try:
        hal = load_backend(args.hal, settings.hardware)
    except (BackendError, OSError) as exc:
        log.error("cannot start the hardware: %s", exc)
        return 1
    show_splash(hal)
    try:
        unit = _unit_on(hal, settings, args)
    except BaseException:
        hal.close()
        raise
    if isinstance(unit, int):
        hal.close()
    return unit


def _unit_on(hal: Hal, settings: UnitSettings, args: argparse.Namespace) -> Unit | int:
    """The unit on open hardware: the set-up from ``--seats``, the journal, started."""
    # lazy: after the splash: the unit's imports are slow on the Zero
    from firmware.games.command_line import flag_words, given_options
    from firmware.games.registry import get_game
    from firmware.unit import Unit
    from firmware.unit.collector import Collector
    from firmware.unit.lookahead import Lookahead

    setup = None
    if args.seats:
        game = get_game()  # the game a unit starts with
        try:
            values = {**settings.game.options.get(game.name, {}),
                      **given_options(game, [], flag_words(args))}  # fmt: skip
            setup = game.setup_with([k.strip() for k in args.seats.split(",")], values)
        except ValueError as exc:
            log.error("--seats: %s", exc)
            return 2
    try:
        unit = Unit.from_settings(hal, settings.game, state_dir=args.state_dir, seed=args.seed,
                                  setup=setup, collector=Collector(),
                                  lookahead=Lookahead())  # fmt: skip
    except (OSError, ValueError) as exc:
        log.error("--state-dir %s: %s", args.state_dir, exc)
        return 2
    log.info("unit %r: %d seats, %s", settings.hardware.name, len(hal.seats), unit.journal.dir)
    url = getattr(args, "link", None) or settings.link.port
    if url:
        # lazy: the link only when one is configured (start-up on the Zero)
        from firmware.api import serve_link

        _, error = serve_link(unit, url, config_source=settings.source,
                              test_mode=settings.link.test_mode)  # fmt: skip
        if error is not None:
            log.error("link: cannot open %s: %s (the unit runs; it retries)", url, error)
    unit.start()
    return unit


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO,
        stream=sys.stderr,
        format="%(levelname)s %(name)s: %(message)s",
    )
    # lazy: switch16 --help imports every command module: keep that light
    from hal.signals import handling_signals

    started: list[Unit] = []
    stop = False

    def on_signal(signum: int, frame: object) -> None:
        nonlocal stop
        log.info("signal %s: stopping", signal.Signals(signum).name)
        stop = True
        for unit in started:
            unit.stop()

    # From the start: systemd may stop the unit as soon as it is told READY (start-up).
    with handling_signals(on_signal):
        opened = open_unit(args)
        if isinstance(opened, int):
            return opened
        started.append(opened)
        if stop:
            opened.stop()
        _run(opened)
    return 0


def _run(unit: Unit) -> None:
    """The loop until a stop, then the unit closed (whatever ended the loop)."""
    try:
        unit.run()
    finally:
        for ext in unit.extensions:
            close = getattr(ext, "close", None)
            if close is not None:
                close()
        unit.close()  # closes the journal, blanks the displays, releases the pins
