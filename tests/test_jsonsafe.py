"""firmware.jsonsafe: nesting bounded before parsing, values quoted cut short (issue 35)."""

from __future__ import annotations

import sys

import pytest

from firmware.jsonsafe import MAX_DEPTH, TooDeepError, check_depth, short_repr
from tests.engine.test_doctests import test_docstring_examples


def test_the_examples_run() -> None:
    test_docstring_examples("firmware.jsonsafe")


@pytest.mark.parametrize("kind", [str, bytes])
def test_depth_is_counted_outside_strings(kind: type) -> None:
    def check(text: str, limit: int = MAX_DEPTH) -> None:
        check_depth(text if kind is str else text.encode(), limit)

    check("[" * MAX_DEPTH + "]" * MAX_DEPTH)
    check('["' + "[{" * 100 + '", "\\"' + "[" * 100 + '"]')  # in strings, escapes too
    check("[]" * 1000)  # many, side by side
    with pytest.raises(TooDeepError, match=f"nested more than {MAX_DEPTH} deep"):
        check("[" * (MAX_DEPTH + 1))
    with pytest.raises(TooDeepError, match="at character 8"):
        check('{"a": [[[[', limit=3)


def test_a_value_too_deep_for_repr_is_quoted_short() -> None:
    deep: list = []
    for _ in range(sys.getrecursionlimit() + 100):
        deep = [deep]
    assert len(short_repr(deep)) <= 61
    assert short_repr({"k" * 1000: ["v"] * 1000}).endswith("…")
    assert short_repr("x" * 10_000) == repr("x" * 60) + "…"
    assert short_repr(10**5000) == "<int>"  # repr itself refuses past 4,300 digits
