"""Software debounce and long-press detection for one button (pure, clock-fed).

React on the first edge, then ignore edges for ``lockout`` seconds. When the lockout
ends, the last raw level seen wins, so a bounce storm yields at most one change per
lockout and never loses the final state. Not thread-safe: the owner locks.
"""

from __future__ import annotations

from hal.events import Button, ButtonDown, ButtonUp, Event, LongPress


class Debouncer:
    """Debounced state machine of one button of one seat."""

    def __init__(self, seat: int, button: Button, lockout: float, long_press: float | None) -> None:
        self.seat = seat
        self.button = button
        self.lockout = lockout
        self.long_press = long_press
        self.pressed = False
        self._raw = False
        self._raw_t = float("-inf")
        self._locked_until = float("-inf")
        self._pressed_at = 0.0
        self._long_fired = False

    def edge(self, t: float, pressed: bool) -> list[Event]:
        """Feed a raw edge (level after the edge) seen at time ``t``."""
        if pressed != self._raw:
            self._raw = pressed
            self._raw_t = t
        if t < self._locked_until or pressed == self.pressed:
            return []
        return [self._change(t)]

    def poll(self, now: float, raw: bool | None = None) -> list[Event]:
        """Events due at ``now``; ``raw`` optionally refreshes the input level."""
        if raw is not None and raw != self._raw:
            self._raw = raw
            self._raw_t = now
        out: list[Event] = []
        if self._raw != self.pressed and now >= self._locked_until:
            out.append(self._change(max(self._locked_until, self._raw_t)))
        long_due = self._long_due()
        if long_due is not None and now >= long_due:
            self._long_fired = True
            held = now - self._pressed_at
            out.append(LongPress(now, self.seat, self.button, held))
        return out

    def next_deadline(self) -> float | None:
        """When :meth:`poll` next has something to do."""
        long_due = self._long_due()  # (asked for every button before every loop step)
        if self._raw == self.pressed:
            return long_due
        return self._locked_until if long_due is None else min(long_due, self._locked_until)

    def _long_due(self) -> float | None:
        if self.long_press is None or not self.pressed or self._long_fired:
            return None
        return self._pressed_at + self.long_press

    def _change(self, t: float) -> Event:
        self.pressed = not self.pressed
        self._locked_until = t + self.lockout
        if self.pressed:
            self._pressed_at = t
            self._long_fired = False
            return ButtonDown(t, self.seat, self.button)
        return ButtonUp(t, self.seat, self.button, t - self._pressed_at)
