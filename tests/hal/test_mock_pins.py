"""The mocked Pi's pins keep a bounded history (issue 21: `--hal mock` runs for days)."""

from __future__ import annotations

import pytest

import hal.testing
from hal.config import UnitConfig
from hal.events import Button
from hal.testing import mock_pi_hal


def test_a_pin_keeps_only_its_last_states(
    reference: UnitConfig, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(hal.testing, "PIN_HISTORY", 20)
    with mock_pi_hal(reference) as m:
        pin = m.button_pin(0, Button.YES)
        for _ in range(30):
            m.press(0, Button.YES)
            m.release(0, Button.YES)
        assert len(pin.states) == 20
        assert [s.state for s in list(pin.states)[-2:]] == [False, True]
        pin.clear_states()
        m.press(0, Button.YES)
        assert len(pin.states) == 2 and pin.states.maxlen == 20
