"""What the OLED driver needs of a luma device that luma has no public API for: one place.

Everything else :mod:`hal.oled` asks luma through its public API (``width``/``height``/
``rotate``, ``command``/``contrast``/``show``/``hide``/``cleanup``, the
``luma.oled.const`` classes of :mod:`hal.controllers`); ``tests/kit`` keeps any other
module from reading a ``_``-private attribute of a luma object.
"""

from __future__ import annotations

from typing import Any


def page_address_offset(device: Any) -> int | None:
    """The first RAM column a luma ``sh1106`` shows, None for a device without one.

    luma.oled takes it as the constructor's ``page_address_offset`` but keeps it only as
    the private ``_page_address_offset`` (luma.oled 3.16, ``device.sh1106``): no public
    attribute or method gives it back, and a frame written past luma must address the
    same columns luma's own frames do.
    """
    return getattr(device, "_page_address_offset", None)
