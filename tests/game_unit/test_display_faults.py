"""Panels whose bus cuts transfers short (issue 21): once the bus behaves again, every
panel shows its view with the contrast and on/off state wanted, whatever a half-received
command left in its controller."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware.games.switch16.setup import GameSetup
from hal.config import REFERENCE_CONFIG, loads_config
from hal.controllers import CONTROLLERS
from hal.testing import TransferFault, i2c_port

from .conftest import open_table

BOTS = GameSetup.of(["rulebook", "easy", "expert", "rulebook"])


@pytest.mark.parametrize("driver", list(CONTROLLERS))
def test_panels_that_lost_half_of_every_third_command_come_back_whole(
    tmp_path: Path, driver: str
) -> None:
    text = REFERENCE_CONFIG.read_text(encoding="utf-8").replace('"ssd1306"', f'"{driver}"')
    config = loads_config(text)
    with open_table(tmp_path, setup=BOTS, config=config) as table:
        pi = table.pi
        faults = {}
        for seat in pi.config.seats:
            key = (i2c_port(seat.display), seat.display.address or 0x3C)
            faults[key] = TransferFault(every=3, delivered=0.5)
        table.unit.run_for(5)
        pi.bus.faults.update(faults)
        table.unit.run_for(75)  # play, then the idle dim with the faults on
        assert table.unit.controller.shell.dimmed
        assert all(f.struck > 0 for f in faults.values())
        pi.bus.faults.clear()  # the bus behaves again
        table.unit.run_for(35)  # past the longest retry backoff
        for seat, emulator in enumerate(pi.displays):
            assert table.glass_shows_view(seat), f"seat {seat}"
            assert emulator.contrast == pi.config.displays.dim_contrast, f"seat {seat}"
            assert emulator.display_on, f"seat {seat}"
        table.press(0, "yes")  # a press wakes the displays from the dim
        for seat, emulator in enumerate(pi.displays):
            assert table.glass_shows_view(seat), f"seat {seat}"
            assert emulator.contrast == pi.config.displays.contrast, f"seat {seat}"
