"""The game unit: the loop that turns button presses and shakes into engine actions,
journals them for power-safe resume, and shows every seat its screen.

- :mod:`.shell`: what every game's controller does alike (idle dimming, the screensaver,
  the burn-in shift, messages, the end screen's reviews).
- :mod:`.loop`: :class:`Unit`, owning the HAL, journal and dice rng, and playing any
  registered game (:mod:`firmware.games`); composed of parts with their own state:
  :mod:`.execute` (commands, bots), :mod:`.refresh` (frames, LEDs, cues), :mod:`.rolls`,
  :mod:`.reviews` and :mod:`.thinking` (slow work beside the loop).
- :mod:`.journal`: the power-loss journal in the state directory.
- :mod:`.setup`: game set-up and the set-up menu; :mod:`.menus`, :mod:`.rolloff`: the
  platform's screens. Each game's controller and views live in its package.
"""

from firmware.settings import Timing

from .journal import Journal, resolve_state_dir
from .loop import Unit

__all__ = ["Journal", "Timing", "Unit", "resolve_state_dir"]
