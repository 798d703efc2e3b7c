"""Press -> glass: how soon a seat sees its button act, here and estimated on a Pi Zero 2 W.

    python3 benchmarks/press_latency.py [--presses 1200] [--save FILE] [--baseline FILE]
                                        [--clock thread|wall]

The baseline printed beside (``press_latency_before.json``) is the code before issue
12's work (commit c69aeb4), measured by this script with the thread clock.

The real unit loop on the Pi backend (gpiozero's MockFactory, four SSD1306 behind the
PCA9548 mux on the emulated I²C bus, luma's real code path), every seat human, the
journal fsynced, presses of real game situations (risk / pass, roll, green and red
switch menus, refusals, block choices, the chip menu) chosen by a seeded policy, so two
runs play the same games. Each press is timed from the button edge (gpiozero's
callback) until the loop has sent every changed frame.

Per press the script records a timeline: CPU stretches (the loop thread's CPU time,
``time.thread_time``, minus what the bus emulator itself takes: that is the test
double, not unit software; ``--clock wall`` uses wall time instead, which on a busy
shared machine counts the time other processes hold the core), every bus transaction
(display, mux channel, bytes) and the journal's sync (started, waited for).
From it:

* software here: the pressing seat's last byte, and all displays' last byte;
* wire bytes and transactions per press;
* the Zero 2 W estimate: CPU x ``ZERO_FACTOR`` + bus time + a ``SD_SYNC_MS`` journal
  sync (from the moment the sync starts; the loop waits for it only where it waits).
  I²C at 400 kHz and 1 MHz: 9 bits per byte (address byte included), a start and a
  stop per transaction, a mux write (address + channel byte) whenever the channel
  changes. SPI at 8 MHz: 8 bits per byte, no address or control bytes.

``ZERO_FACTOR`` = 40: a Pi Zero 2 W (Cortex-A53 at 1 GHz, in order, 512 MB) runs this
CPython code 30-40x slower than the development machine; the one loop timed on both,
stock luma's packing of a frame, takes ~0.5 ms here and ~20 ms there (40x). The upper
end is used so the estimate errs on the slow side.

Every press is also checked on the glass: after it, every panel's RAM equals its
expected frame (``render_seat`` of the seat's view), and every 20th press the decoded
glass picture too; a mismatch is counted and printed.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from firmware.engine import Act, Phase
from firmware.screens import render_seat
from firmware.screens.notice import with_notice
from firmware.unit import Timing, Unit
from firmware.unit.controller import Timer
from firmware.unit.views import seat_view
from hal.config import load_config
from hal.events import Button
from hal.oled import pack_frame
from hal.testing import MockPi, mock_pi_hal

ZERO_FACTOR = 40.0
SD_SYNC_MS = 5.0
#: (label, bits per second, I²C?)
BUSES = (
    ("I2C 400 kHz", 400_000, True),
    ("I2C 1 MHz", 1_000_000, True),
    ("SPI 8 MHz", 8_000_000, False),
)
TARGET_SEAT_P99_MS = 32.0
TARGET_ALL_P99_MS = 100.0
TARGET_HERE_P99_MS = 0.6
#: The loop thread's CPU clock: time it spends preempted by other processes on a busy
#: machine does not count (on the unit it runs alone). ``--clock wall`` for wall time.
CLOCKS: dict[str, Callable[[], float]] = {"thread": time.thread_time, "wall": time.perf_counter}
clock = CLOCKS["thread"]


@dataclass
class Press:
    """One press's timeline: ("cpu", s) | ("bus", seat, port, payload) | ("sync",) | ("wait",)."""

    seat: int
    kind: str
    events: list[tuple[Any, ...]] = field(default_factory=list)
    here_seat: float | None = None  # seconds of software (wall minus emulator) to seat's last byte
    here_all: float = 0.0


