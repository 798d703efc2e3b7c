"""Hardware abstraction layer: the only way the unit touches hardware.

Backends implement the interfaces in :mod:`hal.interfaces` and register as
``switch16.hal`` entry points (the Raspberry Pi's is :mod:`hal.pi`; the simulator
registers its own); choose one with :func:`load_backend`
(``--hal``, else ``$SWITCH16_HAL``, else ``pi``). Pins and addresses come only from the
config (:mod:`hal.config`, ``hardware/unit.toml``).

How the unit loop uses a HAL (single-threaded, idle = no CPU)::

    from hal import exit_on_signals, load_backend, load_config

    config = load_config(args.config)
    with exit_on_signals(), load_backend(args.hal, config) as hal:
        while True:
            deadline = hal.next_deadline()            # also merge the loop's own timers
            timeout = None if deadline is None else max(0.0, deadline - hal.clock.now())
            event = hal.events.get(timeout)           # blocks; None on timeout
            hal.poll()                                # enqueue due time-based events
            ...handle event and everything hal.events.drain() returns...
            hal.seats[i].display.show(frame)          # unchanged frames cost nothing

* Events (:mod:`hal.events`, frozen dataclasses with ``t`` = clock seconds):
  ``ButtonDown``/``ButtonUp``/``LongPress`` (``seat`` 0-based, ``button`` a
  :class:`Button`: ``yes``/``no``/``chip``), ``ShakeStarted``, ``ShakeStopped``
  (``duration``, ``edges``, ``energy``, ``capped``) and ``RollRequested`` (button
  fallback: a long press of ``yes`` when ``shaker.button_fallback``). Roll the dice on
  ``ShakeStopped`` or ``RollRequested``.
* Callbacks run on gpiozero's thread (synchronously under MockFactory) and only put
  events on :attr:`Hal.events`. Long press, "shake stopped", the roll cap and tune
  steps are detected in :meth:`Hal.poll`; call it whenever :meth:`Hal.next_deadline`
  has passed (calling it more often is harmless).
* Displays take mode "1" frames of ``display.size`` (128×64) in the seat's logical
  orientation; rotation is applied from the config. ``set_contrast``/``dim``,
  ``sleep``/``wake``, ``clear``. ``close()`` (and SIGTERM via :func:`exit_on_signals`)
  blanks them.
* Tests: :func:`hal.testing.mock_pi_hal` runs the real Pi backend on gpiozero's
  MockFactory and a fake I²C/SPI bus that emulates the controllers; ``mock.press(seat,
  "yes")``, ``mock.advance(dt)`` and ``mock.glass(seat)`` drive and observe it.
"""

from hal.backends import (
    ENTRY_POINT_GROUP,
    HAL_ENV,
    BackendError,
    add_hal_argument,
    backend_name,
    load_backend,
    registered_backends,
    resolve_backend,
)
from hal.clock import Clock, MonotonicClock, VirtualClock
from hal.config import ConfigError, UnitConfig, find_config, load_config
from hal.events import (
    Button,
    ButtonDown,
    ButtonUp,
    Event,
    EventQueue,
    LongPress,
    RollRequested,
    RollSource,
    ShakeStarted,
    ShakeStopped,
)
from hal.interfaces import Buzzer, Display, Hal, Led, SeatIO, Shaker
from hal.signals import exit_on_signals

__all__ = [
    "ENTRY_POINT_GROUP",
    "HAL_ENV",
    "BackendError",
    "Button",
    "ButtonDown",
    "ButtonUp",
    "Buzzer",
    "Clock",
    "ConfigError",
    "Display",
    "Event",
    "EventQueue",
    "Hal",
    "Led",
    "LongPress",
    "MonotonicClock",
    "RollRequested",
    "RollSource",
    "SeatIO",
    "ShakeStarted",
    "ShakeStopped",
    "Shaker",
    "UnitConfig",
    "VirtualClock",
    "add_hal_argument",
    "backend_name",
    "exit_on_signals",
    "find_config",
    "load_backend",
    "load_config",
    "registered_backends",
    "resolve_backend",
]
