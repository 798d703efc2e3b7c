"""How test mode presses buttons and shakes: through the same path as a finger, as the
HAL says (:meth:`hal.interfaces.Hal.test_input`).

On the Pi backend over gpiozero's MockFactory (CI, ``--hal mock``) it drives the
button's mock pin, so the press goes pin -> gpiozero callback -> debouncer -> event
queue exactly as on the unit. On the simulator it feeds SimHal's input like a key. On
other backends with debouncers (a real unit in test mode) it feeds the debouncer
the edge the pin would have given.
"""

from __future__ import annotations

from hal.events import Button
from hal.interfaces import Hal


class Fingers:
    """Press/release buttons and shake the shaker of one HAL."""

    def __init__(self, hal: Hal) -> None:
        self.input = hal.test_input()
        self.path = self.input.path

    def button(self, seat: int, button: Button, pressed: bool) -> None:
        self.input.button(seat, button, pressed)

    def shake_edge(self) -> None:
        """One activity sample of the shaker (one edge of the vibration switch)."""
        self.input.shake_edge()
