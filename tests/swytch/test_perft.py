"""Perft from the set-up (benchmarks/swytch_perft.py prints the same counts)."""

from __future__ import annotations

import pytest

from benchmarks.swytch_perft import perft
from firmware.games.swytch.state import State


@pytest.mark.parametrize(
    ("ranks", "counts"),
    [(9, (77, 5_929, 466_312)), (8, (77, 5_929, 466_295))],
)
def test_perft_from_the_setup(ranks: int, counts: tuple[int, ...]) -> None:
    state = State.new(ranks)
    assert tuple(perft(state, depth) for depth in (1, 2, 3)) == counts
