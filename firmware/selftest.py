"""``switch16 selftest``: the bring-up check a maker runs after wiring the kit.

:class:`SelfTest` walks through :data:`STEPS`: displays (a test pattern per seat),
buttons (YES, NO, CHIP on every seat at once), shaker, buzzer, LEDs. It returns a
:class:`Report`: one PASS/FAIL/SKIPPED :class:`Check` per item, naming its config key
and pin. Single-threaded like the unit loop: it blocks on ``hal.events`` until the
next deadline, and all time comes from ``hal.clock``.

Real time::

    with open_backend(None, config) as hal:
        report = SelfTest(hal, config).run()      # Ctrl-C: the partial report
    print(report.format())

Virtual time (tests): pass ``block(timeout) -> Event | None``, which stands in for
``hal.events.get(timeout)``: it may drive pins in answer to :attr:`SelfTest.asks`
and moves the virtual clock on.
"""

from __future__ import annotations

import inspect
import logging
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from PIL import Image

from firmware.screens import selftest as screens
from hal.config import DisplayConfig, UnitConfig
from hal.events import Button, ButtonDown, Event, ShakeStarted, ShakeStopped
from hal.interfaces import Hal
from hal.wiring import HEADER_PIN

log = logging.getLogger(__name__)

DEFAULT_TIMEOUT_S = 30.0  #: how long each press, shake or answer may take
PATTERN_S = 4.0  #: how long the test patterns stay up
RESULT_S = 1.0  #: how long a step's result stays up before the next step
REFRESH_S = 0.25  #: live edge-count refresh while waiting for a shake
NOTE_S = 0.25  #: length of each note of the buzzer's scale
ORDER = (Button.YES, Button.NO, Button.CHIP)
_MAJOR = (0, 2, 4, 5, 7, 9, 11, 12)
_NOTES = ("C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B")


class Step(StrEnum):
    """The steps, in the order they run (displays first: later steps prompt on them)."""

    DISPLAYS = "displays"
    BUTTONS = "buttons"
    SHAKER = "shaker"
    BUZZER = "buzzer"
    LEDS = "leds"


STEPS = tuple(Step)


class Status(StrEnum):
    PASS = "PASS"
    FAIL = "FAIL"
    SKIPPED = "SKIPPED"


_TALLY = {Status.PASS: "passed", Status.FAIL: "failed", Status.SKIPPED: "skipped"}


@dataclass
class Check:
    """One report row: ``item`` (e.g. "seat 2 NO"), its config ``key`` and ``wiring``."""

    step: Step
    item: str
    key: str
    wiring: str
    seat: int | None = None
    button: Button | None = None
    status: Status | None = None  #: None until checked
    detail: str = ""

    def done(self, status: Status, detail: str = "") -> None:
        self.status, self.detail = status, detail


@dataclass
class Report:
    """Every check of a run; ``interrupted`` after Ctrl-C."""

    unit: str
    checks: list[Check]
    interrupted: bool = False

    def __getitem__(self, item: str) -> Check:
        """The check named ``item``, e.g. ``report["seat 2 NO"]``."""
        return next(c for c in self.checks if c.item == item)

    @property
    def failed(self) -> list[Check]:
        return [c for c in self.checks if c.status is Status.FAIL]

    @property
    def passed(self) -> bool:
        """Finished with no failures (skipped items do not fail the run)."""
        return not self.interrupted and not self.failed

    @property
    def exit_code(self) -> int:
        return 0 if self.passed else 1

    def format(self) -> str:
        """The report as a plain-text table and a verdict line."""
        head = ("item", "result", "config key", "wiring", "detail")
        rows = [head] + [
            (c.item, str(c.status or "-"), c.key, c.wiring, c.detail) for c in self.checks
        ]
        widths = [max(len(r[i]) for r in rows) for i in range(len(head) - 1)]
        lines = [f"Self-test report: {self.unit}"]
        for row in rows:
            cells = [cell.ljust(w) for cell, w in zip(row, widths, strict=False)]
            lines.append("  ".join([*cells, row[-1]]).rstrip())
        counts = {s: sum(c.status is s for c in self.checks) for s in Status}
        tally = ", ".join(f"{counts[s]} {word}" for s, word in _TALLY.items())
        failed = ", ".join(c.item for c in self.failed)
        if self.interrupted:
            verdict = "INTERRUPTED, " + (f"FAIL: {failed}" if failed else "no failures so far")
        else:
            verdict = f"FAIL: {failed}" if failed else "PASS"
        lines.append(f"Result: {verdict} ({tally})")
        return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class Ask:
    """What the self-test waits for: ``button`` on ``seat``, a shake, or YES/NO about
    the buzzer or ``seat``'s LED (``button`` None: answer on any seat)."""

    step: Step
    seat: int | None = None
    button: Button | None = None


