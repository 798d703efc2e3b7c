"""Review a Swytch game: every decision against the searching bot.

For each action a seat took, the searching bot (:class:`.bots.SearchBot`) chooses its own
action in that position, and the bot's evaluation (:func:`score`) values the position
after each, for that seat; the difference is the loss (never below 0: a chosen action
the evaluation likes better than the bot's costs nothing). Values are in counters (the
evaluation divided by what it gives a counter). The one call to swap for another
bot's scoring is :func:`score`; :func:`best` asks the searcher.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from firmware.games.reviews import ReviewedDecisions

from .actions import Action
from .board import SIDE_NAMES
from .bots import SearchBot
from .evaluation import COUNTER, evaluate
from .notation import format_action
from .state import State

#: Losses at or below this (in counters) are not mistakes.
NOISE = 0.05


def score(state: State, seat: int) -> float:
    """``state`` as the searching bot values it for ``seat``, in counters."""
    value = evaluate(state) / COUNTER
    return value if state.to_move == seat else -value


def best(state: State, line: int, nodes: int | None = None) -> Action:
    """The searching bot's action in ``state`` (seeded by the transcript line, so a
    review is the same every time), at a budget of ``nodes`` (default its own)."""
    return SearchBot(state.to_move, random.Random(line), nodes).decide(state)


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision: ``line`` is its transcript line (header = 1)."""

    line: int
    seat: int
    action: Action
    chosen: float
    best: Action
    best_value: float

    @property
    def text(self) -> str:
        return format_action(self.action)

    @property
    def best_text(self) -> str:
        return format_action(self.best)

    @property
    def loss(self) -> float:
        return max(0.0, self.best_value - self.chosen)

    def to_json(self) -> dict[str, Any]:
        return {"line": self.line, "seat": self.seat, "action": self.text,
                "value": round(self.chosen, 2), "best": self.best_text,
                "value_best": round(self.best_value, 2), "loss": round(self.loss, 2)}  # fmt: skip


@dataclass
class SwytchReview(ReviewedDecisions):
    """A reviewed Swytch game (the shape ``switch16 review`` prints and plots)."""

    header: Any
    decisions: list[Decision] = field(default_factory=list)
    #: each seat's value after each transcript line (index 0: the start)
    curve: list[tuple[float, ...]] = field(default_factory=list)
    winners: tuple[int, ...] = ()
    finished: bool = False
    lines: int = 1
    value_name: ClassVar[str] = "evaluation (counters), searching bot's"
    value_range: ClassVar[tuple[float, float] | None] = None
    noise: ClassVar[float] = NOISE

    def loss_text(self, d: Decision) -> str:
        return f"-{d.loss:.1f}"

    def to_json(self) -> dict[str, Any]:
        h = self.header
        return {
            "game": h.game, "ranks": h.ranks, "first": h.first,
            "seats": None if h.seats is None else list(h.seats),
            "finished": self.finished, "winners": list(self.winners),
            "decisions": [d.to_json() for d in self.decisions],
            "summary": [{"seat": s, "decisions": len(self.seat_decisions(s)),
                         "total_loss": round(self.total_loss(s), 2),
                         "mistakes": [d.to_json() for d in self.mistakes(s)]}
                        for s in range(2)],
            "values": [[round(v, 2) for v in row] for row in self.curve],
        }  # fmt: skip

    def report(self, path: str = "") -> str:
        """The text report of ``switch16 review``."""
        h = self.header
        seats = h.seats or ("?", "?")
        if self.finished:
            won = ", ".join(SIDE_NAMES[s] for s in self.winners)
            result = f"won by {won}" if won else "drawn"
        else:
            result = f"unfinished (it stops at line {self.lines}): the decisions so far"
        out = [f"{path}: Swytch, {h.ranks} ranks, {SIDE_NAMES[h.first]} started; {result}",
               f"values: {self.value_name}", "",
               "line  side   decision        value  best            value   loss"]  # fmt: skip
        for d in self.decisions:
            out.append(f"{d.line:4}  {SIDE_NAMES[d.seat]:5}  {d.text:14}  {d.chosen:5.1f}"
                       f"  {d.best_text:14}  {d.best_value:5.1f}  {d.loss:5.1f}")  # fmt: skip
        out.append("")
        for s in range(2):
            out.append(f"{SIDE_NAMES[s]} ({seats[s]}): {len(self.seat_decisions(s))} decisions,"
                       f" total loss {self.total_loss(s):.1f} counters")  # fmt: skip
            out += [f"  line {d.line}: {d.text} (best: {d.best_text}), {self.loss_text(d)}"
                    for d in self.mistakes(s)]  # fmt: skip
        return "\n".join(out)


def review(header: Any, actions: Sequence[Action], *, seats: frozenset[int] | None = None,
           curve: bool = True, nodes: int | None = None) -> SwytchReview:  # fmt: skip
    """The searching bot's review of a game played from ``header`` with ``actions``: the
    decisions of ``seats`` (default both); ``curve``: both values after every line;
    ``nodes``: the search's budget a decision (default the searching bot's own)."""
    state: State = header.initial_state()
    out = SwytchReview(header)
    if curve:
        out.curve.append((score(state, 0), score(state, 1)))
    for i, action in enumerate(actions):
        seat, line = state.to_move, i + 2
        after = state.apply(action)
        if (seats is None or seat in seats) and len(state.legal_actions()) > 1:
            chosen = score(after, seat)
            other = best(state, line, nodes)
            value = chosen if other == action else score(state.apply(other), seat)
            out.decisions.append(Decision(line, seat, action, chosen, other, value))
        state = after
        if curve:
            out.curve.append((score(state, 0), score(state, 1)))
    out.finished = state.game_over
    out.lines = len(actions) + 1
    out.winners = () if state.winner is None else (state.winner,)
    return out


def short_text(rev: SwytchReview, seat: int) -> str:
    """One line for an end screen: the seat's costliest decision."""
    worst = rev.mistakes(seat, 1)
    if not worst:
        return "no costly choice"
    d = worst[0]
    return f"costliest: {d.text}, {rev.loss_text(d)}"
