"""JSON from outside (a journal line, a link frame) read safely: nesting bounded before
a parser sees it, bad values quoted cut short.

Deep nesting is a hazard twice over: ``json.loads`` raises RecursionError past ~1,000
levels, and ``repr`` of a value nested a little less deep does too (orjson parses up to
1,024). :func:`check_depth` refuses such text before it is parsed; :func:`short_repr`
quotes a value in an error message without walking more than a few levels of it or
printing more than a line.

>>> check_depth('{"action": [[1, 2], "[[[["]}', limit=3)
>>> check_depth('{"a": [[[[]]]]}', limit=3)
Traceback (most recent call last):
...
firmware.jsonsafe.TooDeepError: nested more than 3 deep (at character 8)
>>> short_repr([[[[["deep"]]]]], width=20)
'[[[[[...]]]]]'
>>> short_repr("x" * 100, width=8)
"'xxxxxxxx'…"
"""

from __future__ import annotations

import re
import reprlib
from collections.abc import Iterator

#: Arrays and objects inside one another that JSON from outside may nest, unless a
#: caller says otherwise (a transcript line nests 3 deep at most).
MAX_DEPTH = 32

#: A string (its escapes, or to the end of an unterminated one) or a bracket.
_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"?|[\[\]{}]', re.DOTALL)
_BYTE_TOKENS = re.compile(rb'"(?:[^"\\]|\\.)*"?|[\[\]{}]', re.DOTALL)
_OPEN, _CLOSE = frozenset("[{"), frozenset("]}")


class TooDeepError(ValueError):
    """JSON text nested deeper than allowed."""


def check_depth(text: str | bytes, limit: int = MAX_DEPTH) -> None:
    """Raise :class:`TooDeepError` if ``text`` opens more than ``limit`` arrays or objects
    inside one another (brackets in strings do not count). Text with at most ``limit``
    opening brackets in all is passed after two ``count`` calls, unscanned."""
    found: Iterator[tuple[int, str]]
    if isinstance(text, bytes):
        if text.count(b"[") + text.count(b"{") <= limit:
            return
        found = ((m.start(), chr(text[m.start()])) for m in _BYTE_TOKENS.finditer(text))
    else:
        if text.count("[") + text.count("{") <= limit:
            return
        found = ((m.start(), text[m.start()]) for m in _TOKENS.finditer(text))
    depth = 0
    for at, char in found:
        if char in _OPEN:
            depth += 1
            if depth > limit:
                raise TooDeepError(f"nested more than {limit} deep (at character {at})")
        elif char in _CLOSE:
            depth -= 1


_REPR = reprlib.Repr()
_REPR.maxlevel = 4
_REPR.maxstring = _REPR.maxother = 40
_REPR.maxlist = _REPR.maxtuple = _REPR.maxdict = _REPR.maxset = 8


def short_repr(value: object, width: int = 60) -> str:
    """``repr(value)`` for an error message: at most a few levels deep and about ``width``
    characters (a longer text is cut, with ``…`` after it). Never raises."""
    if isinstance(value, str | bytes) and len(value) > width:
        return repr(value[:width]) + "…"
    try:
        text = _REPR.repr(value)
    except Exception:  # a message must not fail (a huge int, a bad __repr__)
        text = f"<{type(value).__name__}>"
    return text if len(text) <= width else text[:width] + "…"
