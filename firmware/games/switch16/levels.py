"""The bot levels a player can pick, weakest first: the one list of their names.

Each name maps to where its class lives (``module:Class``), so the unit's set-up
menu can offer the levels at boot without importing the bots (loading their tables
and models costs seconds on a Pi Zero); :data:`firmware.games.switch16.bots.LEVELS` loads them.
"""

from __future__ import annotations

LEVELS: dict[str, str] = {
    "easy": "firmware.games.switch16.bots.easy:EasyBot",
    "rulebook": "firmware.games.switch16.bots.rulebook:RulebookBot",
    "expert": "firmware.games.switch16.bots.expert:ExpertBot",
    "master": "firmware.games.switch16.bots.master:MasterBot",
}
