"""hardware/WIRING.md is generated from hardware/unit.toml and must be up to date."""

from __future__ import annotations

from hal.config import UnitConfig, load_config
from hal.wiring import WIRING_MD, main, render_wiring
from tests.hal.conftest import config_from


def test_committed_wiring_is_up_to_date(reference) -> None:
    assert WIRING_MD.read_text(encoding="utf-8") == render_wiring(load_config(reference.source))
    assert main(["--check"]) == 0


def test_wiring_follows_the_config(tmp_path) -> None:
    text = render_wiring(config_from({"pin = 4\n": "pin = 18\n", "led = 18\n": ""}, "\n"))
    assert "switch sensor output on GPIO 18 (pin 12)" in text
    stale = tmp_path / "WIRING.md"
    stale.write_text("old\n", encoding="utf-8")
    assert main(["--check", "--output", str(stale)]) == 1


def test_every_part_has_its_supply_and_ground_and_each_panel_its_channel(
    reference: UnitConfig,
) -> None:
    from hal.wiring import power_rows

    rows = power_rows(reference)
    parts = {part for part, *_ in rows}
    for part in parts - {p for p in parts if "button" in p or "LED" in p}:
        pins = {pin for p, pin, *_ in rows if p == part}
        assert {"VCC", "GND"} <= pins or {"VIN", "GND"} <= pins or {"+", "−"} <= pins, part
    channels = [to for part, pin, to, _ in rows if "OLED" in part and pin == "SDA / SCL"]
    assert channels == [f"mux 0x70 SD{c} / SC{c}" for c in range(4)]
    (shaker_vcc,) = [note for part, pin, _, note in rows if "shaker" in part and pin == "VCC"]
    assert "never 5 V" in shaker_vcc
    assert ("PCA9548 mux 0x70", "A0 / A1 / A2") in {(p, pin) for p, pin, *_ in rows}
    text = WIRING_MD.read_text(encoding="utf-8")
    assert "| shaker (SW-420 module) | VCC | 3.3 V (pin 1 or 17) | **never 5 V**" in text


def test_the_guide_answers_a_makers_first_questions(reference: UnitConfig) -> None:
    # issue 22: which button legs, where the I²C pull-ups are, how long the wires may be
    text = render_wiring(reference)
    assert "**diagonally opposite** legs" in text
    assert "1.8 kΩ on GPIO 2/3" in text and "Behind the mux every channel" in text
    assert "Wire length at 400 kHz" in text
    install = (WIRING_MD.parent / "INSTALL.md").read_text(encoding="utf-8")
    assert "comes **without a header**" in install
