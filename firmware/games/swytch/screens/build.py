"""Swytch views from the game state, the seat's picker and the last turn (pure).

>>> from firmware.games.swytch.state import State
>>> player_view(State.new(), 1).tag
'SOUTH'
"""

from __future__ import annotations

from firmware.unit.controls import legend

from ..actions import Action, Move, Prepare
from ..board import SIDE_NAMES, Cell
from ..controls import row
from ..picker import Picker, Stage
from ..state import State
from .render import follow
from .views import BoardView, EndView, LastTurn, OnlookerView, Shift

LABELS = (SIDE_NAMES[0].upper(), SIDE_NAMES[1].upper())


def player_view(
    state: State,
    seat: int,
    picker: Picker | None = None,
    last: LastTurn | None = None,
    labels: tuple[str, str] = LABELS,
    shift: Shift = (0, 0),
    reading: bool = True,
    corner: tuple[int, int] | None = None,
) -> BoardView:
    """``seat``'s screen: its picker on its turn (None: the opponent's turn), the
    opponent's ``last`` turn marked until the seat acts; ``reading``: shown in full
    (the controller ends that at the seat's first press, or after its time);
    ``corner``: where its zoom window was (:func:`looks_at` says what it follows)."""
    corner = follow(state.board, seat, corner, *looks_at(state, seat, picker, last, reading))
    mine = picker is not None and state.to_move == seat
    tag = "YOU" if mine else labels[state.to_move]
    if picker is not None and mine and picker.hint_requested:
        tag = "HINT…"  # until the unit answers with Picker.hinted
    reading = reading and last is not None
    bot = picker is None and state.to_move == seat
    keys = legend(row(picker if mine else None, bot=bot, reading=reading))
    if picker is None or not mine or picker.chosen is not None:
        return BoardView(state.board, seat, tag, mine, last=last, reading=reading,
                         legend=keys, shift=shift, corner=corner)  # fmt: skip
    if picker.stage is Stage.STACK:  # the opponent's last turn shows in full until a press
        cursor = None if reading else picker.origin
        return BoardView(
            state.board, seat, tag, True, cursor=cursor,
            title="" if reading or picker.hint_requested else picker.origin.name,
            last=last, reading=reading,
            legend=keys, shift=shift, corner=corner,
        )  # fmt: skip
    origin = picker.origin
    if picker.stage is Stage.OPTION:
        return BoardView(
            state.board, seat, tag, True, cursor=origin,
            title=f"hint {origin.name}" if picker.hinted_now else origin.name,
            options=tuple(o.label for o in picker.options), highlight=picker.option,
            last=last, legend=keys, shift=shift, corner=corner,
        )  # fmt: skip
    option, target = picker.current_option, picker.current_target
    n = len(option.targets)
    lines = (
        f"→{target.move.destination.name}",
        *_outcome_words(target.outcome),
        target.label or ("hint" if picker.hinted_now else f"{picker.target + 1}/{n}"),
    )
    if picker.hinted_now and target.label:
        lines = ("hint", *lines)
    targets = tuple(dict.fromkeys(t.move.destination for t in option.targets))
    return BoardView(
        state.board, seat, tag, True, cursor=target.move.destination, origin=origin,
        path=target.move.path, targets=targets,
        title=f"{origin.name} ×{option.targets[0].move.count}",
        lines=lines, last=last, legend=keys, shift=shift, corner=corner,
    )  # fmt: skip


def looks_at(
    state: State, seat: int, picker: Picker | None, last: LastTurn | None, reading: bool
) -> tuple[Cell | None, Cell | None]:
    """What :func:`player_view`'s board looks at (its zoom window keeps it in view): the
    opponent's last turn while the seat reads it, else the cursor, and the stack a
    destination is for."""
    mine = picker is not None and state.to_move == seat and picker.chosen is None
    if picker is None or not mine or picker.stage is Stage.STACK:
        if reading and last is not None:
            return last.destination, last.origin
        return (picker.origin if picker is not None and mine else None), None
    if picker.stage is Stage.OPTION:
        return picker.origin, None
    return picker.current_target.move.destination, picker.origin


def _outcome_words(outcome: str) -> tuple[str, ...]:
    """ "attack won" → ("attack", "won"): one word a line in the side column."""
    return tuple(outcome.split())


def last_turn(before: State, action: Action, labels: tuple[str, str] = LABELS) -> LastTurn:
    """What the player on turn in ``before`` did with ``action``, for the other seat."""
    who = labels[before.to_move]
    if isinstance(action, Move):
        outcome = before.outcome(action)
        return LastTurn(
            action.origin,
            action.destination,
            action.path,
            (who, f"{action.origin.name}→{action.destination.name}", *_outcome_words(outcome)),
        )
    word = "prepare" if isinstance(action, Prepare) else "swytch"
    return LastTurn(action.cell, action.cell, (), (who, word, action.cell.name))


def onlooker_view(
    state: State, last: LastTurn | None = None, labels: tuple[str, str] = LABELS,
    shift: Shift = (0, 0),
) -> OnlookerView:  # fmt: skip
    return OnlookerView(state.board, state.to_move, labels, last, shift)


def end_view(
    state: State,
    seat: int,
    labels: tuple[str, str] = LABELS,
    shift: Shift = (0, 0),
    review: str = "",
) -> EndView:
    """The end screen of a finished game: the winner (or a draw) and why; ``review``:
    the short review of ``seat``'s play."""
    if state.winner is not None:
        reason = f"{labels[1 - state.winner].capitalize()} has no counters left"
    else:
        reason = str(state.draw)
    counters = (state.counters(0), state.counters(1))
    keys = legend(row(None, game_over=True))
    return EndView(seat, state.winner, reason, counters, labels, keys, shift, review)


__all__ = ["end_view", "last_turn", "looks_at", "onlooker_view", "player_view"]
