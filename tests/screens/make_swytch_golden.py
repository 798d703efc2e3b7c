"""Regenerate Swytch's golden PNGs: ``python -m tests.screens.make_swytch_golden``.

Only run after checking the new look on the contact sheet
(``python -m firmware.games.swytch.screens.samples``): the goldens pin the layout exactly.
"""

from __future__ import annotations

from pathlib import Path

from firmware.games.swytch.screens import render
from firmware.games.swytch.screens.samples import samples

GOLDEN_DIR = Path(__file__).parent / "golden" / "swytch"


def main() -> None:
    GOLDEN_DIR.mkdir(exist_ok=True)
    for name, view in samples().items():
        path = GOLDEN_DIR / f"{name}.png"
        render(view).save(path)
        print(path)


if __name__ == "__main__":
    main()
