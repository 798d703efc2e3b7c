"""An RPi.GPIO-shaped adapter over gpiozero, for luma's SPI interface (DC/RST pins).

luma's ``spi(gpio=...)`` drives DC and RST through an RPi.GPIO-like object. Using
gpiozero instead keeps every pin on the configured pin factory (lgpio on a Pi 5,
MockFactory in tests) and lets several displays share one DC pin.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


class GpiozeroGPIO:
    """The subset of RPi.GPIO luma uses: setup, output, cleanup, LOW/HIGH/OUT."""

    LOW = 0
    HIGH = 1
    OUT = "out"
    IN = "in"
    BCM = "bcm"

    def __init__(self, pin_factory: Any = None) -> None:
        self._pin_factory = pin_factory
        self._outputs: dict[int, Any] = {}

    def setmode(self, mode: str) -> None:
        """BCM numbering is the only numbering."""

    def setup(self, pin: int, mode: str, **_: Any) -> None:
        # lazy: gpiozero after the splash, as in hal.pi (start-up on the Zero)
        from gpiozero import DigitalOutputDevice

        if mode != self.OUT:
            raise ValueError("only outputs are supported")
        if pin not in self._outputs:
            self._outputs[pin] = DigitalOutputDevice(
                pin, initial_value=True, pin_factory=self._pin_factory
            )

    def output(self, pin: int, value: int | bool) -> None:
        self._outputs[pin].value = bool(value)

    def cleanup(self, pins: Iterable[int] | int | None = None) -> None:
        if pins is None:
            pins = list(self._outputs)
        elif isinstance(pins, int):
            pins = [pins]
        for pin in pins:
            device = self._outputs.pop(pin, None)
            if device is not None:
                device.close()
