"""Press -> glass: how soon a seat sees its button act, here and estimated on a Pi Zero 2 W.

    python3 benchmarks/press_latency.py [--game NAME] [--presses 1000] [--spacing 0.3]
                                        [--busy] [--save FILE] [--baseline FILE]
                                        [--clock thread|wall]

``--baseline FILE`` prints beside the figures another run's (``--save``);
``benchmarks/press_latency_before.json`` is one run of an older checkout (d82ecb9),
not calibrated (compare paired runs, not one against a saved file, on a shared machine).

The real unit loop on the Pi backend (gpiozero's MockFactory, four SSD1306 behind the
PCA9548 mux on the emulated I²C bus, luma's real code path), the journal fsynced, the
collector and the frames drawn ahead set up as ``switch16 run`` sets them, any
registered game (``--game``, through the game seam): a game whose actions are entered
by presses the seam names (``Game.presses_for``) is played by one human seat against
the game's strongest bot thinking in a worker process beside the loop, seeded random
legal actions a press at a time, sometimes a hint (a held CHIP: the press is answered
at once, the worker's hint, shown when it comes, is timed apart: it is no press), a press
during every bot think, a rematch at the end; each press's kind is its button's label on the seat's
legend (with the legend's labels, which say the step). Else (Switch 16) every seat is
human and the presses are of real game situations (risk / pass, roll, green and red
switch menus, refusals, block choices, the chip menu). A seeded policy chooses, so two
runs play the same games. ``--spacing`` (``--think``): the virtual seconds the player
reads the screen before a press; ``--busy``: a CPU loop keeps the other core busy.
Each press is timed from the button edge (gpiozero's callback) until the loop has
sent every changed frame; between presses the loop idles as on the unit (its idle
collections are timed apart: a press arriving during one waits for it).

Per press the script records a timeline: CPU stretches (the loop thread's CPU time,
``time.thread_time``, minus what the bus emulator and this script take: they are test
doubles, not unit software; ``--clock wall`` uses wall time instead, which on a busy
shared machine counts the time other processes hold the core), every bus transaction
(display, mux channel, bytes, and for the pressing seat where in it the first byte
that changes its glass lies) and the journal's sync (started, waited for).
From it:

* software here: the pressing seat's last byte, and all displays' last byte;
* wire bytes and transactions per press;
* the Zero 2 W estimate, for each CPU factor K in ``FACTORS``: CPU x K + bus time + a
  ``SD_SYNC_MS`` journal sync (from the moment the sync starts; the loop waits for it
  only where it waits): the pressing seat's first changed byte and last byte, every
  display's last byte. I²C at 400 kHz and 1 MHz: 9 bits per byte (address byte
  included), a start and a stop per transaction, a mux write (address + channel byte)
  whenever the channel changes. SPI at 8 MHz: 8 bits per byte, no address or control
  bytes.

K: how many times slower a Zero 2 W runs this CPython code than the reference machine.
``benchmarks/ZERO_FACTOR.md`` holds the evidence: ~12x measured against a Pi 3B+ with
the same CPU-loop benchmark, ~17x for the Zero 2 W's lower clock; the targets are
checked at ``PLAN_FACTOR`` = 25 (the middle of the evidence), 17 and 40 are printed beside.
K is calibrated to this host in the same run (``zero_factor.Calibration``): the
reference work is timed before the presses, every :data:`CALIBRATE_EVERY` presses
(between two, the unit idle: a shared machine's speed changes within a run) and after
them, and every K is multiplied by how much faster than the reference this host ran it
around each press (the mean of the timings either side of it; the latest while the
presses run; printed; ``--no-calibrate``: not).

Every press is also checked on the glass: after it, every panel's RAM equals its
expected frame (the game's own renderer of the seat's view), and every 20th press the decoded
glass picture too; a mismatch is counted and printed.
"""

from __future__ import annotations

import argparse
import copy
import gc
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from zero_factor import FACTORS, PLAN_FACTOR, REFERENCE_WORK_S, Calibration  # beside this script

from firmware.games.registry import DEFAULT_GAME, game_names, get_game
from firmware.games.switch16.config import Switch16Timing
from firmware.games.switch16.controller import Timer
from firmware.games.switch16.engine import Action, Phase, State, exchanged
from firmware.games.switch16.engine.notation import action_to_json
from firmware.games.switch16.game import Switch16
from firmware.kernel.players import HUMAN
from firmware.screens.notice import with_notice
from firmware.unit import Timing, Unit
from firmware.worker import start_worker
from hal.config import InputTiming, load_config
from hal.events import Button
from hal.frame import pack_frame
from hal.testing import FakeSMBus, MockPi, OledEmulator, mock_pi_hal

try:  # the collector as ``switch16 run`` sets it up (absent in older checkouts)
    from firmware.unit.collector import Collector
except ImportError:  # pragma: no cover - an older checkout measured for comparison
    Collector = None  # type: ignore[assignment,misc]
try:  # the frames drawn ahead while idle, as ``switch16 run`` sets it up
    from firmware.unit.lookahead import Lookahead
except ImportError:  # pragma: no cover - an older checkout measured for comparison
    Lookahead = None  # type: ignore[assignment,misc]