class Recorder:
    """Hooks the fake bus and the journal's sync to build a :class:`Press` timeline."""

    def __init__(self, pi: MockPi) -> None:
        self.press: Press | None = None
        self._mark = 0.0
        self._excluded = 0.0  # emulator time since the press began
        self._t0 = 0.0
        self.seat_of = {id(e): i for i, e in enumerate(pi.displays)}
        bus = pi.bus
        transfer = bus.transfer

        def recorded_transfer(port: int, address: int, payload: Any) -> None:
            if self.press is None:
                transfer(port, address, payload)
                return
            t_in = clock()
            self._cpu(t_in)
            transfer(port, address, payload)
            t_out = clock()
            seat = self.seat_of[id(bus.i2c[(port, address)])]
            self.press.events.append(("bus", seat, port, len(payload)))
            self._excluded += t_out - t_in
            self._mark = t_out
            if seat == self.press.seat:
                self.press.here_seat = t_out - self._t0 - self._excluded
            self.press.here_all = t_out - self._t0 - self._excluded

        bus.transfer = recorded_transfer  # type: ignore[method-assign]

    def _cpu(self, now: float) -> None:
        assert self.press is not None
        self.press.events.append(("cpu", now - self._mark))

    def sync_started(self) -> None:
        if self.press is not None:
            now = clock()
            self._cpu(now)
            self.press.events.append(("sync",))
            self._mark = now

    def sync_waited(self, t_in: float) -> None:
        """The loop blocked from ``t_in`` until now for the sync (real time excluded
        from the CPU stretches; the model's SD card time replaces it)."""
        if self.press is not None:
            self._cpu(t_in)
            self.press.events.append(("wait",))
            self._mark = clock()

    def begin(self, seat: int, kind: str) -> None:
        self.press = Press(seat, kind)
        self._t0 = self._mark = clock()
        self._excluded = 0.0

    def end(self) -> Press:
        assert self.press is not None
        press, self.press = self.press, None
        return press


def hook_sync(recorder: Recorder) -> Callable[[], None]:
    """Route the journal's syncs through the recorder; returns an undo."""
    from firmware.unit import journal as journal_module

    syncer = getattr(journal_module, "Syncer", None)
    if syncer is not None:  # overlapped: start now, wait later
        start, wait = syncer.start, syncer.wait

        def hooked_start(self: Any, fd: int) -> None:
            recorder.sync_started()
            start(self, fd)

        def hooked_wait(self: Any) -> None:
            pending = self.pending
            t_in = clock()
            wait(self)
            if pending:
                recorder.sync_waited(t_in)

        syncer.start, syncer.wait = hooked_start, hooked_wait

        def undo() -> None:
            syncer.start, syncer.wait = start, wait

        return undo
    real = os.fsync  # blocking: the loop waits at once

    def hooked_fsync(fd: int) -> None:
        t_in = clock()
        recorder.sync_started()
        real(fd)
        recorder.sync_waited(t_in)

    os.fsync = hooked_fsync

    def undo_fsync() -> None:
        os.fsync = real

    return undo_fsync


def estimate(
    press: Press, bits_per_s: float, i2c: bool, last_port: list[int]
) -> tuple[float | None, float]:
    """(ms to the pressing seat's last byte, ms to every display's last byte) on a Zero."""
    t = 0.0
    sync_at: float | None = None
    seat_done: float | None = None
    for ev in press.events:
        kind = ev[0]
        if kind == "cpu":
            t += ev[1] * ZERO_FACTOR
        elif kind == "sync":
            sync_at = t
        elif kind == "wait":
            assert sync_at is not None
            t = max(t, sync_at + SD_SYNC_MS / 1000)
        else:
            _, seat, port, payload = ev
            if i2c:
                bits = 2 + 9 * (1 + payload)
                if port != last_port[0]:
                    bits += 2 + 9 * 2  # PCA9548: address + channel mask
                    last_port[0] = port
            else:
                bits = 8 * (payload - 1)
            t += bits / bits_per_s
            if seat == press.seat:
                seat_done = t
    return (None if seat_done is None else seat_done * 1000), t * 1000


def expected_frame(unit: Unit, seat: int) -> Any:
    view = seat_view(unit.controller.ui(), seat)
    image = render_seat(view)
    return image if unit.journal.saving else with_notice(image, "NOT SAVED")


