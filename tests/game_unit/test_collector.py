"""The garbage collector kept off the press path (issue 25): start-up frozen, no
collection while a press is handled, collections while the loop idles."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from firmware.unit import loop
from firmware.unit.collector import GEN0_THRESHOLD, Collector

from .conftest import YES, header, open_table, write_journal


@pytest.fixture
def collections() -> Iterator[list[int]]:
    """Generations of the collections that run, as they run; the collector's
    process-wide settings restored afterwards."""
    seen: list[int] = []

    def callback(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            seen.append(info["generation"])

    threshold = gc.get_threshold()
    gc.callbacks.append(callback)
    try:
        yield seen
    finally:
        gc.callbacks.remove(callback)
        gc.unfreeze()
        gc.set_threshold(*threshold)


def test_no_collection_while_a_press_is_handled(tmp_path: Path, collections: list[int]) -> None:
    write_journal(tmp_path, header(players=4))
    with open_table(tmp_path, collector=Collector()) as table:
        assert gc.get_freeze_count() > 0  # start-up's objects are out of the collector's sight
        assert gc.get_threshold()[0] == GEN0_THRESHOLD
        during = []
        for _ in range(20):  # rolls and risk/pass presses: hundreds of containers each
            st = table.state
            assert st is not None and not st.game_over
            seat = st.turn
            table.pi.press(seat, YES)
            collections.clear()
            table.unit.step()
            during += collections
            table.pi.release(seat, YES)
            table.unit.run_for(1.0)
        assert during == []
        assert table.unit.collector is not None
        assert table.unit.collector.idle_collections > 0  # collected while it waited


def test_idle_collections_only_before_a_long_enough_wait(
    tmp_path: Path, collections: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[str] = []
    collector = Collector()
    monkeypatch.setattr(collector, "idle", lambda: calls.append("idle"))
    write_journal(tmp_path, header())
    with open_table(tmp_path, collector=collector) as table:
        table.unit._idle(loop.IDLE_MIN_S / 2)  # the next deadline is near
        assert calls == []
        table.unit._idle(loop.IDLE_MIN_S * 2)
        assert calls == ["idle"]
        calls.clear()
        # virtual time idles as the loop would: until its next deadline (none here), not
        # until the caller's end (the loop cannot know when the next press comes)
        table.unit.run_for(loop.IDLE_MIN_S / 2)
        assert calls == ["idle"]


def test_a_unit_without_a_collector_leaves_the_process_collector(
    tmp_path: Path, collections: list[int]
) -> None:
    threshold = gc.get_threshold()
    write_journal(tmp_path, header())
    with open_table(tmp_path) as table:
        table.unit.run_for(1.0)
    assert gc.get_threshold() == threshold
    assert gc.get_freeze_count() == 0


def test_a_full_idle_collection_freezes_what_it_leaves(collections: list[int]) -> None:
    """The next full collection looks only at what came since: it stays as short as a
    young one however long the unit runs."""
    collector = Collector(full_every=1)
    collector.settle()
    frozen = gc.get_freeze_count()
    kept = [[n] for n in range(1000)]  # a game's states and caches: they survive
    collections.clear()
    collector.idle()
    assert collections == [2]
    assert gc.get_freeze_count() >= frozen + len(kept)
