"""Review a finished game: every decision against the master's estimate.

For each decision a seat took (risk or pass, a green target or declining, a refusal,
a red choice, taking or leaving the chip, laying the chip), the master estimates
that seat's P(win) after the chosen action and after the best one; the difference
is the loss. In a points game the estimates are for the round being played.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from firmware.games.reviews import ReviewedDecisions
from firmware.kernel.seats import seat_name, seat_number

from ..action_text import action_text, deck_names
from ..engine import (
    Action,
    Discard,
    NewRound,
    Place,
    Roll,
    State,
)
from ..engine.notation import Header, action_to_json
from .search import Search, search_for

#: Losses below this are not mistakes (rounding of the model).
NOISE = 0.005


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision: ``line`` is its transcript line (header = 1)."""

    line: int
    round: int
    seat: int
    action: Action
    text: str
    chosen: float
    best: Action
    best_text: str
    best_value: float

    @property
    def loss(self) -> float:
        return max(0.0, self.best_value - self.chosen)

    def to_json(self) -> dict[str, Any]:
        return {
            "line": self.line,
            "round": self.round,
            "seat": self.seat,
            "action": action_to_json(self.action),
            "text": self.text,
            "p_win": round(self.chosen, 4),
            "best": action_to_json(self.best),
            "best_text": self.best_text,
            "p_win_best": round(self.best_value, 4),
            "loss": round(self.loss, 4),
        }


@dataclass
class Review(ReviewedDecisions):
    header: Header
    decisions: list[Decision] = field(default_factory=list)
    #: P(win) of every seat after each transcript line (index 0: the start).
    curve: list[tuple[float, ...]] = field(default_factory=list)
    winners: tuple[int, ...] = ()
    #: The game (or points match) was played to its end; else the review stops where
    #: the transcript does.
    finished: bool = False
    lines: int = 1  #: transcript lines reviewed (the header is line 1)
    value_name: ClassVar[str] = "P(win), master's estimate"
    value_range: ClassVar[tuple[float, float] | None] = (0.0, 1.0)
    noise: ClassVar[float] = NOISE

    def loss_text(self, d: Decision) -> str:
        return f"-{d.loss * 100:.0f}%"

    def report(self, path: str = "") -> str:
        return format_review(self, path)

    def to_json(self) -> dict[str, Any]:
        h = self.header
        return {
            "players": h.players,
            "rules": h.rules.name,
            "points": h.rules.points,
            "seats": list(h.seats) if h.seats else None,
            "finished": self.finished,
            "winners": list(self.winners),
            "decisions": [d.to_json() for d in self.decisions],
            "summary": [
                {
                    "seat": s,
                    "decisions": len(self.seat_decisions(s)),
                    "total_loss": round(self.total_loss(s), 4),
                    "mistakes": [d.to_json() for d in self.mistakes(s)],
                }
                for s in range(h.players)
            ],
            "p_win": [[round(p, 4) for p in row] for row in self.curve],
        }


def describe(state: State, action: Action) -> str:
    """A short account of a decision, e.g. ``risk at 12`` or ``green: take BLUE``."""
    return action_text(state, action, deck_names(state))


def _options(state: State, seat: int, action: Action, search: Search) -> dict[Action, float]:
    """The values for ``seat`` of the alternatives to ``action`` (``action`` included)."""
    if isinstance(action, Place):
        placements = search.placements(state, seat)
        keep = placements.get(None)
        out: dict[Action, float] = {}
        for on in range(state.players):
            if on != seat:
                v = placements.get(on)
                place = Place(seat, on)
                out[place] = (v if v is not None else search.value(state.apply(place)))[seat]
        out[_KEEP] = (keep if keep is not None else search.value(state))[seat]
        return out
    return {
        a: search.value(state.apply(a))[seat]
        for a in state.legal_actions()
        if type(a) is not Place and state.actor(a) == seat
    }


class _Keep:
    """Not laying the chip (a review's alternative to a placement)."""

    def __repr__(self) -> str:
        return "keep"


_KEEP: Any = _Keep()


def review(
    header: Header,
    actions: Sequence[Action],
    *,
    seats: frozenset[int] | None = None,
    curve: bool = True,
) -> Review:
    """The master's review of a game played from ``header`` with ``actions``: the
    decisions of ``seats`` (default every seat); ``curve``: P(win) after every line."""
    state = header.initial_state()
    search = search_for(state.rules, state.players)
    out = Review(header)
    if curve:
        out.curve.append(search.value(state))
    for i, action in enumerate(actions):
        kind = type(action)
        seat = state.actor(action)
        wanted = seat is not None and (seats is None or seat in seats)
        if kind not in (Roll, NewRound, Discard) and seat is not None and wanted:
            options = _options(state, seat, action, search)
            if len(options) > 1:
                best = max(options, key=lambda a: options[a])
                chosen = options.get(action, search.value(state.apply(action))[seat])
                out.decisions.append(
                    Decision(
                        line=i + 2,
                        round=state.round,
                        seat=seat,
                        action=action,
                        text=describe(state, action),
                        chosen=chosen,
                        best=best if best is not _KEEP else action,
                        best_text="keep the chip" if best is _KEEP else describe(state, best),
                        best_value=options[best],
                    )
                )
        state = state.apply(action)
        if curve:
            out.curve.append(search.value(state))
    out.finished = state.game_over
    out.lines = len(actions) + 1
    if state.match_winners is not None:
        out.winners = state.match_winners
    elif state.winner is not None and out.finished:
        out.winners = (state.winner,)
    return out


def short_text(rev: Review, seat: int) -> str | None:
    """One line for an end screen: the seat's costliest decision, or None."""
    worst = rev.mistakes(seat, 1)
    if not worst:
        return None
    d = worst[0]
    return f"costliest: {d.text}, -{round(d.loss * 100)} %"


def format_review(rev: Review, path: str = "") -> str:
    """The text report of ``switch16 review``."""
    h = rev.header
    seats = h.seats or tuple("?" for _ in range(h.players))
    if rev.finished:
        result = "won by " + ", ".join(map(seat_name, rev.winners))
    else:
        result = f"unfinished (it stops at line {rev.lines}): the decisions so far"
    lines = [
        f"{path}: {h.players} players, rules {h.rules.name}"
        + (" (points: P(win) is for the round)" if h.rules.points else "")
        + f"; {result}"
    ]
    lines.append("")
    lines.append("line  seat  decision               P(win)  best                   P(win)   loss")
    for d in rev.decisions:
        lines.append(
            f"{d.line:4}  {seat_number(d.seat):4}  {d.text:21}  {d.chosen * 100:5.1f}%"
            f"  {d.best_text:21}  {d.best_value * 100:5.1f}%  {d.loss * 100:4.1f}%"
        )
    lines.append("")
    for s in range(h.players):
        ds = rev.seat_decisions(s)
        lines.append(
            f"{seat_name(s)} ({seats[s]}): {len(ds)} decisions,"
            f" total loss {rev.total_loss(s) * 100:.1f} %"
        )
        for d in rev.mistakes(s):
            lines.append(f"  line {d.line}: {d.text} (best: {d.best_text}), -{d.loss * 100:.1f} %")
    return "\n".join(lines)