class Driver:
    """Plays all-human 4-seat games on the mocked Pi with seeded presses."""

    def __init__(self, pi: MockPi, unit: Unit, recorder: Recorder, seed: int) -> None:
        self.pi, self.unit, self.recorder = pi, unit, recorder
        self.policy = random.Random(seed)
        self.presses: list[Press] = []
        self.ignored = 0
        self.mismatches = 0
        self.glass_checks = 0

    def press(self, seat: int, button: Button) -> None:
        pi, unit = self.pi, self.unit
        st = unit.state
        pin = pi.button_pin(seat, button)  # the mock factory's lookup: not the unit's time
        self.recorder.begin(seat, f"{st.phase.value if st else '-'} {button.value}")
        pin.drive_low()  # the edge: gpiozero's callback runs from here
        unit.step()
        while getattr(unit, "refresh_pending", False):
            unit.step()
        press = self.recorder.end()
        if press.here_seat is None:
            self.ignored += 1
        else:
            self.presses.append(press)
            self.check()
        pi.release(seat, button)
        unit.run_for(0.05)

    def check(self) -> None:
        pi, unit = self.pi, self.unit
        full = len(self.presses) % 20 == 0
        for seat in range(len(pi.displays)):
            image = expected_frame(unit, seat)
            self.glass_checks += 1
            ok = pi.displays[seat].ram_frame() == pack_frame(image)
            if ok and full:
                ok = pi.glass(seat).tobytes() == image.convert("1").tobytes()
            if not ok:
                self.mismatches += 1
                print(f"  glass mismatch: press {len(self.presses)}, seat {seat}")

    def game(self, wanted: int) -> None:
        unit, pi, policy = self.unit, self.pi, self.policy
        clock = pi.clock
        while len(self.presses) < wanted:
            st = unit.state
            if st is None or st.game_over:
                return
            ctl = unit.controller
            if st.phase is Phase.DISCARD:
                holder = st.chip_holder
                if holder is not None and holder != st.turn and policy.random() < 0.05:
                    self.press(holder, Button.CHIP)  # block the discarding seat
                    continue
                due = ctl.timers[Timer.DISCARD]
                unit.run_for(max(0.0, due - clock.now()))
                continue
            holder = st.chip_holder
            if holder is not None and st.may(holder, Act.PLACE) and policy.random() < 0.04:
                self.press(holder, Button.CHIP)  # open "lay chip on…"
                self.press(holder, Button.CHIP if policy.random() < 0.5 else Button.NO)
                self.press(holder, Button.NO)
                continue
            if st.phase is Phase.ROLL:
                n = unit.actions
                self.press(st.turn, Button.YES)  # the dice tumble
                unit.run_until(lambda n=n: unit.actions > n, 10)
            elif st.phase is Phase.DECIDE:
                self.press(st.turn, Button.YES if policy.random() < 0.4 else Button.NO)
            elif st.phase is Phase.GREEN_REFUSAL:
                assert st.target is not None
                self.press(st.target, Button.YES if policy.random() < 0.5 else Button.NO)
            elif st.phase in (Phase.GREEN, Phase.RED):
                moves = policy.randrange(3)
                for _ in range(moves):
                    self.press(st.turn, Button.CHIP)  # next option
                self.press(st.turn, Button.YES)
                unit.run_for(0.05)
            elif st.phase is Phase.BLOCK:
                self.press(st.turn, Button.YES if policy.random() < 0.5 else Button.NO)
            else:
                return


def run(presses: int, seed: int = 1) -> Driver:
    config = load_config(None)
    timing = Timing(tumble=0.2, dim_after=0, screensaver_after=0)
    driver: Driver | None = None
    game = 0
    collected: list[Press] = []
    totals = {"ignored": 0, "mismatches": 0, "glass_checks": 0}
    while len(collected) < presses:
        game += 1
        with tempfile.TemporaryDirectory() as tmp, mock_pi_hal(config) as pi:
            header = {"switch16": 1, "players": 4, "first": game % 4, "rules": "pressman-2003"}
            (Path(tmp) / "current.jsonl").write_text(json.dumps(header) + "\n")
            unit = Unit(pi.hal, tmp, rng=random.Random(seed * 1000 + game), timing=timing)
            unit.start()
            recorder = Recorder(pi)
            undo = hook_sync(recorder)
            try:
                driver = Driver(pi, unit, recorder, seed * 1000 + game)
                driver.game(presses - len(collected))
            finally:
                undo()
                unit.close(close_hal=False)
            collected += driver.presses
            totals["ignored"] += driver.ignored
            totals["mismatches"] += driver.mismatches
            totals["glass_checks"] += driver.glass_checks
    assert driver is not None
    driver.presses = collected[:presses]
    driver.ignored, driver.mismatches = totals["ignored"], totals["mismatches"]
    driver.glass_checks = totals["glass_checks"]
    return driver


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def summarise(driver: Driver) -> dict[str, Any]:
    presses = driver.presses
    out: dict[str, Any] = {"presses": len(presses), "mismatches": driver.mismatches,
                           "glass_checks": driver.glass_checks}  # fmt: skip

    def stats(values: list[float]) -> list[float]:
        return [statistics.median(values), pct(values, 99), max(values)]

    out["here_seat_ms"] = stats([p.here_seat * 1000 for p in presses if p.here_seat is not None])
    out["here_all_ms"] = stats([p.here_all * 1000 for p in presses])
    buses = [[ev for ev in p.events if ev[0] == "bus"] for p in presses]
    out["bytes"] = stats([float(sum(ev[3] + 1 for ev in b)) for b in buses])  # + address byte
    out["transactions"] = stats([float(len(b)) for b in buses])
    for label, bps, i2c in BUSES:
        last_port = [-1]
        seat, every = [], []
        for p in presses:
            s, a = estimate(p, bps, i2c, last_port)
            assert s is not None
            seat.append(s)
            every.append(a)
        out[f"zero_seat {label}"] = stats(seat)
        out[f"zero_all {label}"] = stats(every)
    kinds: dict[str, list[float]] = {}
    last_port = [-1]
    for p in presses:
        s, _ = estimate(p, 400_000, True, last_port)
        kinds.setdefault(p.kind, []).append(s or 0.0)
    out["kinds"] = {k: [len(v), statistics.median(v), pct(v, 99)] for k, v in sorted(kinds.items())}
    cpu = [sum(ev[1] for ev in p.events if ev[0] == "cpu") * 1000 for p in presses]
    out["cpu_ms"] = stats(cpu)
    return out


