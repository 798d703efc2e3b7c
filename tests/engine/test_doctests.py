"""The examples in the engine's public docstrings run as written."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "firmware.games.switch16.engine",
    "firmware.games.switch16.engine.state",
    "firmware.games.switch16.engine.dice",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{name} has no examples"
    assert result.failed == 0
