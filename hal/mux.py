"""Which ``/dev/i2c-N`` a PCA9548 multiplexer channel became, read from sysfs.

With ``dtoverlay=i2c-mux,pca9548,addr=0x70`` the kernel gives every channel of the mux
on bus 1 its own I²C bus and links it as ``/sys/bus/i2c/devices/1-0070/channel-C`` →
``…/i2c-N``. N differs between Pi models (and with other I²C devices present), so a
display names its mux and channel in ``unit.toml`` and the port is looked up here at
start-up.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

#: Where the kernel lists I²C adapters and devices.
SYSFS_I2C = Path("/sys/bus/i2c/devices")
#: The Pi's I²C bus on GPIO 2/3, where the mux sits.
PARENT_BUS = 1


class MuxError(OSError):
    """A mux channel has no I²C bus: the overlay is missing or the mux does not answer."""


def channel_port(mux: int, channel: int, *, root: Path = SYSFS_I2C, parent: int = PARENT_BUS
                 ) -> int:  # fmt: skip
    """The N of ``/dev/i2c-N`` for ``channel`` of the mux at address ``mux``."""
    link = root / f"{parent}-{mux:04x}" / f"channel-{channel}"
    try:
        target = os.readlink(link)
    except OSError:
        raise MuxError(
            f"{link} does not exist: is 'dtoverlay=i2c-mux,pca9548,addr=0x{mux:02x}' in "
            "config.txt, and the multiplexer powered and wired to GPIO 2/3?"
        ) from None
    found = re.fullmatch(r"i2c-(\d+)", Path(target).name)
    if found is None:
        raise MuxError(f"{link} points at {target}, not at an i2c-N bus")
    return int(found.group(1))


def fake_tree(root: Path, mux: int, ports: dict[int, int], parent: int = PARENT_BUS) -> Path:
    """A sysfs-like tree where ``channel-C`` links to ``i2c-ports[C]`` (tests, docs)."""
    device = root / f"{parent}-{mux:04x}"
    device.mkdir(parents=True, exist_ok=True)
    for channel, port in ports.items():
        (root / f"i2c-{port}").mkdir(exist_ok=True)
        link = device / f"channel-{channel}"
        if not link.is_symlink():
            link.symlink_to(Path("..") / f"i2c-{port}")
    return root
