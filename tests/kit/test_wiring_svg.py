"""hardware/WIRING.svg: the wiring diagram is generated from unit.toml like WIRING.md,
is well-formed SVG, and names every pin and config key the unit uses."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

from hal.config import REFERENCE_CONFIG, UnitConfig, load_config, loads_config
from hal.header import HEADER_PIN
from hal.wiring import WIRING_SVG, main
from hal.wiring_svg import render_svg

NS = "{http://www.w3.org/2000/svg}"


def _texts(svg: str) -> tuple[list[str], list[str]]:
    """(every text element's text, every title) of an SVG document."""
    root = ET.fromstring(svg)
    texts = [t.text or "" for t in root.iter(f"{NS}text")]
    titles = [t.text or "" for t in root.iter(f"{NS}title")]
    return texts, titles


def test_committed_diagram_is_generated_from_the_reference_config() -> None:
    assert WIRING_SVG.read_text(encoding="utf-8") == render_svg(load_config(REFERENCE_CONFIG))
    assert main(["--check"]) == 0


def test_stale_diagram_fails_the_check(tmp_path: Path) -> None:
    stale = tmp_path / "WIRING.svg"
    stale.write_text("<svg/>\n", encoding="utf-8")
    assert main(["--check", "--svg", "--output", str(stale)]) == 1
    assert main(["--write", "--svg", "--output", str(stale)]) == 0
    assert main(["--check", "--svg", "--output", str(stale)]) == 0


def _names_every_pin(config: UnitConfig) -> None:
    texts, titles = _texts(render_svg(config))
    for key, gpio, _role in config.pin_uses():
        assert f"GPIO {gpio}" in texts, (key, gpio)
        assert str(HEADER_PIN[gpio]) in texts
        assert any(key in t.split(", ") for t in titles), key
    assert [str(p) for p in range(1, 41)] == [t for t in texts if re.fullmatch(r"\d+", t)]
    for seat in config.seats:
        assert f"seat {seat.index + 1} OLED" in texts  # seats read 1-4, as on the screens
        assert f"seat {seat.index + 1}.display" in titles


def test_the_reference_diagram_names_every_pin_part_and_channel() -> None:
    config = load_config(REFERENCE_CONFIG)
    _names_every_pin(config)
    texts, titles = _texts(WIRING_SVG.read_text(encoding="utf-8"))
    assert "PCA9548 mux 0x70" in titles
    assert [t for t in texts if re.fullmatch(r"S[CD]\d", t)] == [
        f"{leg}{c}" for c in range(4) for leg in ("SC", "SD")
    ]
    for label in ("shaker SW-420: DO", "passive buzzer: +", "3V3", "GND", "5V", "VIN", "A0"):
        assert label in texts, label


def test_an_spi_build_with_leds_draws_too() -> None:
    config = loads_config(
        """
[unit]
name = "SPI"
seats = 2
[[seats]]
buttons = { yes = 17, no = 27, chip = 22 }
led = 16
display = { driver = "sh1106", bus = "spi", port = 0, device = 0, dc = 20, rst = 21 }
[[seats]]
buttons = { yes = 5, no = 6, chip = 13 }
display = { driver = "sh1106", bus = "spi", port = 0, device = 1, dc = 20, rst = 21 }
[shaker]
pin = 18
"""
    )
    _names_every_pin(config)
    texts, _ = _texts(render_svg(config))
    assert "330 Ω" in texts and "seat 1 LED (− to GND)" in texts
