"""A one-line-per-turn log of a game (the simulator prints it), in the words of
:mod:`firmware.games.switch16.action_text`, from the engine states its actions produce.

Feed :meth:`TurnLog.step` every accepted action with the state before and after it
(or replay a journal with :func:`turn_lines`); a line is emitted when a turn ends::

   7  seat 3 green  top  4: roll 1 3 5 +blank, discard 4–5, pass at 6   [r5 b1 g6]
"""

from __future__ import annotations

from collections.abc import Iterator

from firmware.kernel.seats import seat_name
from firmware.transcript import Replayed

from .action_text import action_text, outcome_text
from .engine import Action, Discard, NewRound, Phase, State
from .engine.notation import Header


class TurnLog:
    """Collects the events of the current turn and emits one line when it ends."""

    def __init__(self, names: tuple[str, ...] | None = None) -> None:
        self.names = names
        self.turns = 0
        self._parts: list[str] = []
        self._seat: int | None = None
        self._start: State | None = None

    def step(self, before: State, action: object, after: State) -> list[str]:
        """Record one accepted action; return the lines finished by it (0 to 2)."""
        assert isinstance(action, Action), action
        if self._start is None and type(action) is not NewRound:
            self._begin(before)
        part = self._describe(before, action, after)
        if type(action) is Discard and self._parts and self._parts[-1].startswith("discard "):
            first = self._parts[-1].removeprefix("discard ").split("–")[0]
            self._parts[-1] = f"discard {first}–{before.top_card(before.turn)}"
        elif part:
            self._parts.append(part)
        out: list[str] = []
        turn_over = after.turn != before.turn or (
            after.phase is Phase.OVER and before.phase is not Phase.OVER
        )
        if type(action) is NewRound:
            out.append(f"--- round {after.round}: {seat_name(after.turn)} starts")
            self._start = None
            self._parts.clear()
        elif turn_over:
            line = self._flush(after)
            if line:
                out.append(line)
        if after.phase is Phase.OVER and before.phase is not Phase.OVER:
            out.append(self._result(after))
        return out

    def picture(self, before: State, after: State) -> str | None:
        """The picture an action calls for in a demo: "end" when a game (or a match's
        round) ends, "start-roll" when the first roll lands, else None."""
        if after.phase is Phase.OVER:
            return "end"
        return "start-roll" if before.switch is None and after.switch else None

    def moment(self, state: State) -> bool:
        """A good moment for a mid-game picture: dice on the table, a decision pending."""
        return state.phase in (Phase.DECIDE, Phase.GREEN, Phase.BLOCK)

    def _begin(self, state: State) -> None:
        self._seat = state.turn
        self._start = state
        self._parts = []

    def _flush(self, after: State) -> str | None:
        start, seat = self._start, self._seat
        self._start = None
        if start is None or seat is None or not self._parts:
            return None
        self.turns += 1
        who = seat_name(seat)
        if self.names and seat < len(self.names):
            who += f" ({self.names[seat]})"
        width = 22 if self.names else 6
        deck, top = start.colour_of(seat), start.top_card(seat)
        head = f"{self.turns:4d}  {who:<{width}} {deck:<6} top {top:>2}"
        tops = " ".join(f"{after.colour_of(s)[0]}{after.top_card(s)}" for s in range(after.players))
        return f"{head}: {', '.join(self._parts)}   [{tops}]"

    def _describe(self, before: State, action: Action, after: State) -> str:
        text = action_text(before, action, seat_name)
        text += outcome_text(before, action, after, seat_name)
        actor = before.actor(action)
        if actor is not None and actor != before.turn:  # the chip holder, a named seat
            text = f"{seat_name(actor)}: {text}"
        return text

    @staticmethod
    def _result(state: State) -> str:
        if state.winner is None:
            return "game over"
        text = f"*** {seat_name(state.winner)} wins"
        if state.scores is not None:
            scores = " ".join(f"{seat_name(s)}={v}" for s, v in enumerate(state.scores))
            text += f" the round; scores {scores}"
            if state.match_winners:
                text += "; match won by " + ", ".join(map(seat_name, state.match_winners))
        return text


def turn_lines(replayed: Replayed, names: tuple[str, ...] | None = None) -> Iterator[str]:
    """The turn log of a replayed transcript."""
    header = replayed.header
    if not isinstance(header, Header):  # none, or another game's
        return
    log = TurnLog(names)
    state = header.initial_state()
    for action in replayed.actions:
        after = state.apply(action)
        yield from log.step(state, action, after)
        state = after
