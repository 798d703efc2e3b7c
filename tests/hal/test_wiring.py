"""hardware/WIRING.md is generated from hardware/unit.toml and must be up to date."""

from __future__ import annotations

from hal.config import load_config
from hal.wiring import WIRING_MD, main, render_wiring
from tests.hal.conftest import config_from


def test_committed_wiring_is_up_to_date(reference) -> None:
    assert WIRING_MD.read_text(encoding="utf-8") == render_wiring(load_config(reference.source))
    assert main(["--check"]) == 0


def test_wiring_follows_the_config(tmp_path) -> None:
    text = render_wiring(config_from({"pin = 4\n": "pin = 18\n"}, "\n"))
    assert "switch sensor output on GPIO 18 (pin 12)" in text
    stale = tmp_path / "WIRING.md"
    stale.write_text("old\n", encoding="utf-8")
    assert main(["--check", "--output", str(stale)]) == 1
