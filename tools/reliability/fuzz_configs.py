"""``check-config`` and ``run`` must agree on every config (issue 9).

For each generated config (:mod:`tools.reliability.configs`) both verdicts are taken:
``switch16 check-config FILE`` in-process (exit 0 or not), and ``run``'s start-up
(:func:`firmware.commands.run.open_unit` on the real Pi backend over gpiozero's
MockFactory and the emulated OLED bus, then a few loop steps). A config that
``check-config`` passes but ``run`` rejects or crashes on, or the other way round, is
a mismatch. Any traceback from either is a failure too.

    python3 -m tools.reliability.fuzz_configs            # long form: 20,000 configs
    python3 -m tools.reliability.fuzz_configs --count 500 --seed 7
"""

from __future__ import annotations

import argparse
import contextlib
import io
import logging
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from tools.reliability.configs import mutated_configs


@dataclass
class Verdicts:
    cases: int = 0
    accepted: int = 0
    mismatches: list[str] = field(default_factory=list)


def check_config_verdict(path: Path) -> bool:
    """True when ``switch16 check-config`` accepts the file (exit 0)."""
    from firmware.cli import main

    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        return main(["check-config", str(path)]) == 0


def run_verdict(path: Path) -> bool:
    """True when ``switch16 run``'s start-up accepts the file and its loop steps."""
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    from firmware.commands.run import open_unit

    # the real start-up path, with every display missing (no bus at all)
    args = argparse.Namespace(config=str(path), hal="hal.testing:pi_hal_without_displays",
                              seed=1, state_dir=None, seats=None, rules=None, points=False,
                              verbose=False)  # fmt: skip
    saved, factory = Device.pin_factory, MockFactory(pin_class=MockPWMPin)
    Device.pin_factory = factory
    try:
        unit = open_unit(args)
        if isinstance(unit, int):
            return False
        try:
            for _ in range(3):
                unit.step()
        finally:
            unit.close()
        return True
    finally:
        factory.reset()
        Device.pin_factory = saved


def compare(seed: int, count: int) -> Verdicts:
    """Both verdicts on ``count`` generated configs."""
    out = Verdicts()
    logging.disable(logging.CRITICAL)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            state = Path(tmp) / "state"
            for n, data in enumerate(mutated_configs(seed, count, state)):
                path = Path(tmp) / f"case-{n}.toml"
                path.write_bytes(data)
                checked, ran = check_config_verdict(path), run_verdict(path)
                out.cases += 1
                out.accepted += checked
                if checked != ran:
                    out.mismatches.append(
                        f"case {n} (seed {seed}): check-config {'passes' if checked else 'fails'}"
                        f", run {'starts' if ran else 'refuses'}:\n{data.decode(errors='replace')}"
                    )
    finally:
        logging.disable(logging.NOTSET)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    result = compare(args.seed, args.count)
    for mismatch in result.mismatches[:5]:
        print(mismatch, file=sys.stderr)
    print(f"configs: {result.cases} cases, {result.accepted} accepted by both, "
          f"{len(result.mismatches)} mismatches, {time.perf_counter() - start:.0f} s")  # fmt: skip
    return 1 if result.mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
