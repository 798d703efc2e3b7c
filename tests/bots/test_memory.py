"""The master's memory stays bounded (issue 21: a unit runs for months on a 512 MB Pi
Zero): searches and models of the last few tables only, their memos within one budget."""

from __future__ import annotations

from itertools import product

import pytest

from firmware.games.selfplay import play_game
from firmware.games.switch16.bots import value
from firmware.games.switch16.bots.search import _kept_search, search_for
from firmware.games.switch16.bots.value import SEARCHES_KEPT, Memo, model_for
from firmware.games.switch16.engine import make_rules
from firmware.games.switch16.game import GAME


def test_only_the_last_tables_searches_are_kept() -> None:
    rules = make_rules()
    for kinds in product(("max", "expert", "rulebook"), repeat=3):  # 27 tables
        search_for(rules, 3, kinds)
    assert _kept_search.cache_info().currsize <= SEARCHES_KEPT
    assert model_for.cache_info().currsize <= SEARCHES_KEPT
    assert search_for(rules, 3) is search_for(rules, 3, None)  # one search, not two


def test_every_memo_together_stays_within_the_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(value, "MEMO_BUDGET", 1_500)
    monkeypatch.setattr(value, "MEMO_COUNT_EVERY", 100)
    most = 0
    for seed in range(4):  # a game of four masters memoises ~1,500 positions
        play_game(GAME, ["master", "expert", "master", "rulebook"], {}, seed)
        most = max(most, sum(len(memo) for memo in Memo.live))
    assert 0 < most <= 1_500 + 100
    _kept_search.cache_clear()
    model_for.cache_clear()
