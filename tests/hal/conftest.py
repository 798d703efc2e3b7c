"""Fixtures: the real Pi backend on MockFactory with a fake I²C/SPI bus."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PIL import Image, ImageDraw

from hal.config import REFERENCE_CONFIG, UnitConfig, loads_config
from hal.testing import MockPi, mock_pi_hal

REFERENCE_TEXT = REFERENCE_CONFIG.read_text(encoding="utf-8")


def config_from(replacements: dict[str, str] | None = None, extra: str = "") -> UnitConfig:
    """The reference configuration with text replaced (each must occur) and appended."""
    text = REFERENCE_TEXT
    for old, new in (replacements or {}).items():
        assert old in text, old
        text = text.replace(old, new, 1)
    return loads_config(text + extra)


def frame(*texts: tuple[int, int, str]) -> Image.Image:
    image = Image.new("1", (128, 64), 0)
    draw = ImageDraw.Draw(image)
    for x, y, text in texts:
        draw.text((x, y), text, fill=1)
    return image


def same(a: Image.Image, b: Image.Image) -> bool:
    return a.size == b.size and a.convert("1").tobytes() == b.convert("1").tobytes()


@pytest.fixture
def mock(reference: UnitConfig) -> Iterator[MockPi]:
    with mock_pi_hal(reference) as m:
        m.events()  # nothing from start-up
        yield m