SD_SYNC_MS = 5.0
#: (label, bits per second, I²C?)
BUSES = (
    ("I2C 400 kHz", 400_000, True),
    ("I2C 1 MHz", 1_000_000, True),
    ("SPI 8 MHz", 8_000_000, False),
)
REFERENCE_BUS = "I2C 400 kHz"
#: (what, figure key, statistic index (p50, p99, max), target ms) at PLAN_FACTOR.
TARGETS = (
    ("pressing seat, last byte, p99", "seat", 1, 32.0),
    ("the slowest press of all, pressing seat's last byte", "seat", 2, 100.0),
    ("every display, last byte, p99", "all", 1, 100.0),
    ("pressing seat, first changed byte on its glass, p99", "first", 1, 12.0),
)
#: The loop thread's CPU clock: time it spends preempted by other processes on a busy
#: machine does not count (on the unit it runs alone). ``--clock wall`` for wall time.
CLOCKS: dict[str, Callable[[], float]] = {"thread": time.thread_time, "wall": time.perf_counter}
clock = CLOCKS["thread"]
#: Virtual seconds the loop idles before each press (a player reads the screen first).
THINK_S = 0.3
#: ... while a button is held, before the HAL sees the long press (most of its time).
HOLD_IDLE_S = 0.75 * InputTiming().long_press_s
#: ``--profile``: a pyinstrument profiler running only from each button edge to the
#: press's last frame (the bus emulator and the glass-change probe show as
#: ``recorded_transfer``: test doubles, not unit code).
PROFILER: Any = None


@dataclass
class Press:
    """One press's timeline: ("cpu", s) | ("bus", seat, port, payload, first) | ("sync",)
    | ("wait",). ``first``: on the pressing seat's display, the index in the payload of
    the first byte that changes its RAM (None: no such byte)."""

    seat: int
    kind: str
    events: list[tuple[Any, ...]] = field(default_factory=list)
    here_seat: float | None = None  # seconds of software (wall minus emulator) to seat's last byte
    here_all: float = 0.0
    collections: list[int] = field(default_factory=list)  # generations collected meanwhile
    ahead_ms: float = 0.0  # CPU here drawing frames ahead while idle since the last press
    overran_ms: float = 0.0  # ... of which the Zero would still be drawing at the press
    shown_ahead: bool = False  # its frame on its seat's glass before it was handled
    foreseen_wrong: bool = False  # ... and it was not the press's frame after all
    timing: int = 0  # the last timing of the host's speed before it (CALIBRATION.samples)


def first_change(emulator: OledEmulator, payload: bytes) -> int | None:
    """Index of the first byte of an I²C write that changes the visible RAM, else None
    (played byte by byte on a copy of the controller)."""
    if not payload or payload[0] & 0xC0 != 0x40:  # not a data message
        if payload:
            emulator.i2c_write(list(payload))
        return None
    base = emulator.column_offset
    for i, byte in enumerate(payload[1:], 1):
        page, col = emulator.page, emulator.col
        old = emulator.ram[page][col]
        emulator.data((byte,))
        if byte != old and base <= col < base + 128:
            return i
    return None


