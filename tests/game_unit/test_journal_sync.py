"""The journal's sync overlaps the loop's drawing (issue 25): when ``Syncer.start``
returns, the worker thread has begun the sync, though the loop then runs pure Python
(which holds the GIL) until it waits."""

from __future__ import annotations

import tempfile

import pytest

from firmware.unit import journal


def test_the_sync_has_begun_when_start_returns(monkeypatch: pytest.MonkeyPatch) -> None:
    begun: list[int] = []
    real = journal._datasync

    def recorded(fd: int) -> None:
        begun.append(fd)
        real(fd)

    monkeypatch.setattr(journal, "_datasync", recorded)
    syncer = journal.Syncer()
    with tempfile.TemporaryFile() as f:
        for n in range(1, 21):
            f.write(b"line\n")
            f.flush()
            syncer.start(f.fileno())
            assert len(begun) == n  # not left for the next time the loop blocks
            syncer.wait()
