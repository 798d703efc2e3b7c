"""A one-line-per-turn log of a game, derived from the engine states its actions produce.

Feed :meth:`TurnLog.step` every accepted action with the state before and after it
(or replay a journal with :func:`turn_lines`); a line is emitted when a turn ends::

   7  seat 3 green  top  4: roll 1 3 5 +blank, discard 4, discard 5, pass   [r5 b1 g6]
"""

from __future__ import annotations

from collections.abc import Iterator

from firmware.engine import (
    Discard,
    Face,
    Green,
    NewRound,
    Pass,
    Phase,
    Place,
    Red,
    Refuse,
    Risk,
    Roll,
    State,
    Take,
    seat_name,
)
from firmware.engine.notation import Header
from firmware.transcript import Replayed


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

    def _describe(self, before: State, action: object, after: State) -> str:
        roller = before.turn
        kind = type(action)
        if kind is Roll:
            dice = " ".join(map(str, action.dice))  # type: ignore[attr-defined]
            text = f"roll {dice} +{action.switch}"  # type: ignore[attr-defined]
            if action.switch is Face.BLOCK and after.chip_holder == roller:  # type: ignore[attr-defined]
                text += " (takes the chip)"
            if action.switch is Face.RED:  # type: ignore[attr-defined]
                if after.control != before.control:
                    text += f" → red switch with {seat_name(_partner(before, after, roller))}"
                elif after.phase is not Phase.RED:
                    text += " → red, no switch"
            return text + self._penalty(before, after, roller)
        if kind is Discard:
            return f"discard {before.top_card(roller)}"
        if kind is Risk:
            return "risk"
        if kind is Pass:
            return "pass"
        if kind is Green:
            target = action.target  # type: ignore[attr-defined]
            if target is None:
                return "green declined"
            done = " → switched" if after.control != before.control else ""
            return f"green: names {seat_name(target)}{done}"
        if kind is Refuse:
            named = seat_name(before.current_player())
            if action.refuses:  # type: ignore[attr-defined]
                return f"{named} refuses with the chip"
            return f"{named} accepts → switched"
        if kind is Red:
            return f"red: switch with {seat_name(action.target)}"  # type: ignore[attr-defined]
        if kind is Take:
            return "takes the chip" if action.takes else "leaves the chip"  # type: ignore[attr-defined]
        if kind is Place:
            by, on = action.by, action.on  # type: ignore[attr-defined]
            return f"{seat_name(by)} blocks {seat_name(on)}" + self._penalty(before, after, roller)
        return ""

    @staticmethod
    def _penalty(before: State, after: State, roller: int) -> str:
        deck = before.control[roller]
        if after.discarded[deck] < before.discarded[deck]:
            return f" → penalty, top {after.discarded[deck] + 1}"
        return ""

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


def _partner(before: State, after: State, roller: int) -> int:
    """The seat whose deck the roller got in an exchange."""
    return after.control.index(before.control[roller])


def turn_lines(replayed: Replayed, names: tuple[str, ...] | None = None) -> Iterator[str]:
    """The turn log of a replayed transcript."""
    header: Header | None = replayed.header
    if header is None:
        return
    log = TurnLog(names)
    state = header.initial_state()
    for action in replayed.actions:
        after = state.apply(action)
        yield from log.step(state, action, after)
        state = after
