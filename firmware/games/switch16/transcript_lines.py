"""Switch 16's action lines in a transcript: written (:func:`action_line`), read once
per distinct line (:func:`parse_action`, shared caches) and replayed fast
(:class:`InPlaceReplay`, its :meth:`~firmware.games.game.Game.fast_replay`): one private
state stepped in place by the handlers ``State.apply`` runs
(:mod:`firmware.games.switch16.engine.inplace`), so no state per line is kept or copied."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from firmware.transcript import canonical, dumps, parse_line

from .engine import Action, State, inplace
from .engine.notation import action_from_json, action_to_json

#: Parsed action lines, shared by every replay: actions are immutable values and a
#: game repeats few distinct lines ({"action": "discard"}, the same rolls…). Only
#: lines as short as real action lines are kept, so the cache stays under ~10 MB.
_LINE_CACHE: dict[str, Action] = {}
_LINE_CACHE_MAX = 50_000
_LINE_CACHE_LINE_MAX = 80
#: Action lines -> (action, its in-place step), shared like :data:`_LINE_CACHE`.
_STEPS: dict[str, tuple[Action, inplace.Step]] = {}


def action_line(action: Action) -> str:
    """One action line as the unit writes it (no newline)."""
    return dumps(action_to_json(action))


def parse_action(line: str) -> Action:
    """Parse one action line, written as :func:`action_line` writes it;
    MalformedActionError or ValueError on bad input."""
    action = _LINE_CACHE.get(line)
    if action is None:
        action = action_from_json(parse_line(line))
        canonical(line, action_line(action))
        if len(line) <= _LINE_CACHE_LINE_MAX and len(_LINE_CACHE) < _LINE_CACHE_MAX:
            _LINE_CACHE[line] = action
    return action


def _step(line: str) -> tuple[Action, inplace.Step]:
    action = parse_action(line)
    entry = (action, inplace.step_for(action))
    if len(line) <= _LINE_CACHE_LINE_MAX and len(_STEPS) < _LINE_CACHE_MAX:
        _STEPS[line] = entry
    return entry


class InPlaceReplay:
    """Action lines applied to one private copy of ``initial``; a bad line raises and
    changes nothing, so :attr:`state` is then the one before it."""

    def __init__(self, initial: State) -> None:
        self._state = inplace.thaw(initial)

    def run(self, lines: Iterator[str], append: Callable[[Action], None]) -> None:
        state, cached = self._state, _STEPS.get
        for line in lines:
            action, step = cached(line) or _step(line)
            step(state, action)
            append(action)

    @property
    def state(self) -> State:
        return inplace.freeze(self._state)
