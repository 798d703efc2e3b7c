"""Unit latency: button event -> frame sent, and a discard step -> frame sent.

The real Pi backend on gpiozero's MockFactory and the fake SSD1306 I²C bus (luma's
real code path, the bytes decoded by the emulator), four seats, virtual time for the
timers and wall time for the measurement. Each sample covers: the HAL callback,
the loop dispatch, the engine, the journal append (+ fsync unless --no-fsync),
rendering the changed seats and sending their frames.

Run: python benchmarks/unit_latency.py [--samples N] [--no-fsync]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import time
from pathlib import Path

from firmware.games.switch16.config import Switch16Timing
from firmware.games.switch16.controller import Timer
from firmware.games.switch16.engine import Phase
from firmware.unit import Timing, Unit
from hal.config import load_config
from hal.events import Button
from hal.testing import mock_pi_hal


def measure(samples: int, durable: bool, seed: int = 1) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {"decide": [], "discard": []}
    policy = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp, mock_pi_hal(load_config(None)) as pi:
        header = {"switch16": 1, "players": 4, "first": 0, "rules": "pressman-2003"}
        (Path(tmp) / "current.jsonl").write_text(json.dumps(header) + "\n")
        unit = Unit(pi.hal, tmp, rng=random.Random(seed), durable=durable,
                    timing=Timing(dim_after=0, screensaver_after=0,
                                  games=(Switch16Timing(tumble=0.2),)))  # fmt: skip
        unit.start()
        clock = pi.clock
        while min(len(v) for v in out.values()) < samples:
            st = unit.state
            if st is None or st.game_over:
                break
            if st.phase is Phase.DECIDE:
                button = Button.YES if policy.random() < 0.4 else Button.NO
                t0 = time.perf_counter()
                pi.press(st.turn, button)
                unit.step()
                out["decide"].append(time.perf_counter() - t0)
                pi.release(st.turn, button)
                unit.run_for(0.05)
            elif st.phase is Phase.ROLL:
                n = unit.actions
                pi.press(st.turn, Button.YES)
                unit.run_for(0.05)
                pi.release(st.turn, Button.YES)
                unit.run_until(lambda n=n: unit.actions > n, 10)
            elif st.phase is Phase.DISCARD:
                due = unit.controller.timers[Timer.DISCARD]
                unit.run_for(max(0.0, due - clock.now() - 1e-6))
                clock.set(max(due, clock.now()))
                t0 = time.perf_counter()
                unit.step()
                out["discard"].append(time.perf_counter() - t0)
            else:  # green / red / block / refusal: answer with YES
                seat = st.target if st.phase is Phase.GREEN_REFUSAL else st.turn
                pi.press(seat, Button.YES)
                unit.run_for(0.05)
                pi.release(seat, Button.YES)
                unit.run_for(0.05)
        unit.close(close_hal=False)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=60)
    parser.add_argument("--no-fsync", action="store_true", help="skip fsync in the journal")
    args = parser.parse_args()
    times: dict[str, list[float]] = {"decide": [], "discard": []}
    seed = 0
    while min(len(v) for v in times.values()) < args.samples and seed < 100:
        seed += 1
        for name, values in measure(args.samples, not args.no_fsync, seed).items():
            times[name] += values
    fsync = "without fsync" if args.no_fsync else "with fsync"
    for name, label in (("decide", "decide -> risk/pass press"), ("discard", "discard step")):
        values = times[name]
        if not values:
            continue
        median = statistics.median(values) * 1000
        p90 = sorted(values)[int(len(values) * 0.9)] * 1000
        print(f"{label:28} median {median:6.2f} ms   p90 {p90:6.2f} ms   "
              f"({len(values)} samples, {fsync}, fake I²C bus)")  # fmt: skip


if __name__ == "__main__":
    main()
