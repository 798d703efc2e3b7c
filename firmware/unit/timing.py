"""The unit's timing settings (seconds); the config's ``[timing]`` sets some of them
(:mod:`firmware.unit.settings`)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Timing:
    """Every delay the game loop uses; 0 disables ``dim_after``/``screensaver_after``."""

    discard_window: float = 0.7  #: pause before each discard (the chip holder may block)
    refusal_window: float = 5.0  #: a named chip holder not answering accepts the switch
    bot_thinking: float = 1.0  #: visible pause before a bot acts
    dim_after: float = 60.0  #: no input this long: dim the displays
    screensaver_after: float = 300.0  #: no input this long: screensaver
    tumble: float = 0.6  #: dice animation before a roll by button or by a bot
    tumble_frame: float = 0.12  #: animation frame period
    rolloff_show: float = 2.5  #: how long the roll-off result stays up
    message_show: float = 4.0  #: how long a unit message (corrupt journal) stays up
    saver_step: float = 2.0  #: screensaver: the content moves this often
    shift_every: float = 60.0  #: burn-in pixel shift period while playing

    def __post_init__(self) -> None:
        for name in ("tumble_frame", "saver_step", "shift_every"):
            if getattr(self, name) <= 0:
                raise ValueError(
                    f"timing {name} must be > 0 (it repeats), got {getattr(self, name)}"
                )
        for name in ("discard_window", "refusal_window", "bot_thinking", "dim_after",
                     "screensaver_after", "tumble", "rolloff_show", "message_show"):  # fmt: skip
            if getattr(self, name) < 0:
                raise ValueError(f"timing {name} must be >= 0, got {getattr(self, name)}")