def gpio(pin: int | None) -> str:
    """``GPIO 17 (pin 11)``: BCM number and header pin."""
    if pin is None:
        return "-"
    header = HEADER_PIN.get(pin)
    return f"GPIO {pin}" + (f" (pin {header})" if header else "")


def bus_of(d: DisplayConfig, resolved: int | Exception | None = None) -> str:
    """Where a display is: ``I²C-22 0x3C``, ``I²C-24 ch2 0x3C`` (a mux channel and the
    bus it resolved to), ``mux ch2 ? 0x3C`` (unresolved) or ``SPI0 CE1 DC16``."""
    if d.bus == "spi":
        return f"SPI{d.port} CE{d.device} DC{d.dc}"
    address = f"0x{d.address or 0:02X}"
    if d.channel is None:
        return f"I²C-{d.port} {address}"
    if isinstance(resolved, int):
        return f"I²C-{resolved} ch{d.channel} {address}"
    return f"mux ch{d.channel} ? {address}"


def pattern_lines(d: DisplayConfig, resolved: int | None = None) -> tuple[str, str, str]:
    """The lines of a seat's test pattern."""
    return bus_of(d, resolved), d.driver, f"rotate {d.rotate}"


def scale(mid_tone: str, seconds: float = NOTE_S) -> list[tuple[str | None, float]]:
    """A major scale up one octave from ``mid_tone`` (a buzzer plays ±1 octave of it)."""
    m = re.fullmatch(r"([A-G])([#b]?)(\d)", mid_tone)
    if m is None:
        raise ValueError(f"{mid_tone!r} is not a note name like 'A4'")
    letter, accidental, octave = m.groups()
    midi = 12 * (int(octave) + 1) + _NOTES.index(letter) + {"#": 1, "b": -1, "": 0}[accidental]
    names = [f"{_NOTES[(midi + s) % 12]}{(midi + s) // 12 - 1}" for s in _MAJOR]
    return [(name, seconds) for name in names]


def open_backend(name: str | None, config: UnitConfig, **kwargs: Any) -> Hal:
    """Load the backend like ``switch16 run``, keeping failed displays where it can."""
    from hal.backends import load_backend, resolve_backend

    if "keep_failed_displays" in inspect.signature(resolve_backend(name)).parameters:
        kwargs.setdefault("keep_failed_displays", True)
    return load_backend(name, config, **kwargs)


