"""The self-test run: plan every step's rows, run the steps in order, tidy up."""

from __future__ import annotations

import inspect
import logging
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from typing import Any

from hal.backends import load_backend, resolve_backend
from hal.config import UnitConfig
from hal.events import Event
from hal.interfaces import Hal

from .buttons import Buttons
from .buzzer import Buzzer
from .context import Ask, Context, SelfTestStep
from .displays import PATTERN_S, Displays
from .leds import Leds
from .report import Report, Status, Step
from .shaker import Shaker

log = logging.getLogger("firmware.selftest")

DEFAULT_TIMEOUT_S = 30.0  #: how long each press, shake or answer may take

#: The steps in the order they run (displays first: later steps prompt on them).
STAGES: tuple[SelfTestStep, ...] = (Displays(), Buttons(), Shaker(), Buzzer(), Leds())


def open_backend(name: str | None, config: UnitConfig, **kwargs: Any) -> Hal:
    """Load the backend like ``switch16 run``, keeping failed displays where it can."""
    if "keep_failed_displays" in inspect.signature(resolve_backend(name)).parameters:
        kwargs.setdefault("keep_failed_displays", True)
    return load_backend(name, config, **kwargs)


class SelfTest:
    """One self-test run over a HAL; :meth:`run` returns the :class:`Report`.

    ``out`` gets the prompts and progress lines; ``skip`` leaves steps out; ``block``
    stands in for ``hal.events.get(timeout)`` (virtual time in tests).
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
        stages: Sequence[SelfTestStep] = STAGES,
    ) -> None:
        self.hal = hal
        self.config = config
        self.skip = frozenset(Step(s) for s in skip)
        self.stages = tuple(stages)
        self.ctx = Context(
            hal,
            config,
            timeout,
            out or (lambda line: print(line, flush=True)),
            block or hal.events.get,
            pattern_s,
        )
        self._rows = [stage.plan(self.ctx) for stage in self.stages]  # per stage
        self.report = Report(config.name, [c for rows in self._rows for c in rows])

    @property
    def step(self) -> Step | None:
        """The step running."""
        return self.ctx.step

    @property
    def asks(self) -> tuple[Ask, ...]:
        """What it waits for right now."""
        return self.ctx.asks

    def run(self) -> Report:
        """Run every step; Ctrl-C stops early. Always leaves displays, LEDs and buzzer off."""
        ctx = self.ctx
        ctx.out(f"Self-test of {self.config.name!r}: {len(self.hal.seats)} seats.")
        try:
            for stage, checks in zip(self.stages, self._rows, strict=True):
                ctx.step = stage.step
                if stage.step in self.skip:
                    for check in checks:
                        check.done(Status.SKIPPED, "--skip")
                    ctx.out(f"{stage.step.capitalize()}: skipped.")
                    continue
                stage.run(ctx, checks)
        except KeyboardInterrupt:
            self.report.interrupted = True
            ctx.out("Interrupted: the report shows what was checked so far.")
        finally:
            ctx.step, ctx.asks = None, ()
            self._tidy()
        for check in self.report.checks:
            if check.status is None:
                check.done(Status.SKIPPED, "interrupted")
        return self.report

    def _tidy(self) -> None:
        """Buzzer off, LEDs off, displays blank (also after Ctrl-C)."""
        actions: list[Callable[[], Any]] = []
        if self.hal.buzzer is not None:
            actions.append(self.hal.buzzer.stop)
        for led in self.hal.leds:
            if led is not None:
                actions.append(partial(led.set, False))
        for index, seat in enumerate(self.hal.seats):
            if index not in self.ctx.dark:
                actions.append(seat.display.clear)
        for action in actions:
            try:
                action()
            except Exception as exc:  # keep tidying the rest
                log.warning("self-test clean-up: %s", exc)
