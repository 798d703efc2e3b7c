"""What every step of the self-test shares: the HAL, the config, the prompts, the clock.

A step is a :class:`SelfTestStep`: its rows of the report are planned before anything
runs (so Ctrl-C still reports every item), then its ``run`` fills them in through a
:class:`Context`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from PIL import Image

from hal.config import UnitConfig
from hal.events import Button, ButtonDown, Event
from hal.interfaces import Hal

from .report import Check, Status, Step

RESULT_S = 1.0  #: how long a step's result stays up before the next step


@dataclass(frozen=True, slots=True)
class Ask:
    """What the self-test waits for: ``button`` on ``seat``, a shake, or YES/NO about
    the buzzer or ``seat``'s LED (``button`` None: answer on any seat)."""

    step: Step
    seat: int | None = None
    button: Button | None = None


@dataclass(eq=False)
class Context:
    """One run's HAL, config and settings, what it waits for (:attr:`asks`), and the
    event, pause, prompt and drawing helpers the steps share."""

    hal: Hal
    config: UnitConfig
    timeout: float  #: how long each press, shake or answer may take
    out: Callable[[str], None]  #: prompts and progress lines
    block: Callable[[float], Event | None]  #: ``hal.events.get`` or a virtual-time stand-in
    pattern_s: float  #: how long the test patterns stay up
    step: Step | None = None  #: the step running
    asks: tuple[Ask, ...] = ()  #: what it waits for right now
    dark: set[int] = field(default_factory=set)  #: seats whose display failed: not drawn on

    def resolved(self, seat: int) -> int | Exception | None:
        """The bus a display's mux channel resolved to at start-up (Pi backend only)."""
        return self.hal.display_bus(seat)

    def say(self, check: Check) -> None:
        """Print a finished check's progress line."""
        self.out(check.line())

    def next_event(self, until: float) -> Event | None:
        """The next event, polling the HAL at its deadlines; None once ``until`` passes."""
        hal, clock = self.hal, self.hal.clock
        while True:
            now = clock.now()
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

    def pause(self, seconds: float) -> None:
        """Let ``seconds`` pass, dropping events (a press now answers nothing)."""
        until = self.hal.clock.now() + seconds
        while self.next_event(until) is not None:
            pass

    def yes_no(self, ask: Ask, again: Callable[[], None] | None = None) -> Button | None:
        """YES or NO pressed on any seat within the timeout (None: no answer); any other
        button calls ``again``."""
        self.asks = (ask,)
        until = self.hal.clock.now() + self.timeout
        try:
            while (event := self.next_event(until)) is not None:
                if isinstance(event, ButtonDown):
                    if event.button in (Button.YES, Button.NO):
                        return event.button
                    if again is not None:
                        again()
            return None
        finally:
            self.asks = ()

    def conclude(self, check: Check, answer: Button | None, yes: str, no: str) -> None:
        """Record a YES/NO answer to ``check`` (YES passes with note ``yes``, NO fails
        with ``no``, no answer fails) and print it."""
        if answer is Button.YES:
            check.done(Status.PASS, yes)
        elif answer is Button.NO:
            check.done(Status.FAIL, no)
        else:
            check.done(Status.FAIL, f"no answer within {self.timeout:g} s")
        self.say(check)

    def show(self, seat: int, image: Image.Image) -> Exception | None:
        """Draw on a seat's display; returns the bus error if it failed."""
        if seat in self.dark:
            return None
        display = self.hal.seats[seat].display
        try:
            display.show(image)
        except Exception as exc:  # any backend's failure is a finding, not a crash
            return exc
        return display.last_error

    def show_all(self, image: Image.Image) -> None:
        for seat in range(len(self.hal.seats)):
            self.show(seat, image)


class SelfTestStep(Protocol):
    """One step of the self-test (a kind of check)."""

    step: Step  #: its name; ``--skip`` takes it

    def plan(self, ctx: Context) -> list[Check]:
        """Its report rows, none checked yet."""
        ...

    def run(self, ctx: Context, checks: list[Check]) -> None:
        """Check each of ``checks`` (its planned rows): mark it done and :meth:`Context.say`
        it as soon as it is known, so Ctrl-C keeps what was found so far."""
        ...
