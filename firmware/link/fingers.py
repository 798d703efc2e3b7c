"""How test mode presses buttons and shakes: through the same path as a finger.

On the Pi backend over gpiozero's MockFactory (CI, ``--hal mock``) it drives the
button's mock pin, so the press goes pin -> gpiozero callback -> debouncer -> event
queue exactly as on the unit. On the simulator it feeds SimHal's input like a key. On
other backends with debouncers (a real unit in test mode) it feeds the debouncer
the edge the pin would have given.
"""

from __future__ import annotations

from typing import Any

from hal.events import Button
from hal.interfaces import Hal


class Fingers:
    """Press/release buttons and shake the shaker of one HAL."""

    def __init__(self, hal: Hal) -> None:
        self.hal = hal
        factory = getattr(hal, "_pin_factory", None)
        config = getattr(hal, "config", None)
        self._mock = factory is not None and type(factory).__name__ == "MockFactory"
        self._factory: Any = factory
        self._config: Any = config
        self.path = (
            "gpiozero mock pins" if self._mock
            else "simulator input" if hasattr(hal, "press")
            else "debouncer edges"
        )  # fmt: skip

    def button(self, seat: int, button: Button, pressed: bool) -> None:
        if self._mock:
            pin = self._factory.pin(self._config.seats[seat].buttons[button])
            pin.drive_low() if pressed else pin.drive_high()  # buttons pull up
        elif hasattr(self.hal, "press"):
            (self.hal.press if pressed else self.hal.release)(seat, button)  # type: ignore[attr-defined]
        else:
            edge = getattr(self.hal, "_edge", None)
            if edge is None:
                raise RuntimeError(f"{type(self.hal).__name__} has no way to press a button")
            edge(seat, button, pressed)

    def shake_edge(self) -> None:
        """One activity sample of the shaker (one edge of the vibration switch)."""
        if self._mock and self._config.shaker is not None:
            pin = self._factory.pin(self._config.shaker.pin)
            pin.drive_high() if pin.state == 0 else pin.drive_low()
            return
        activity = getattr(self.hal.shaker, "activity", None)
        if activity is None:
            raise RuntimeError(f"{type(self.hal).__name__}'s shaker takes no activity")
        activity()
