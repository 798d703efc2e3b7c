"""The bot levels a player can pick, weakest first: the one list of their names.

Each name maps to where its class lives (``module:Class``), so the unit's set-up
menu can offer the levels at boot without importing the bots (loading their tables
and models costs seconds on a Pi Zero); :data:`firmware.bots.LEVELS` loads them.
"""

from __future__ import annotations

LEVELS: dict[str, str] = {
    "easy": "firmware.bots.easy:EasyBot",
    "rulebook": "firmware.bots.rulebook:RulebookBot",
    "expert": "firmware.bots.expert:ExpertBot",
    "master": "firmware.bots.master:MasterBot",
}