class SelfTest:
    """One self-test run over a HAL; :meth:`run` returns the :class:`Report`.

    ``out`` gets the prompts and progress lines; ``skip`` leaves steps out.
    """

    def __init__(
        self,
        hal: Hal,
        config: UnitConfig,
        *,
        timeout: float = DEFAULT_TIMEOUT_S,
        skip: Iterable[Step | str] = (),
        out: Callable[[str], None] | None = None,
        block: Callable[[float], Event | None] | None = None,
        pattern_s: float = PATTERN_S,
    ) -> None:
        self.hal = hal
        self.config = config
        self.clock = hal.clock
        self.timeout = timeout
        self.skip = frozenset(Step(s) for s in skip)
        self.out = out or (lambda line: print(line, flush=True))
        self.block = block or hal.events.get
        self.pattern_s = pattern_s
        self.step: Step | None = None  #: the step running
        self.asks: tuple[Ask, ...] = ()  #: what it waits for right now
        self.report = Report(config.name, self._plan())
        self._dark: set[int] = set()  # seats whose display failed: not drawn on again

    def _resolved(self, seat: int) -> int | Exception | None:
        """The bus a display's mux channel resolved to at start-up (Pi backend only)."""
        return getattr(self.hal, "resolved", {}).get(seat)

    def _plan(self) -> list[Check]:
        seats = self.config.seats[: len(self.hal.seats)]
        checks = [
            Check(
                Step.DISPLAYS,
                f"seat {s.index} display",
                f"seats[{s.index}].display",
                f"{s.display.driver} {bus_of(s.display, self._resolved(s.index))} "
                f"rotate {s.display.rotate}",
                s.index,
            )
            for s in seats
        ]
        checks += [
            Check(
                Step.BUTTONS,
                f"seat {s.index} {b.name}",
                f"seats[{s.index}].buttons.{b}",
                gpio(s.buttons[b]),
                s.index,
                b,
            )
            for s in seats
            for b in ORDER
        ]
        checks.append(Check(Step.SHAKER, "shaker", "shaker.pin", gpio(self.config.shaker.pin)))
        buzzer = self.config.buzzer
        checks.append(Check(Step.BUZZER, "buzzer", "buzzer.pin", gpio(buzzer and buzzer.pin)))
        leds = [
            Check(Step.LEDS, f"seat {s.index} LED", f"seats[{s.index}].led", gpio(s.led), s.index)
            for s in seats
            if s.led is not None
        ]
        return checks + (leds or [Check(Step.LEDS, "LEDs", "seats[*].led", "-")])

    # ------------------------------------------------------------------ running
    def run(self) -> Report:
        """Run every step; Ctrl-C stops early. Always leaves displays, LEDs and buzzer off."""
        steps = {
            Step.DISPLAYS: self._displays,
            Step.BUTTONS: self._buttons,
            Step.SHAKER: self._shaker,
            Step.BUZZER: self._buzzer,
            Step.LEDS: self._leds,
        }
        self.out(f"Self-test of {self.config.name!r}: {len(self.hal.seats)} seats.")
        try:
            for step in STEPS:
                self.step = step
                checks = [c for c in self.report.checks if c.step is step]
                if step in self.skip:
                    for check in checks:
                        check.done(Status.SKIPPED, "--skip")
                    self.out(f"{step.capitalize()}: skipped.")
                    continue
                steps[step](checks)
        except KeyboardInterrupt:
            self.report.interrupted = True
            self.out("Interrupted: the report shows what was checked so far.")
        finally:
            self.step, self.asks = None, ()
            self._tidy()
        for check in self.report.checks:
            if check.status is None:
                check.done(Status.SKIPPED, "interrupted")
        return self.report

    def _displays(self, checks: list[Check]) -> None:
        self.out(
            "Displays: each panel shows its seat number inside a full border, and an arrow "
            "that must point away from the player (if not, change that seat's display "
            "rotate; a cut or shifted border: the wrong driver)."
        )
        for check in checks:
            seat = check.seat
            assert seat is not None
            display = self.hal.seats[seat].display
            error = display.last_error  # set already: the display failed to start
            if error is None:
                d = self.config.seats[seat].display
                resolved = self._resolved(seat)
                lines = pattern_lines(d, resolved if isinstance(resolved, int) else None)
                error = self._show(seat, screens.render_pattern(seat, lines))
            if error is None:
                check.done(Status.PASS, "pattern sent")
            else:
                self._dark.add(seat)
                check.done(Status.FAIL, f"{type(error).__name__}: {error}")
            self._say(check)
        self.asks = (Ask(Step.DISPLAYS),)
        self._pause(self.pattern_s)

    def _buttons(self, checks: list[Check]) -> None:
        rows = {(c.seat, c.button): c for c in checks}
        seats = sorted({c.seat for c in checks if c.seat is not None})
        self.out(
            f"Buttons: on every seat press YES, then NO, then CHIP ({self.timeout:g} s "
            "each). Each press ticks off on its seat's screen (go seat by seat to see "
            "that the ticks land on the right one)."
        )
        self.hal.poll()  # a button held low since start-up shows up now
        self.hal.events.drain()
        for seat in seats:
            for b in ORDER:
                if self.hal.seats[seat].is_pressed(b):
                    rows[(seat, b)].done(
                        Status.FAIL, "down before it was asked: stuck, or shorted to GND"
                    )
                    self._say(rows[(seat, b)])
        asked: dict[int, Button | None] = {}
        since: dict[int, float] = {}
        wrong: dict[int, list[Button]] = {}  # presses of other buttons while one was asked
        got: dict[int, str] = {}

        def ask_next(seat: int, now: float) -> None:
            todo = [b for b in ORDER if rows[(seat, b)].status is None]
            asked[seat] = todo[0] if todo else None
            since[seat], wrong[seat], got[seat] = now, [], ""

        def draw(seat: int) -> None:
            marks = [(b.name, self._mark(rows[(seat, b)], b is asked[seat])) for b in ORDER]
            self._show(seat, screens.render_buttons(seat, marks, got[seat]))

        def pins(buttons: list[Button], seat: int) -> str:
            return ", ".join(
                f"{b.name} ({gpio(self.config.seats[seat].buttons[b])})" for b in buttons
            )

        now = self.clock.now()
        for seat in seats:
            ask_next(seat, now)
            draw(seat)
        while pending := [s for s in seats if asked[s] is not None]:
            self.asks = tuple(Ask(Step.BUTTONS, s, asked[s]) for s in pending)
            event = self._next_event(min(since[s] for s in pending) + self.timeout)
            now = self.clock.now()
            if isinstance(event, ButtonDown) and event.seat in pending:
                seat, want = event.seat, asked[event.seat]
                assert want is not None
                row = rows[(seat, want)]
                if event.button is want:
                    if wrong[seat]:
                        row.done(
                            Status.FAIL,
                            f"got {pins(wrong[seat], seat)} first: swapped "
                            f"wires, or a wrong press (then {want.name} worked)",
                        )
                    else:
                        row.done(Status.PASS, f"pressed after {event.t - since[seat]:.1f} s")
                    self._say(row)
                    ask_next(seat, now)
                else:
                    wrong[seat].append(event.button)
                    got[seat] = event.button.name
                    self.out(
                        f"  seat {seat}: got {pins([event.button], seat)} when "
                        f"{want.name} was asked: wrong button, or swapped wires?"
                    )
                draw(seat)
            for seat in pending:
                want = asked[seat]
                if want is not None and now >= since[seat] + self.timeout:
                    detail = f"not pressed within {self.timeout:g} s"
                    if wrong[seat]:
                        detail += f"; got {pins(wrong[seat], seat)} instead: swapped wires?"
                    rows[(seat, want)].done(Status.FAIL, detail)
                    self._say(rows[(seat, want)])
                    ask_next(seat, now)
                    draw(seat)
        self.asks = ()
        self._pause(RESULT_S)

    def _shaker(self, checks: list[Check]) -> None:
        (check,) = checks
        sh, shaker = self.config.shaker, self.hal.shaker
        base = getattr(shaker, "samples", None)

        def edges() -> int | None:
            return None if base is None else shaker.samples - base  # type: ignore[attr-defined]

        ms = round(sh.start_window_s * 1000)
        self.out(
            f"Shaker on {check.wiring}: shake the unit now ({self.timeout:g} s). A shake "
            f"starts at {sh.start_edges} edges within {ms} ms."
        )
        start = self.clock.now()
        started: ShakeStarted | None = None
        status = "waiting for a shake"
        shown: tuple[int | None, str] | None = None
        self.asks = (Ask(Step.SHAKER),)
        while check.status is None:
            seen = (edges(), status)
            if seen != shown:
                count = "?" if seen[0] is None else str(seen[0])
                self._show_all(
                    screens.render_message(
                        "SHAKER", ("Shake the unit now!", f"edges: {count}", status)
                    )
                )
                shown = seen
            if started is None:
                limit = start + self.timeout
            else:  # a shake always ends: quiet, or capped at max_roll
                limit = started.t + sh.max_roll_s + sh.stop_quiet_s + 1.0
            now = self.clock.now()
            if now >= limit:
                break
            event = self._next_event(min(limit, now + REFRESH_S))
            if isinstance(event, ShakeStarted):
                started = event
                status = "shaking..."
                self.out(f"  ShakeStarted at +{event.t - start:.2f} s ({edges()} edges so far)")
            elif isinstance(event, ShakeStopped) and started is not None:
                capped = ", capped" if event.capped else ""
                detail = f"{event.duration:.2f} s shake, {event.edges} edges{capped}"
                self.out(f"  ShakeStopped: {detail}")
                status = f"ok: {event.duration:.2f} s, {event.edges} edges"
                check.done(Status.PASS, detail)
        if check.status is None:
            n = edges()
            if started is not None:
                detail = "started but never stopped"
            elif n is None:
                detail = f"no shake within {self.timeout:g} s"
            elif n == 0:
                detail = f"no edges within {self.timeout:g} s: check the sensor's wiring and power"
            else:
                detail = (
                    f"{n} edges, never {sh.start_edges} within {ms} ms: shake harder, "
                    "or turn the sensor's sensitivity pot"
                )
            check.done(Status.FAIL, detail)
            status = "FAILED"
        self._say(check)
        count = "?" if edges() is None else str(edges())
        self._show_all(
            screens.render_message("SHAKER", ("Shake the unit now!", f"edges: {count}", status))
        )
        self.asks = ()
        self._pause(RESULT_S)

    def _buzzer(self, checks: list[Check]) -> None:
        (check,) = checks
        buzzer = self.hal.buzzer
        if self.config.buzzer is None or buzzer is None:
            check.done(Status.SKIPPED, "not configured")
            self._say(check)
            return
        if getattr(self.config.buzzer, "mute", False):
            check.done(Status.SKIPPED, "muted (buzzer.mute = true)")
            self._say(check)
            return
        tune = scale(self.config.buzzer.mid_tone)
        try:
            buzzer.play(tune)
        except Exception as exc:  # an out-of-range note, a PWM error: report it
            check.done(Status.FAIL, f"{type(exc).__name__}: {exc}")
            self._say(check)
            return
        self.out(
            f"Buzzer on {check.wiring}: playing a scale. Heard it? YES or NO on any seat "
            "(CHIP plays it again)."
        )
        screen = screens.render_message(
            "BUZZER",
            ("Did you hear", "a scale?", "CHIP: play it again"),
            (("YES", "heard it"), ("NO", "no")),
        )
        self._show_all(screen)
        answer = self._yes_no(Ask(Step.BUZZER), again=lambda: buzzer.play(tune))
        buzzer.stop()
        if answer is Button.YES:
            check.done(Status.PASS, "heard")
        elif answer is Button.NO:
            check.done(Status.FAIL, "not heard: a passive piezo on a PWM pin, wired to GND?")
        else:
            check.done(Status.FAIL, f"no answer within {self.timeout:g} s")
        self._say(check)

    def _leds(self, checks: list[Check]) -> None:
        if checks[0].seat is None:
            checks[0].done(Status.SKIPPED, "none configured")
            self._say(checks[0])
            return
        self.out("LEDs: one after the other; say on any seat whether it is lit (YES) or not (NO).")
        for led in self.hal.leds:
            if led is not None:
                led.set(False)
        for check in checks:
            seat = check.seat
            assert seat is not None
            led = self.hal.seats[seat].led
            if led is None:
                check.done(Status.SKIPPED, "this backend has no LEDs")
                self._say(check)
                continue
            led.set(True)
            for other in range(len(self.hal.seats)):
                lines = (
                    ("Is this seat's", "LED lit?")
                    if other == seat
                    else (f"Is seat {seat}'s", "LED lit?")
                )
                self._show(
                    other, screens.render_message("LED", lines, (("YES", "lit"), ("NO", "dark")))
                )
            answer = self._yes_no(Ask(Step.LEDS, seat))
            led.set(False)
            if answer is Button.YES:
                check.done(Status.PASS, "lit")
            elif answer is Button.NO:
                check.done(Status.FAIL, "not lit: check its polarity and resistor")
            else:
                check.done(Status.FAIL, f"no answer within {self.timeout:g} s")
            self._say(check)

    # ------------------------------------------------------------------ helpers
    def _next_event(self, until: float) -> Event | None:
        """The next event, polling the HAL at its deadlines; None once ``until`` passes."""
        hal = self.hal
        while True:
            now = self.clock.now()
            due = hal.next_deadline()
            if due is not None and due <= now:
                hal.poll(now)
                due = hal.next_deadline()
            event = hal.events.get(0)
            if event is not None:
                return event
            if now >= until:
                return None
            wake = until if due is None or due <= now else min(until, due)
            event = self.block(wake - now)
            if event is not None:
                return event

    def _pause(self, seconds: float) -> None:
        """Let ``seconds`` pass, dropping events (a press now answers nothing)."""
        until = self.clock.now() + seconds
        while self._next_event(until) is not None:
            pass

    def _yes_no(self, ask: Ask, again: Callable[[], None] | None = None) -> Button | None:
        """YES or NO pressed on any seat within the timeout (None: no answer)."""
        self.asks = (ask,)
        until = self.clock.now() + self.timeout
        try:
            while (event := self._next_event(until)) is not None:
                if isinstance(event, ButtonDown):
                    if event.button in (Button.YES, Button.NO):
                        return event.button
                    if again is not None:
                        again()
            return None
        finally:
            self.asks = ()

    def _show(self, seat: int, image: Image.Image) -> Exception | None:
        """Draw on a seat's display; returns the bus error if it failed."""
        if seat in self._dark:
            return None
        display = self.hal.seats[seat].display
        try:
            display.show(image)
        except Exception as exc:  # any backend's failure is a finding, not a crash
            return exc
        return display.last_error

    def _show_all(self, image: Image.Image) -> None:
        for seat in range(len(self.hal.seats)):
            self._show(seat, image)

    @staticmethod
    def _mark(check: Check, now: bool) -> str:
        if check.status is Status.PASS:
            return screens.OK
        if check.status is Status.FAIL:
            return screens.FAIL
        return screens.NOW if now else screens.TODO

    def _say(self, check: Check) -> None:
        self.out(
            f"  {check.status or '-'}: {check.item} [{check.key}, {check.wiring}]"
            f"{': ' + check.detail if check.detail else ''}"
        )

    def _tidy(self) -> None:
        """Buzzer off, LEDs off, displays blank (also after Ctrl-C)."""
        actions: list[Callable[[], Any]] = []
        if self.hal.buzzer is not None:
            actions.append(self.hal.buzzer.stop)
        for led in self.hal.leds:
            if led is not None:
                actions.append(lambda led=led: led.set(False))
        for index, seat in enumerate(self.hal.seats):
            if index not in self._dark:
                actions.append(seat.display.clear)
        for action in actions:
            try:
                action()
            except Exception as exc:  # keep tidying the rest
                log.warning("self-test clean-up: %s", exc)
