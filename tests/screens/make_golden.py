"""Regenerate the golden PNGs: ``python -m tests.screens.make_golden``.

Only run after checking the new look on the contact sheet
(``python -m firmware.games.switch16.samples``): the goldens pin the layout exactly.
"""

from __future__ import annotations

from pathlib import Path

from firmware.games.switch16.samples import samples
from firmware.games.switch16.screens import render_seat

GOLDEN_DIR = Path(__file__).parent / "golden"
#: Sample views pinned as goldens (a handful covering every renderer).
GOLDEN = (
    "setup_bot",
    "rolloff_start",
    "roll_mine",
    "decide_odds",
    "blocked",
    "chip_can_block",
    "banner_switch",
    "green_menu",
    "win_mine",
    "scores_round",
    "saver",
    "rolloff_bot_starts",
    "win_other",
    "not_playing",
    "win_review",
    "roll_shown",
)


def main() -> None:
    GOLDEN_DIR.mkdir(exist_ok=True)
    views = samples()
    for name in GOLDEN:
        path = GOLDEN_DIR / f"{name}.png"
        render_seat(views[name]).save(path)
        print(path)


if __name__ == "__main__":
    main()
