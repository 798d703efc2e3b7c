"""``switch16 selftest``: check a freshly wired unit item by item (see :mod:`firmware.selftest`)."""

from __future__ import annotations

import argparse
import sys

from firmware.argtypes import nonempty

HELP = "check a freshly wired unit: displays, buttons, shaker, buzzer, LEDs; PASS/FAIL report"
STEP_NAMES = "displays,buttons,shaker,buzzer,leds"


def register(parser: argparse.ArgumentParser) -> None:
    # lazy: switch16 --help imports every command module: keep that light
    from hal.backends import add_hal_argument

    add_hal_argument(parser)
    parser.add_argument(
        "--config",
        metavar="FILE",
        type=nonempty,
        help="unit.toml (default: $SWITCH16_CONFIG, else /etc/switch16/unit.toml, "
        "else the reference build)",
    )
    parser.add_argument(
        "--timeout",
        type=_seconds,
        default=30.0,
        metavar="S",
        help="seconds to wait for each press, shake or answer (default: 30)",
    )
    parser.add_argument(
        "--skip",
        type=_steps,
        default=(),
        metavar="STEPS",
        help=f"comma-separated steps to leave out: {STEP_NAMES}",
    )


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not value > 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive number of seconds")
    return value


def _steps(text: str) -> tuple[str, ...]:
    names = tuple(name.strip() for name in text.split(",") if name.strip())
    known = STEP_NAMES.split(",")
    if unknown := [name for name in names if name not in known]:
        raise argparse.ArgumentTypeError(
            f"unknown step {', '.join(unknown)} (choose from {STEP_NAMES})"
        )
    return names


def run(args: argparse.Namespace) -> int:
    # lazy: switch16 --help imports every command module: keep that light
    from firmware import selftest
    from firmware.settings import load_unit_config
    from hal.backends import BackendError, standalone_backend
    from hal.config import ConfigError
    from hal.pi import NoGpioError
    from hal.signals import handling_signals

    try:
        standalone_backend(args.hal)
        config = load_unit_config(args.config).hardware
    except (BackendError, ConfigError) as exc:
        print(f"selftest: {exc}", file=sys.stderr)
        return 2
    try:
        hal = selftest.open_backend(args.hal, config)
    except NoGpioError as exc:
        print(f"selftest: {exc}", file=sys.stderr)
        return 1
    except Exception as exc:  # BackendError, a busy GPIO, a missing bus: say it plainly
        print(f"selftest: cannot start the hardware: {exc}", file=sys.stderr)
        print(
            "  (is the game running? stop it first: sudo systemctl stop switch16)", file=sys.stderr
        )
        return 1

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt  # Ctrl-C, SIGTERM, SIGHUP: stop with the partial report

    with handling_signals(interrupt), hal:  # closing blanks the displays, releases the pins
        report = selftest.SelfTest(hal, config, timeout=args.timeout, skip=args.skip).run()
    print()
    print(report.format())
    return report.exit_code