class Recorder:
    """Hooks the fake bus and the journal's sync to build a :class:`Press` timeline."""

    def __init__(self, pi: MockPi) -> None:
        self.press: Press | None = None
        self.mark = 0.0
        self._excluded = 0.0  # emulator time since the press began
        self._t0 = 0.0
        self._changed = False  # the pressing seat's glass has changed in this press
        self.seat_of = {id(e): i for i, e in enumerate(pi.displays)}
        #: Told of each transfer outside a press (port, payload bytes), and of the
        #: test doubles' time there (the mock bus and its panels: seconds).
        self.outside: Callable[[int, int], None] | None = None
        self.outside_doubles: Callable[[float], None] | None = None
        self._own_seat = False  # the press's own display was written in this call
        self._in_rdwr = False
        bus = pi.bus
        transfer = bus.transfer
        self._rdwr = rdwr = FakeSMBus.i2c_rdwr

        def recorded_rdwr(smbus: FakeSMBus, *messages: Any) -> None:
            """One ``i2c_rdwr`` call: on a Pi a system call the bus's time stands for,
            here the mock's work (the messages read back, the panels emulated)."""
            t_in = clock()
            if self.press is not None:
                self._cpu(t_in)
            self._own_seat, self._in_rdwr = False, True
            try:
                rdwr(smbus, *messages)
            finally:
                self._in_rdwr = False
            t_out = clock()
            if self.press is None:
                if self.outside_doubles is not None:
                    self.outside_doubles(t_out - t_in)
                return
            self._excluded += t_out - t_in
            self.mark = t_out
            if self._own_seat:
                self.press.here_seat = t_out - self._t0 - self._excluded
            self.press.here_all = t_out - self._t0 - self._excluded

        def recorded_transfer(port: int, address: int, payload: Any) -> None:
            if self.press is None:
                if self.outside is not None:
                    self.outside(port, len(payload))
                transfer(port, address, payload)
                return
            t_in = clock()  # (a write outside an i2c_rdwr call is timed here)
            if not self._in_rdwr:
                self._cpu(t_in)
            emulator = bus.i2c[(port, address)]
            seat = self.seat_of[id(emulator)]
            first = None
            if seat == self.press.seat and not self._changed:
                first = first_change(copy.deepcopy(emulator), bytes(payload))
                self._changed = first is not None
            transfer(port, address, payload)
            self.press.events.append(("bus", seat, port, len(payload), first))
            self._own_seat |= seat == self.press.seat
            if self._in_rdwr:
                return
            t_out = clock()
            self._excluded += t_out - t_in
            self.mark = t_out
            if seat == self.press.seat:
                self.press.here_seat = t_out - self._t0 - self._excluded
            self.press.here_all = t_out - self._t0 - self._excluded

        FakeSMBus.i2c_rdwr = recorded_rdwr  # type: ignore[method-assign]
        bus.transfer = recorded_transfer  # type: ignore[method-assign]
        gc.callbacks.append(self._collected)

    def _collected(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start" and self.press is not None:
            self.press.collections.append(info["generation"])

    def close(self) -> None:
        gc.callbacks.remove(self._collected)
        FakeSMBus.i2c_rdwr = self._rdwr  # type: ignore[method-assign]

    def _cpu(self, now: float) -> None:
        assert self.press is not None
        self.press.events.append(("cpu", now - self.mark))

    def sync_started(self) -> None:
        if self.press is not None:
            now = clock()
            self._cpu(now)
            self.press.events.append(("sync",))
            self.mark = now

    def sync_waited(self, t_in: float) -> None:
        """The loop blocked from ``t_in`` until now for the sync (real time excluded
        from the CPU stretches; the model's SD card time replaces it)."""
        if self.press is not None:
            self._cpu(t_in)
            self.press.events.append(("wait",))
            self.mark = clock()

    def begin(self, seat: int, kind: str) -> None:
        self.press = Press(seat, kind)
        self._t0 = self.mark = clock()
        self._excluded = 0.0
        self._changed = False

    def end(self) -> Press:
        assert self.press is not None
        press, self.press = self.press, None
        return press


def hook_sync(recorder: Recorder) -> Callable[[], None]:
    """Route the journal's syncs through the recorder: the overlapped ones (an action:
    started now, waited for later) and every blocking ``os.fsync`` (a new game's
    journal written whole, each a sync the loop waits for at once); returns an undo."""
    from firmware.unit import journal as journal_module

    undos = []
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

        undos.append(undo)
    real = os.fsync  # blocking: the loop waits at once (the syncer's fdatasync is apart)

    def hooked_fsync(fd: int) -> None:
        recorder.sync_started()
        t_in = clock()
        real(fd)
        recorder.sync_waited(t_in)

    os.fsync = hooked_fsync

    def undo_fsync() -> None:
        os.fsync = real

    undos.append(undo_fsync)

    def undo_all() -> None:
        for undo in undos:
            undo()

    return undo_all


def estimate(
    press: Press, factor: float, bits_per_s: float, i2c: bool, last_port: list[int]
) -> tuple[float, float | None, float]:
    """(ms to the pressing seat's last byte, to the first byte that changes its glass
    (None: it did not change), to every display's last byte) on a Zero."""
    t = 0.0
    sync_at: float | None = None
    seat_done: float | None = None
    first: float | None = None
    for ev in press.events:
        kind = ev[0]
        if kind == "cpu":
            t += ev[1] * factor
        elif kind == "sync":
            sync_at = t
        elif kind == "wait":
            assert sync_at is not None
            t = max(t, sync_at + SD_SYNC_MS / 1000)
        else:
            _, seat, port, payload, changed_at = ev
            if i2c:
                if port != last_port[0]:
                    t += (2 + 9 * 2) / bits_per_s  # PCA9548: address + channel mask
                    last_port[0] = port
                if changed_at is not None and first is None:
                    first = t + (1 + 9 * (2 + changed_at)) / bits_per_s  # start, address
                t += (2 + 9 * (1 + payload)) / bits_per_s
            else:
                if changed_at is not None and first is None:
                    first = t + 8 * changed_at / bits_per_s  # control byte -> D/C pin
                t += 8 * (payload - 1) / bits_per_s
            if seat == press.seat:
                seat_done = t
    seat_done = t if seat_done is None else seat_done  # its seat's glass unchanged: all done
    return seat_done * 1000, None if first is None else first * 1000, t * 1000


def expected_frame(unit: Unit, ui: Any, seat: int) -> Any:
    """What ``seat``'s glass should show: the game's own drawing of its view."""
    game = unit.game
    image = game.render(game.seat_view(ui, seat))
    return image if unit.journal.saving else with_notice(image, "NOT SAVED")


def chip_player(st: State) -> int | None:
    """The seat that may lay the chip now, else None (``chip_player()`` in older
    checkouts measured for comparison)."""
    if not hasattr(st, "may"):
        return st.chip_player()  # type: ignore[attr-defined,no-any-return]
    from firmware.games.switch16.engine import Act

    holder = st.chip_holder
    return holder if holder is not None and st.may(holder, Act.PLACE) else None


def ui_menus(ctl: Any) -> Any:
    """The controller's open menus as comparable values."""
    return sorted((seat, m.placing, m.highlight) for seat, m in ctl.menus.items())


def situation(before: tuple[Any, ...], committed: list[tuple[Action, State]], unit: Unit) -> str:
    """What a press did, observed from outside the core: the action it committed (a
    deck switch named apart), the roll it dismissed, the tumble it started, the menu it
    moved; "nothing" when the unit showed no change to the pressing seat's state."""
    state, roll_shown, tumble, menus = before
    ctl = unit.controller
    if committed:
        action, new = committed[0]
        name = action_to_json(action)["action"]
        if state is not None and exchanged(state, new):
            return f"deck switch ({name})"
        return name
    if roll_shown is not None and getattr(ctl, "roll_shown", None) is None:
        return "roll dismiss"
    if tumble is None and ctl.tumble is not None:
        return "roll start"
    if menus != ui_menus(ctl):
        return "menu"
    return "nothing"


class Driver:
    """Plays all-human 4-seat games on the mocked Pi with seeded presses."""

    def __init__(
        self, pi: MockPi, unit: Unit, recorder: Recorder, seed: int, ahead: AheadTimer
    ) -> None:
        self.pi, self.unit, self.recorder, self.ahead = pi, unit, recorder, ahead
        self.policy = random.Random(seed)
        self.presses: list[Press] = []
        #: the worker's answers shown (a hint): timed as presses are, but no press
        self.answers: list[Press] = []
        self.ignored = 0
        self.thinks = 0  #: presses made while a bot's think was out
        self.silent_thinks = 0  #: ... of which changed no glass
        self.mismatches = 0
        self.glass_checks = 0
        self.given = 0  #: frames the loop looked up of those the worker drew
        self._calibrated = 0  #: presses when the host's speed was last timed (0: not yet)

    def press(self, seat: int, button: Button) -> None:
        ctl, unit = self.unit.controller, self.unit
        before = (unit.state, getattr(ctl, "roll_shown", None), ctl.tumble, ui_menus(ctl))
        committed: list[tuple[Action, State]] = []
        unit.on_commit.append(lambda action, new: committed.append((action, new)))
        press = self.timed(seat, button)
        unit.on_commit.pop()
        if press is not None:
            press.kind = situation(before, committed, unit)
        self.pi.release(seat, button)
        unit.run_for(0.05)

    def timed(self, seat: int, button: Button | None, *, idle: bool = True,
              answered: bool = False, keep: bool = False) -> Press | None:  # fmt: skip
        """Time one press of ``button`` (None: no edge, the HAL's next poll: a long
        press; ``answered``: none, the events queued: the worker's answer) from the edge
        until every display has its frame; the player reads the screen first (``idle``).
        The press (None: it changed no glass, counted as ignored, unless ``keep``: then
        timed until the loop is done with it)."""
        pi, unit = self.pi, self.unit
        made = len(self.presses)  # every so many, the host's speed now, between two presses
        due = idle and made > 0 and made % CALIBRATE_EVERY == 0 and made != self._calibrated
        if CALIBRATION.samples and due:
            self._calibrated = made
            CALIBRATION.measure(3)
        if THINK_S and idle:
            unit.run_for(THINK_S)  # the player reads the screen: the loop idles meanwhile
        ahead, overran = self.ahead.press(pi.clock.now())
        pin = None if button is None else pi.button_pin(seat, button)  # not the unit's time
        if button is None and not answered:
            pi.clock.set(max(pi.clock.now(), unit.hal.next_deadline() or 0.0))
        shown = (
            getattr(unit.displays, "shown_ahead", 0),
            getattr(unit.displays, "foreseen_wrong", 0),
        )
        self.recorder.begin(seat, "")
        if PROFILER is not None:
            PROFILER.start()
        if pin is not None:
            pin.drive_low()  # the edge: gpiozero's callback runs from here
        unit.step()
        while getattr(unit, "refresh_pending", False):
            unit.step()
        if PROFILER is not None:
            PROFILER.stop()
        press = self.recorder.end()
        press.timing = len(CALIBRATION.samples) - 1
        press.ahead_ms, press.overran_ms = ahead * 1000, overran * 1000
        press.shown_ahead = getattr(unit.displays, "shown_ahead", 0) > shown[0]
        press.foreseen_wrong = getattr(unit.displays, "foreseen_wrong", 0) > shown[1]
        press.events.insert(0, ("cpu", overran))  # the last piece drawn ahead, finished first
        if press.here_seat is None and keep:
            press.events.append(("cpu", clock() - self.recorder.mark))
            press.here_seat = press.here_all = sum(ev[1] for ev in press.events if ev[0] == "cpu")
        if press.here_seat is None:
            self.ignored += 1
            return None
        seat_ms, _, all_ms = estimate(press, factor_now(PLAN_FACTOR), 400_000, True, [-1])
        self.ahead.sending((all_ms - seat_ms) / 1000)
        (self.answers if answered else self.presses).append(press)
        self.check()
        return press

    def check(self) -> None:
        pi, unit = self.pi, self.unit
        full = len(self.presses) % 20 == 0
        ui = unit.controller.ui()
        for seat in range(len(pi.displays)):
            image = expected_frame(unit, ui, seat)
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
            holder = chip_player(st)
            if holder is not None and policy.random() < 0.04:
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


class ByPress(Driver):
    """Plays a game entered by presses (:meth:`Game.presses_for`): one human seat
    against the game's strongest bot, thinking in a worker process beside the loop.
    The human plays seeded random legal actions, a press at a time, sometimes asking
    for a hint (a held CHIP); it presses once while each bot think is out; at the end,
    a rematch. A press's kind is its button's label on the seat's legend before the
    press, with the legend's labels (which picker step) beside it."""

    HINTS = 0.06  #: the share of the human's turns that begin with a hint

    def game(self, wanted: int) -> None:
        unit, game, policy = self.unit, self.unit.game, self.policy
        human = 0
        action: Any = None
        after_bot = False
        hinted = False
        while len(self.presses) < wanted:
            st = unit.state
            if st is None:
                unit.run_for(0.5)  # the roll-off
                continue
            if st.game_over:
                self.step_kind(human, Button.YES, "rematch")
                unit.run_until(lambda: unit.state is not None and not unit.state.game_over, 30)
                action, after_bot, hinted = None, False, False
                continue
            seat = game.waiting_seat(st)
            if seat != human:
                self.bot_turn(human)
                after_bot = True
                continue
            ui = unit.controller.ui()
            if action is None or action not in st.legal_actions():
                action = policy.choice(list(st.legal_actions()))
                hinted = False
            buttons = game.presses_for(ui, seat, action)
            if not buttons:
                unit.run_for(0.1)
                continue
            if not after_bot and not hinted and policy.random() < self.HINTS:
                self.hint(seat)
                hinted = True
                continue
            kind = "first press after the bot's move" if after_bot else self.label(seat, buttons[0])
            self.step_kind(seat, buttons[0], kind)
            after_bot = False

    def label(self, seat: int, button: Button) -> str:
        """The legend's label of ``button`` for ``seat`` now, and the legend's labels."""
        game = self.unit.game
        legend = getattr(game.seat_view(self.unit.controller.ui(), seat), "legend", ())
        labels = dict(legend)
        return f"{labels.get(button.name) or button.name}  [{' '.join(labels.values())}]"

    def step_kind(self, seat: int, button: Button, kind: str, *, idle: bool = True) -> None:
        press = self.timed(seat, button, idle=idle)
        if press is not None:
            press.kind = kind
        self.pi.release(seat, button)
        unit = self.unit
        unit.run_until(lambda: unit.thinking, 0.05)  # a bot's think: a press comes during it

    def bot_turn(self, human: int) -> None:
        """The bot's turn: a press of the human's while the worker thinks, then its move."""
        unit, game = self.unit, self.unit.game

        def moved() -> bool:
            st = unit.state
            return st is None or st.game_over or game.waiting_seat(st) == human

        unit.run_until(lambda: unit.thinking or moved(), 30)
        if unit.thinking:
            button = self.policy.choice(list(Button))
            self.thinks += 1
            press = self.timed(human, button, idle=False, keep=True)
            if press is not None:
                press.kind = "during the bot's think"
                self.silent_thinks += not any(ev[0] == "bus" for ev in press.events)
            self.pi.release(human, button)
        unit.run_until(lambda: not unit.thinking, 120)
        unit.run_for(0.05)

    def hint(self, seat: int) -> None:
        """Hold CHIP: the unit asks the worker and says so at once; then its answer."""
        unit, pi = self.unit, self.pi
        kind = self.label(seat, Button.CHIP)
        press = self.timed(seat, Button.CHIP)  # the hold begins as a press
        if press is not None:
            press.kind = kind
        unit.run_for(HOLD_IDLE_S)  # held: the loop idles until the long press is seen
        press = self.timed(seat, None, idle=False)  # the HAL's poll that sees the hold
        if press is not None:
            press.kind = "hint asked (CHIP held)"
        pi.release(seat, Button.CHIP)
        unit.step()  # the release (untimed): then only the worker's answer is to come
        if unit.thinking:
            while unit.hal.events.empty():
                time.sleep(0.001)  # the worker's answer comes by the queue
            press = self.timed(seat, None, idle=False, answered=True)
            if press is not None:
                press.kind = "hint shown (the worker's answer)"
        unit.run_for(0.05)


class IdleTimer:
    """Times one kind of the loop's idle work (CPU): the wait a press arriving then sees."""

    def __init__(self) -> None:
        self.times: list[float] = []

    def wrap(self, worker: Any, name: str = "idle") -> None:
        idle = getattr(worker, name)

        def timed(*args: Any) -> Any:
            t0 = clock()
            try:
                return idle(*args)
            finally:
                self.times.append(clock() - t0)

        setattr(worker, name, timed)


class AheadTimer(IdleTimer):
    """Times the frames drawn ahead, within what a Zero does in the time it has: the
    player's think time and the unit time that passed since the last press (the game's
    own timers: a discard's steps, a roll's tumble), as CPU here (``/
    factor_now(PLAN_FACTOR)``), less the loop's other work meanwhile (its steps outside
    presses, the bus time of what they send, a press's other displays after its own,
    its idle collections); past it none is drawn (the guessing since the last press
    counts in full, also for states the game left since); the press waits for the
    piece that overran it."""

    def __init__(self) -> None:
        super().__init__()
        self.spent = 0.0
        self.since = 0.0  #: the unit time of the last press
        self.budget = 0.0  #: what the Zero had at the last piece (CPU here)
        self.busy = 0.0  #: the loop's other CPU here since the last press
        self._port = -1  #: the mux channel of the last transfer outside a press

    def allowed(self, now: float) -> float:
        """CPU here the Zero has had for drawing ahead by ``now`` (unit time), counting
        the player's think time before the next press."""
        return (now - self.since + THINK_S) / factor_now(PLAN_FACTOR) - self.busy

    def _counted(self, work: Callable[..., Any], unless: Callable[[], bool]) -> Callable[..., Any]:
        def counted(*args: Any) -> Any:
            if unless():
                return work(*args)
            t0 = clock()
            try:
                return work(*args)
            finally:
                self.busy += clock() - t0

        return counted

    def loop(self, unit: Unit, recorder: Recorder) -> None:
        """Count ``unit``'s steps outside a press as the loop's other work, and the
        bus time of what they send as a Zero's (the loop waits for its bus writes:
        in place of the emulator's time here)."""
        unit.step = self._counted(unit.step, lambda: recorder.press is not None)  # type: ignore[method-assign]
        recorder.outside, recorder.outside_doubles = self.bus, self.doubles

    def bus(self, port: int, payload: int) -> None:
        """A transfer outside a press: its time on a Zero's I²C bus at 400 kHz (the
        targets' bus; a mux write when the channel changes), as CPU here."""
        bits = 2 + 9 * (1 + payload) + (0 if port == self._port else 2 + 9 * 2)
        self._port = port
        self.busy += bits / 400_000 / factor_now(PLAN_FACTOR)

    def doubles(self, seconds: float) -> None:
        """The mock bus and its emulated panels took ``seconds`` of a step outside a
        press: not the unit's work (the bus time above stands for it)."""
        self.busy -= seconds

    def besides(self, worker: Any, name: str = "idle") -> None:
        """Count ``worker``'s idle work (the collector's) as the loop's other work."""
        setattr(worker, name, self._counted(getattr(worker, name), lambda: False))

    def wrap(self, worker: Any, name: str = "idle") -> None:
        step = getattr(worker, name)

        def budgeted(*args: Any) -> Any:
            self.budget = self.allowed(args[3])  # Lookahead.step(..., now, ...)
            if self.spent >= self.budget:
                return False  # the Zero is still drawing ahead when the press comes
            t0 = clock()
            try:
                return step(*args)
            finally:
                self.times.append(clock() - t0)
                self.spent += self.times[-1]

        setattr(worker, name, budgeted)

    def sending(self, seconds: float) -> None:
        """After a press's own display had its frame, the loop sent the others' for
        ``seconds`` of a Zero (the player reads meanwhile; the loop draws nothing)."""
        self.busy += seconds / factor_now(PLAN_FACTOR)

    def press(self, now: float) -> tuple[float, float]:
        """A press arrives at unit time ``now``: (CPU drawing ahead since the last one,
        the part of it past the budget: the press waits for it); counting starts again."""
        spent, self.spent = self.spent, 0.0
        overran = max(0.0, spent - self.budget) if self.times else 0.0
        self.start(now)
        return spent, min(overran, self.times[-1] if self.times else 0.0)  # that piece

    def start(self, now: float) -> None:
        """Count the Zero's time from ``now`` (unit time)."""
        self.since, self.busy = now, 0.0


def by_presses(game: Any) -> bool:
    """:class:`Driver` plays Switch 16 (its all-human 4-seat tables and situations, whose
    header it writes); any other game is entered by the presses the seam names
    (:meth:`Game.presses_for`) and :class:`ByPress` plays it."""
    return not isinstance(game, Switch16)


def run(
    presses: int, seed: int = 1, roll_show: float | None = None, lookahead: bool = True,
    game_name: str = DEFAULT_GAME,
) -> tuple[Driver, IdleTimer, AheadTimer]:  # fmt: skip
    """``roll_show``: seconds a turn-ending roll stays up (None: the unit's default);
    ``lookahead``: frames drawn ahead while idle, as ``switch16 run`` does."""
    config = load_config(None)
    played = get_game(game_name)
    entered = by_presses(played)
    shown = {} if roll_show is None else {"roll_show": roll_show}
    timing = Timing(dim_after=0, screensaver_after=0, games=(Switch16Timing(tumble=0.2, **shown),))
    driver: Driver | None = None
    idle, guesses = IdleTimer(), AheadTimer()
    game = 0
    collected: list[Press] = []
    answers: list[Press] = []
    totals = {"ignored": 0, "mismatches": 0, "glass_checks": 0, "thinks": 0, "silent_thinks": 0,
              "given": 0}  # fmt: skip
    while len(collected) < presses:
        game += 1
        with tempfile.TemporaryDirectory() as tmp, mock_pi_hal(config) as pi:
            extra: dict[str, Any] = {}
            if entered:  # a human against the strongest bot, thinking beside the loop
                seats = (HUMAN, *(played.levels[-1],) * (played.seats.start - 1))
                extra.update(game=game_name, setup=played.setup_for(seats), worker=start_worker)
            else:
                header = {"switch16": 1, "players": 4, "first": game % 4,
                          "rules": "pressman-2003"}  # fmt: skip
                (Path(tmp) / "current.jsonl").write_text(json.dumps(header) + "\n")
            if Collector is not None:
                extra["collector"] = Collector()
                idle.wrap(extra["collector"])
                guesses.besides(extra["collector"])
            if Lookahead is not None and lookahead:
                extra["lookahead"] = Lookahead()
                guesses.wrap(extra["lookahead"], "step")
            unit = Unit(pi.hal, tmp, rng=random.Random(seed * 1000 + game), timing=timing,
                        **extra)  # fmt: skip
            unit.start()
            guesses.start(pi.clock.now())  # a new unit's time: its game's first press
            recorder = Recorder(pi)
            guesses.loop(unit, recorder)
            undo = hook_sync(recorder)
            try:
                make = ByPress if entered else Driver
                driver = make(pi, unit, recorder, seed * 1000 + game, guesses)
                driver.game(presses - len(collected))
            finally:
                undo()
                recorder.close()
                unit.close(close_hal=False)
            collected += driver.presses
            answers += driver.answers
            totals["ignored"] += driver.ignored
            totals["thinks"] += driver.thinks
            totals["silent_thinks"] += driver.silent_thinks
            totals["mismatches"] += driver.mismatches
            totals["glass_checks"] += driver.glass_checks
            totals["given"] += getattr(unit.displays, "frames_given", 0)
    assert driver is not None
    driver.presses = collected[:presses]
    driver.answers = answers
    driver.ignored, driver.mismatches = totals["ignored"], totals["mismatches"]
    driver.glass_checks = totals["glass_checks"]
    driver.thinks, driver.silent_thinks = totals["thinks"], totals["silent_thinks"]
    driver.given = totals["given"]
    return driver, idle, guesses


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def stats(values: list[float]) -> list[float]:
    """p50, p99, max."""
    return [statistics.median(values), pct(values, 99), max(values)] if values else [0.0] * 3


def zero_key(factor: float, label: str, who: str) -> str:
    return f"zero x{factor:g} {label} {who}"


def summarise(driver: Driver, idle: IdleTimer, guesses: AheadTimer) -> dict[str, Any]:
    presses = driver.presses
    out: dict[str, Any] = {"presses": len(presses), "mismatches": driver.mismatches,
                           "glass_checks": driver.glass_checks,
                           "shown_ahead": [sum(p.shown_ahead for p in presses),
                                           sum(p.foreseen_wrong for p in presses)],
                           "frames_given": driver.given}  # fmt: skip
    out["here_seat_ms"] = stats([p.here_seat * 1000 for p in presses if p.here_seat is not None])
    out["here_all_ms"] = stats([p.here_all * 1000 for p in presses])
    buses = [[ev for ev in p.events if ev[0] == "bus"] for p in presses]
    out["bytes"] = stats([float(sum(ev[3] + 1 for ev in b)) for b in buses])  # + address byte
    out["transactions"] = stats([float(len(b)) for b in buses])
    out["unchanged_glass"] = sum(all(ev[4] is None for ev in b) for b in buses)
    for factor in FACTORS:
        for label, bps, i2c in BUSES:
            last_port = [-1]
            seat, first, every = [], [], []
            for p in presses:
                s, f, a = estimate(p, press_factor(p, factor), bps, i2c, last_port)
                seat.append(s)
                every.append(a)
                if f is not None:
                    first.append(f)
            out[zero_key(factor, label, "seat")] = stats(seat)
            out[zero_key(factor, label, "first")] = stats(first)
            out[zero_key(factor, label, "all")] = stats(every)
    cpu = [sum(ev[1] for ev in p.events if ev[0] == "cpu") * 1000 for p in presses]
    wire = [sum(ev[3] + 1 for ev in b) for b in buses]
    own = [
        sum(ev[3] + 1 for ev in b if ev[1] == p.seat) for p, b in zip(presses, buses, strict=True)
    ]
    kinds: dict[str, list[list[float]]] = {}
    last_port = [-1]
    for p, c, w, o in zip(presses, cpu, wire, own, strict=True):
        s, f, a = estimate(p, press_factor(p, PLAN_FACTOR), 400_000, True, last_port)
        row = kinds.setdefault(p.kind, [[], [], [], [], [], []])
        for i, value in enumerate((s, a, c, w, o, f)):
            if value is not None:
                row[i].append(value)
    #: situation -> [presses, seat p50, seat p99, all p99, CPU p50, CPU p99, bytes p50,
    #: bytes max, the pressing seat's bytes p50, its first change p99 (None: never)]
    out["kinds"] = {
        k: [len(s), statistics.median(s), pct(s, 99), pct(a, 99), statistics.median(c),
            pct(c, 99), statistics.median(w), max(w), statistics.median(o),
            pct(f, 99) if f else None]
        for k, (s, a, c, w, o, f) in sorted(kinds.items())
    }  # fmt: skip
    out["cpu_ms"] = stats(cpu)
    last_port = [-1]
    shown = [
        estimate(p, press_factor(p, PLAN_FACTOR), 400_000, True, last_port) for p in driver.answers
    ]
    #: the worker's answers (hints) from their event to the seat's last byte, at PLAN_FACTOR
    out["answers"] = [len(shown), *stats([s for s, _, _ in shown])] if shown else None
    out["idle_collect_ms"] = stats([t * 1000 for t in idle.times])
    out["press_collections"] = [
        sum(p.collections.count(generation) for p in presses) for generation in range(3)
    ]
    out["idle_collections"] = len(idle.times)
    out["idle_guess_ms"] = stats([t * 1000 for t in guesses.times]) if guesses.times else None
    out["idle_guesses"] = len(guesses.times)
    out["ahead_ms"] = stats([p.ahead_ms for p in presses]) if guesses.times else None
    out["ahead_cut"] = sum(p.overran_ms > 0 for p in presses)
    out["think_s"] = THINK_S
    out["think_presses"] = [driver.thinks, driver.silent_thinks]
    out["calibration"] = {"work_ms": [t * 1000 for t in CALIBRATION.samples],
                          "scale": CALIBRATION.scale} if CALIBRATION.samples else None  # fmt: skip
    return out


#: The host's speed against the reference (measured in ``main``; none: K as on the reference).
CALIBRATION = Calibration()
#: Presses between two timings of the host's speed during the run.
CALIBRATE_EVERY = 50


def host_factor(k: float) -> float:
    """K on the reference machine as a factor for CPU times measured here (the run's
    median host speed)."""
    return CALIBRATION.factor(k) if CALIBRATION.samples else k


def press_factor(press: Press, k: float) -> float:
    """K as a factor for ``press``'s CPU times: the host's speed around it (the mean of
    the timings before and after it)."""
    samples = CALIBRATION.samples
    if not samples:
        return k
    before = samples[max(0, min(press.timing, len(samples) - 1))]
    after = samples[max(0, min(press.timing + 1, len(samples) - 1))]
    return k * REFERENCE_WORK_S * 2 / (before + after)


def factor_now(k: float) -> float:
    """K as a factor for CPU times measured now (the host's latest timing)."""
    return k * REFERENCE_WORK_S / CALIBRATION.samples[-1] if CALIBRATION.samples else k


def fmt(values: list[float] | None, unit: str) -> str:
    if values is None:
        return "-"
    digits = 0 if unit in ("B", "") else 2 if unit == "ms" and values[1] < 10 else 1
    return " / ".join(f"{v:,.{digits}f}" for v in values) + (f" {unit}" if unit else "")


ROWS = (
    ("software here, pressing seat's last byte", "here_seat_ms", "ms"),
    ("software here, all displays' last byte", "here_all_ms", "ms"),
    ("software here, CPU (excl. bus emulator, fsync)", "cpu_ms", "ms"),
    ("software here, one idle collection (CPU)", "idle_collect_ms", "ms"),
    ("software here, one frame drawn ahead while idle (CPU)", "idle_guess_ms", "ms"),
    ("software here, frames drawn ahead before a press (CPU)", "ahead_ms", "ms"),
    ("wire bytes per press (incl. address bytes)", "bytes", "B"),
    ("bus transactions per press", "transactions", ""),
    *(
        (f"Zero x{factor:g}, {who}, {label}", zero_key(factor, label, key), "ms")
        for factor in FACTORS
        for label, _, _ in BUSES
        for who, key in (
            ("pressing seat", "seat"),
            ("pressing seat, 1st change", "first"),
            ("every display", "all"),
        )
    ),
)


def report(after: dict[str, Any], before: dict[str, Any] | None) -> None:
    print(
        f"{after['presses']} presses, 4 x SSD1306 behind a PCA9548 on the emulated bus, journal "
        f"fsynced; Zero 2 W = CPU x K + bus + {SD_SYNC_MS:g} ms SD sync, "
        f"K = {' / '.join(f'{k:g}' for k in FACTORS)}"
    )
    print(CALIBRATION.describe() if CALIBRATION.samples
          else "not calibrated: K as on the reference machine (--no-calibrate)")  # fmt: skip
    print("figures: p50 / p99 / max")
    width = max(len(r[0]) for r in ROWS) + 2
    head = f"{'':{width}}" + (f"{'before':>28}" if before else "") + f"{'now':>28}"
    if before:
        head += "   p99 ratio"
    print(head)
    for label, key, unit in ROWS:
        line = f"{label:{width}}"
        if before:
            line += f"{fmt(before.get(key), unit):>28}"
        line += f"{fmt(after[key], unit):>28}"
        if before and before.get(key) and after[key][1]:
            line += f"   {before[key][1] / after[key][1]:6.2f}x"
        print(line)
    print(
        f"\nby situation: the Zero (x{PLAN_FACTOR:g}, {REFERENCE_BUS}) pressing seat p50 / p99, "
        "its first change p99 and every display p99 (ms), CPU here p50 / p99 (ms), wire bytes "
        "p50 / max, the pressing seat's own bytes p50"
    )
    print(f"  {'situation':24} {'presses':>7} {'seat':>15} {'1st':>7} {'all':>7} {'CPU here':>13} "
          f"{'bytes':>13} {'its own':>7}")  # fmt: skip
    for kind, row in after["kinds"].items():
        if len(row) < 10:  # a file saved by an older version of this script
            continue
        n, p50, p99, every, c50, c99, b50, bmax, o50, f99 = row
        first = "-" if f99 is None else f"{f99:.1f}"
        print(f"  {kind:24} {n:7}  {p50:6.1f} / {p99:5.1f} {first:>7} {every:7.1f}  "
              f"{c50:5.2f} / {c99:5.2f}  {b50:5,.0f} / {bmax:5,.0f} {o50:7,.0f}")  # fmt: skip
    if after.get("answers"):
        n, a50, a99, amax = after["answers"]
        print(f"  {'(not a press) a hint':24} {n:7}  {a50:6.1f} / {a99:5.1f}   the worker's "
              f"answer to the seat's last byte, max {amax:.1f} ms")  # fmt: skip
    print()
    for what, who, index, target in TARGETS:
        value = after[zero_key(PLAN_FACTOR, REFERENCE_BUS, who)][index]
        verdict = "met" if value <= target else f"MISSED by {value - target:.2f} ms"
        print(f"target (x{PLAN_FACTOR:g}, {REFERENCE_BUS}) {what}: {value:.1f} ms "
              f"<= {target:g} ms: {verdict}")  # fmt: skip
    idle = after["idle_collect_ms"][2] * host_factor(PLAN_FACTOR)
    print(
        f"a press arriving during the longest idle collection would wait {idle:.1f} ms more "
        f"on the Zero (x{PLAN_FACTOR:g}; {after['idle_collections']} idle collections)"
    )
    if after.get("idle_guess_ms"):
        guess = after["idle_guess_ms"][2] * host_factor(PLAN_FACTOR)
        print(f"... or during the longest frame drawn ahead: {guess:.1f} ms more "
              f"({after['idle_guesses']} drawn ahead)")  # fmt: skip
        ahead = after["ahead_ms"][1] * host_factor(PLAN_FACTOR)
        think = THINK_S * 1000
        print(f"drawing the frames ahead before a press took {ahead:.0f} ms of the Zero at "
              f"p99 (x{PLAN_FACTOR:g}); {after['ahead_cut']} presses came before it was done "
              f"(the player's think time: {think:.0f} ms)")  # fmt: skip
    gens = after["press_collections"]
    print(f"garbage collections during the presses: {gens[0]} young, {gens[1]} middle, "
          f"{gens[2]} full")  # fmt: skip
    print(
        f"glass checks: {after['glass_checks']} panels compared, {after['mismatches']} mismatches"
    )
    ahead, wrong = after.get("shown_ahead", (0, 0))
    print(
        f"presses shown on their seat's glass before the loop handled them (drawn ahead): "
        f"{ahead} of {after['presses']}; {wrong} of them not the press's frame after all"
    )
    if after.get("frames_given"):
        print(f"look-ups of the frames the worker drew after the bot's moves: "
              f"{after['frames_given']}")  # fmt: skip
    thinks, silent = after.get("think_presses", (0, 0))
    if thinks:
        print(f"presses while a bot's think was out: {thinks} ({silent} of them changed no "
              "glass: timed until the loop was done with them)")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--clock",
        choices=sorted(CLOCKS),
        default="thread",
        help="CPU stretches by the loop thread's CPU time (default) or wall time",
    )
    parser.add_argument(
        "--roll-show",
        type=float,
        metavar="SECONDS",
        help="how long a turn-ending roll stays up (default: the unit's; 0: not shown: "
        "every turn-ending roll then needs no dismissing press)",
    )
    parser.add_argument(
        "--no-lookahead",
        action="store_true",
        help="draw no frames ahead while idle (to measure what drawing them ahead gives)",
    )
    parser.add_argument(
        "--think",
        "--spacing",
        type=float,
        default=0.3,
        metavar="SECONDS",
        help="virtual time the loop idles before each press (default 0.3)",
    )
    parser.add_argument("--game", choices=game_names(), default=DEFAULT_GAME,
                        help="the registered game to play (default %(default)s)")  # fmt: skip
    parser.add_argument(
        "--busy",
        action="store_true",
        help="keep the other core busy meanwhile (a CPU loop in a process of its own)",
    )
    parser.add_argument(
        "--no-calibrate",
        action="store_true",
        help="scale CPU by K as on the reference machine, without timing this host",
    )
    parser.add_argument("--save", help="write the figures as JSON here")
    parser.add_argument(
        "--profile",
        metavar="FILE",
        help="profile the press path with pyinstrument (pip install pyinstrument); write its "
        "text tree here (.html: its HTML page)",
    )
    parser.add_argument("--baseline", help="JSON figures (--save of another run) to print beside")
    args = parser.parse_args()
    global clock, PROFILER, THINK_S
    clock = CLOCKS[args.clock]
    THINK_S = args.think
    if args.profile:
        from pyinstrument import Profiler

        PROFILER = Profiler(interval=0.0002)
    busy = subprocess.Popen([sys.executable, "-c", "while True: pass"]) if args.busy else None
    try:
        if not args.no_calibrate:
            CALIBRATION.measure()
        played = run(args.presses, args.seed, args.roll_show, not args.no_lookahead, args.game)
        if not args.no_calibrate:
            CALIBRATION.measure()
    finally:
        if busy is not None:
            busy.kill()
            busy.wait()
    figures = summarise(*played)
    figures.update(game=args.game, busy=args.busy)
    if PROFILER is not None:
        page = args.profile.endswith(".html")
        Path(args.profile).write_text(
            PROFILER.output_html() if page else PROFILER.output_text(show_all=False)
        )
    figures["clock"] = args.clock
    if args.save:
        Path(args.save).write_text(json.dumps(figures, indent=1) + "\n")
    before = json.loads(Path(args.baseline).read_text()) if args.baseline else None
    report(figures, before)


if __name__ == "__main__":
    main()
