"""Displays on a PCA9548 channel: the /dev/i2c-N is read from sysfs at start-up, since
the numbers differ between Pi models (issue 14)."""

from __future__ import annotations

from pathlib import Path

import pytest

from hal.config import UnitConfig
from hal.mux import MuxError, channel_port, fake_tree
from hal.pi import FailedDisplay
from hal.testing import mock_pi_hal


def test_channels_resolve_through_the_sysfs_links(tmp_path: Path) -> None:
    zero_2w = fake_tree(tmp_path, 0x70, {0: 11, 1: 12, 2: 13, 3: 14})  # not a Pi 4's 22-25
    assert [channel_port(0x70, c, root=zero_2w) for c in range(4)] == [11, 12, 13, 14]
    assert (zero_2w / "1-0070" / "channel-2").resolve().name == "i2c-13"


def test_a_missing_overlay_is_named(tmp_path: Path) -> None:
    with pytest.raises(MuxError, match="dtoverlay=i2c-mux,pca9548,addr=0x70"):
        channel_port(0x70, 2, root=tmp_path)
    (tmp_path / "1-0070").mkdir()
    (tmp_path / "1-0070" / "channel-1").symlink_to("../not-a-bus")
    with pytest.raises(MuxError, match="not at an i2c-N bus"):
        channel_port(0x70, 1, root=tmp_path)


def test_the_pi_backend_opens_each_panel_on_its_channels_bus(reference: UnitConfig) -> None:
    with mock_pi_hal(reference) as m:
        assert m.hal.resolved == {0: 22, 1: 23, 2: 24, 3: 25}  # the emulated tree's numbers
        assert all(e.lit() == 0 and e.display_on for e in m.displays)


def test_without_the_overlay_the_unit_starts_and_says_why(
    reference: UnitConfig, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with mock_pi_hal(reference, i2c_sysfs=tmp_path) as m:  # an empty /sys/bus/i2c/devices
        displays = [s.display for s in m.hal.seats]
        assert all(isinstance(d, FailedDisplay) for d in displays)
        assert all(isinstance(error, MuxError) for error in m.hal.resolved.values())
    assert "seat 1.display" in caplog.text and "dtoverlay=i2c-mux" in caplog.text
