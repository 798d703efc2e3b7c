"""Switch 16 unit firmware: the rules engine, the unit loop, screens, bots and tools."""

from __future__ import annotations


def package_version() -> str:
    """The installed distribution's version (``switch16 --version``, ``sim --version``)."""
    # lazy: importlib.metadata is slow to import; only --version asks
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("switch16-unit")
    except PackageNotFoundError:  # running from a checkout that was never installed
        return "unknown (not installed)"
