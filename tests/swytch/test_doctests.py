"""The examples in the Swytch engine's docstrings run as written (the engine's check)."""

from __future__ import annotations

import pytest

from tests.engine.test_doctests import test_docstring_examples as check_examples

MODULES = [
    "firmware.games.swytch.board",
    "firmware.games.swytch.bots",
    "firmware.games.swytch.evaluation",
    "firmware.games.swytch.fen",
    "firmware.games.swytch.notation",
    "firmware.games.swytch.search",
    "firmware.games.swytch.state",
]


@pytest.mark.parametrize("name", MODULES)
def test_swytch_docstring_examples(name: str) -> None:
    check_examples(name)
