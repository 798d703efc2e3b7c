"""Golden images: the pinned samples render exactly as saved (regenerate: make_golden.py)."""

from __future__ import annotations

import pytest
from PIL import Image

from firmware.screens import render_seat
from firmware.screens.samples import samples

from .make_golden import GOLDEN, GOLDEN_DIR

SAMPLES = samples()


@pytest.mark.parametrize("name", GOLDEN)
def test_render_matches_golden(name: str) -> None:
    with Image.open(GOLDEN_DIR / f"{name}.png") as golden:
        expected = golden.convert("1")
    got = render_seat(SAMPLES[name])
    assert got.size == expected.size
    assert got.tobytes() == expected.tobytes(), (
        f"{name} differs from its golden; check the contact sheet, then "
        "run python -m tests.screens.make_golden"
    )
