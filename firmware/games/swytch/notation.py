"""Swytch actions as text, for transcripts and logs (docs/SWYTCH.md "Notation").

``prepare c2`` and ``swytch c2`` name the stack; a move is its origin, the count and
the path's cells joined by ``-``: ``c2 2 c3-c4``. Text is parsed without a position
(the rules check it when it is applied); an error names the token. The text is ASCII
and one text per action: what :func:`format_action` writes, and nothing else, is read.

>>> format_action(parse_action("a2 2 a3-a4"))
'a2 2 a3-a4'
>>> parse_action("swytch c2")
SwytchAction(cell=Cell(c=2, r=1))
>>> parse_action("c2 two c3")
Traceback (most recent call last):
...
firmware.games.swytch.errors.NotationError: 'two' in 'c2 two c3' is not a count (a whole number ≥ 1)
"""

from __future__ import annotations

import re

from firmware.jsonsafe import short_repr

from .actions import Action, Move, Prepare, SwytchAction
from .board import BoardError, Cell
from .errors import NotationError

#: A count: ASCII digits, no leading zero.
_COUNT = re.compile("[1-9][0-9]{0,2}")
_KEYWORDS: dict[str, type[Prepare] | type[SwytchAction]] = {
    "prepare": Prepare,
    "swytch": SwytchAction,
}


def format_action(action: Action) -> str:
    if isinstance(action, Move):
        return f"{action.origin.name} {action.count} " + "-".join(c.name for c in action.path)
    word = "prepare" if isinstance(action, Prepare) else "swytch"
    return f"{word} {action.cell.name}"


def _cell(token: str, text: str) -> Cell:
    try:
        return Cell.parse(token)
    except BoardError as exc:
        raise NotationError(f"{short_repr(text)}: {exc}") from None


def parse_action(text: str) -> Action:
    """The action ``text`` writes, exactly as :func:`format_action` writes it (ASCII,
    one space between tokens); raises NotationError naming the token."""
    if not isinstance(text, str):
        raise NotationError(f"a Swytch action is text, got {short_repr(text)}")
    tokens = text.split(" ")
    if "" in tokens:
        raise NotationError(f"{short_repr(text)}: one space between tokens, none around them")
    if len(tokens) == 2 and tokens[0] in _KEYWORDS:
        action: Action = _KEYWORDS[tokens[0]](_cell(tokens[1], text))
    elif len(tokens) == 2 and tokens[0].lower() in _KEYWORDS:
        raise NotationError(f"{tokens[0]!r} in {text!r}: write it in lower case")
    elif len(tokens) != 3:
        raise NotationError(
            f"{short_repr(text)} is not a Swytch action ('prepare c2', 'swytch c2' or 'c2 2 c3-c4')"
        )
    else:
        origin = _cell(tokens[0], text)
        if _COUNT.fullmatch(tokens[1]) is None:
            raise NotationError(
                f"{short_repr(tokens[1])} in {short_repr(text)} is not a count (a whole number ≥ 1)"
            )
        path = tuple(_cell(t, text) for t in tokens[2].split("-"))
        action = Move(origin, int(tokens[1]), path)
    if format_action(action) != text:  # the notation is one text per action
        raise NotationError(f"{short_repr(text)}: write it {format_action(action)!r}")
    return action
