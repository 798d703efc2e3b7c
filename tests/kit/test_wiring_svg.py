"""hardware/WIRING.svg: the wiring diagram is generated from unit.toml like WIRING.md,
is well-formed SVG, and names every pin and config key the unit uses."""

from __future__ import annotations

import itertools
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


def _text_boxes(svg: str) -> list[tuple[str, float, float, float, float]]:
    """(text, x0, y0, x1, y1) of every text element, from its font size (an estimate
    with a pixel to spare: 0.6 em a character, capitals 0.8 em above the baseline)."""
    out = []
    for t in ET.fromstring(svg).iter(f"{NS}text"):
        x, y, size = (float(t.get(k) or 0) for k in ("x", "y", "font-size"))
        w = 0.6 * size * len(t.text or "")
        anchor = t.get("text-anchor", "start")
        x0 = x - w if anchor == "end" else x - w / 2 if anchor == "middle" else x
        out.append((t.text or "", x0, y - 0.8 * size - 1, x0 + w, y + 1))
    return out


def _wires(svg: str) -> list[tuple[float, float, float, float]]:
    """Every straight segment (x0, y0, x1, y1) of every wire."""
    out = []
    for line in ET.fromstring(svg).iter(f"{NS}polyline"):
        points = [tuple(map(float, p.split(","))) for p in (line.get("points") or "").split()]
        out += [(*a, *b) for a, b in itertools.pairwise(points)]
    return out


def test_no_wire_crosses_a_leg_label() -> None:
    # the shaker's GND and VCC labels sat on each other's wires (issue 22)
    svg = WIRING_SVG.read_text(encoding="utf-8")
    labels = [b for b in _text_boxes(svg) if b[0] in ("GND", "VCC", "−", "+")]
    assert {"GND", "VCC"} <= {b[0] for b in labels}
    for text, x0, y0, x1, y1 in labels:
        for wx0, wy0, wx1, wy1 in _wires(svg):
            if wy0 == wy1 and y0 < wy0 < y1:  # a horizontal wire through the text's height
                assert max(wx0, wx1) <= x0 or min(wx0, wx1) >= x1, (text, x0, y0, wy0)
