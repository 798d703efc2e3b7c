"""The frame-driven host: pygame input → SimHal → :meth:`Unit.step` → the window.

:meth:`SimHost.pump` does one round without blocking (tests call it on a virtual
clock); :meth:`SimHost.run` loops in real time, sleeping (:mod:`sim.idle`)
until the next input, unit deadline or frame, and redrawing only what changed.
"""

from __future__ import annotations

import pygame

from firmware.api import Unit
from sim.idle import InputWaiter
from sim.tableview import game_table_view
from sim.window import SimWindow, TableView

#: Longest sleep while nothing is due (the window still reacts to input at once).
IDLE_WAIT = 10.0


class SimHost:
    """Runs a :class:`Unit` on a :class:`SimWindow`'s HAL."""

    def __init__(self, unit: Unit, window: SimWindow, *, fps: int = 60,
                 seed: int | None = None, max_wait: float | None = None) -> None:  # fmt: skip
        self.unit = unit
        #: Longest sleep (a serial link's frames wake nothing the waiter sees)
        self.max_wait = IDLE_WAIT if max_wait is None else max_wait
        self.window = window
        self.clock = unit.clock
        self.frame_time = 1.0 / max(1, fps)
        self.seed = seed
        self.last_draw = float("-inf")
        self.draws = 0

    @property
    def running(self) -> bool:
        return self.window.running

    def view(self) -> TableView:
        """The centre and titles for the unit's current state."""
        ui = self.unit.controller.ui()
        return game_table_view(self.unit.game.name, ui.state, ui.seat_kinds(),
                               mode=str(ui.mode), seed=self.seed,
                               rolling=ui.tumble is not None,
                               shown=ui.roll_shown)  # fmt: skip

    def handle_input(self, events: list[pygame.event.Event] | None = None) -> None:
        """Feed pygame events (default: everything queued) to the window and the HAL."""
        for event in pygame.event.get() if events is None else events:
            self.window.handle(event)

    def pump(self, *, force_draw: bool = False) -> bool:
        """One non-blocking round: input, unit step, redraw if due. False once quit."""
        self.handle_input()
        self.unit.step()
        self.redraw(force=force_draw)
        return self.window.running

    def redraw(self, *, force: bool = False) -> bool:
        """Draw if something visible changed (at most once per frame time, unless forced)."""
        view = self.view()
        if not (force or self.window.needs_redraw(view)):
            return False
        now = self.clock.now()
        if not force and now - self.last_draw < self.frame_time:
            return False
        self.window.draw(view)
        self.last_draw = now
        self.draws += 1
        return True

    def timeout(self) -> float:
        """Seconds to sleep before the next round."""
        now = self.clock.now()
        wake = now + self.max_wait
        deadline = self.unit.next_deadline()
        if deadline is not None:
            wake = min(wake, deadline)
        if self.unit.thinking:  # its answer comes to the unit's queue, not to the window
            wake = min(wake, now + self.frame_time)
        if self.window.needs_redraw(self.view()):
            wake = min(wake, self.last_draw + self.frame_time)
        return max(0.0, wake - now)

    def run(self) -> None:
        """Real time until the window is closed."""
        self.unit.start()
        self.redraw(force=True)
        waiter = InputWaiter()
        while self.pump():
            for event in waiter.wait(self.timeout()):
                self.window.handle(event)
