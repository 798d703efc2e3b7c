"""Subcommands of ``switch16``: one module each (see :mod:`firmware.cli`)."""
