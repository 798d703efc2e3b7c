"""The master's memory stays bounded (issue 21: a unit runs for months on a 512 MB Pi
Zero): searches and models of the last few tables only, memos started again when full."""

from __future__ import annotations

from itertools import product

import pytest

from firmware.bots import search, value
from firmware.bots.search import _kept_search, search_for
from firmware.bots.selfplay import play_game
from firmware.bots.value import SEARCHES_KEPT, model_for
from firmware.engine import make_rules


def test_only_the_last_tables_searches_are_kept() -> None:
    rules = make_rules()
    for kinds in product(("max", "expert", "rulebook"), repeat=3):  # 27 tables
        search_for(rules, 3, kinds)
    assert _kept_search.cache_info().currsize <= SEARCHES_KEPT
    assert model_for.cache_info().currsize <= SEARCHES_KEPT
    assert search_for(rules, 3) is search_for(rules, 3, None)  # one search, not two


def test_memos_start_again_when_full(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(search, "_MEMO_LIMIT", 300)
    monkeypatch.setattr(value, "MODEL_CACHE_LIMIT", 500)
    _kept_search.cache_clear()
    model_for.cache_clear()
    rules = make_rules()
    for seed in range(3):
        play_game(["master"] * 4, rules, seed)
    shared = search_for(rules, 4)  # every seat maximises: the masters' own search
    assert 0 < len(shared._decide) <= 301 and 0 < len(shared._risk) <= 301
    assert 0 < len(shared.model._cache) <= 501
    _kept_search.cache_clear()
    model_for.cache_clear()
