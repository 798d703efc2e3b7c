"""Argument types for the command lines (``switch16``, ``sim``): a bad value is a usage
error at start (argparse names the option, exit 2), never a traceback mid-run."""

from __future__ import annotations

import argparse
import contextlib
import os
import tempfile
from pathlib import Path


def positive_int(text: str) -> int:
    """A whole number from 1 (a count, a period in turns, a number of processes)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: must be 1 or more")
    return value


def positive_float(text: str) -> float:
    """A number above 0 (a speed, a time limit)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r}: must be a number above 0")
    return value


def nonempty(text: str) -> str:
    """Any text but the empty (or blank) one."""
    if not text.strip():
        raise argparse.ArgumentTypeError("empty")
    return text


def writable_dir(text: str) -> Path:
    """A directory that can be made and written to. Probed, not trusted to permission
    bits (root may write anywhere but /proc or under a file): what the probe makes it
    removes again, so naming a directory creates nothing until something is saved."""
    if not text.strip() or "\0" in text:
        raise argparse.ArgumentTypeError(f"{text!r} is not a directory name")
    path = Path(text).expanduser()
    if path.exists() and not path.is_dir():
        raise argparse.ArgumentTypeError(f"{text}: is a file, not a directory")
    made: list[Path] = []
    try:
        missing = [p for p in (path, *path.parents) if not p.exists()]
        for parent in reversed(missing):
            parent.mkdir()
            made.append(parent)
        with tempfile.TemporaryFile(dir=path):
            pass
    except OSError as exc:
        raise argparse.ArgumentTypeError(
            f"{text}: cannot write there ({exc.strerror or exc})"
        ) from None
    finally:
        for parent in reversed(made):
            with contextlib.suppress(OSError):
                parent.rmdir()
    return path


def readable_file(text: str) -> str:
    """An existing file this process can read (kept as text: messages show it as given)."""
    if not text.strip() or "\0" in text:
        raise argparse.ArgumentTypeError(f"{text!r} is not a file name")
    path = Path(text).expanduser()
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"{text}: is a directory, not a file")
    if not path.is_file() or not os.access(path, os.R_OK):
        raise argparse.ArgumentTypeError(f"{text}: no such file, or it cannot be read")
    return text


def link_url(text: str) -> str:
    """A serial port: a device path, or a URL whose scheme pyserial knows (socket://,
    rfc2217://, loop://…; pyserial is asked, nothing is opened)."""
    text = nonempty(text)
    if "://" in text:
        # lazy: pyserial only for a URL (start-up on the Zero)
        import serial

        try:
            serial.serial_for_url(text, do_not_open=True)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(f"{text}: {exc}") from None
    return text