def fmt(values: list[float] | None, unit: str) -> str:
    if values is None:
        return "-"
    digits = 0 if unit in ("B", "") else 2 if unit == "ms" and values[1] < 10 else 1
    return " / ".join(f"{v:,.{digits}f}" for v in values) + (f" {unit}" if unit else "")


ROWS = (
    ("software here, pressing seat's last byte", "here_seat_ms", "ms"),
    ("software here, all displays' last byte", "here_all_ms", "ms"),
    ("software here, CPU (excl. bus emulator, fsync)", "cpu_ms", "ms"),
    ("wire bytes per press (incl. address bytes)", "bytes", "B"),
    ("bus transactions per press", "transactions", ""),
    *(
        (f"Zero 2 W estimate, {who}, {label}", f"zero_{key} {label}", "ms")
        for label, _, _ in BUSES
        for who, key in (("pressing seat", "seat"), ("all displays", "all"))
    ),
)


def report(after: dict[str, Any], before: dict[str, Any] | None) -> None:
    print(
        f"{after['presses']} presses, 4 x SSD1306 behind a PCA9548 on the emulated bus, journal "
        f"fsynced; Zero 2 W = CPU x {ZERO_FACTOR:g} + bus + {SD_SYNC_MS:g} ms SD sync"
    )
    print("figures: p50 / p99 / max")
    width = max(len(r[0]) for r in ROWS) + 2
    head = f"{'':{width}}" + (f"{'before':>30}" if before else "") + f"{'now':>30}"
    if before:
        head += "   p50 ratio"
    print(head)
    for label, key, unit in ROWS:
        line = f"{label:{width}}"
        if before:
            line += f"{fmt(before.get(key), unit):>30}"
        line += f"{fmt(after[key], unit):>30}"
        if before and before.get(key) and after[key][0]:
            line += f"   {before[key][0] / after[key][0]:6.2f}x"
        print(line)
    print("\npressing seat on the Zero, I2C 400 kHz, by situation (presses, p50 / p99 ms)")
    for kind, (n, p50, p99) in after["kinds"].items():
        was = before.get("kinds", {}).get(kind) if before else None
        old = f"   before {was[1]:6.1f} / {was[2]:6.1f}" if was else ""
        print(f"  {kind:24} {n:5}  {p50:6.1f} / {p99:6.1f}{old}")
    seat = after["zero_seat I2C 400 kHz"][1]
    every = after["zero_all I2C 400 kHz"][1]
    here = after["here_seat_ms"][1]
    print()
    for what, value, target in (
        ("pressing seat on the Zero, I2C 400 kHz, p99", seat, TARGET_SEAT_P99_MS),
        ("all displays on the Zero, I2C 400 kHz, p99", every, TARGET_ALL_P99_MS),
        ("pressing seat, software here, p99", here, TARGET_HERE_P99_MS),
    ):
        verdict = "met" if value <= target else f"MISSED by {value - target:.2f} ms"
        print(f"target {what}: {value:.2f} ms <= {target:g} ms: {verdict}")
    print(
        f"glass checks: {after['glass_checks']} panels compared, {after['mismatches']} mismatches"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=1200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--clock",
        choices=sorted(CLOCKS),
        default="thread",
        help="CPU stretches by the loop thread's CPU time (default) or wall time",
    )
    parser.add_argument("--save", help="write the figures as JSON here")
    default_baseline = Path(__file__).with_name("press_latency_before.json")
    parser.add_argument(
        "--baseline",
        default=str(default_baseline),
        help="JSON figures to print beside (default: the landed code's)",
    )
    args = parser.parse_args()
    global clock
    clock = CLOCKS[args.clock]
    figures = summarise(run(args.presses, args.seed))
    figures["clock"] = args.clock
    if args.save:
        Path(args.save).write_text(json.dumps(figures, indent=1) + "\n")
    baseline = Path(args.baseline)
    before = json.loads(baseline.read_text()) if baseline.exists() and not args.save else None
    report(figures, before)


if __name__ == "__main__":
    main()
