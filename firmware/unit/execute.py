"""Command execution: what the controller asks for (commit an action, roll the dice,
ask a bot, a roll-off, a new game) done by the loop: journal -> engine state ->
sound cue -> controller, in that order.

A mixin of :class:`~firmware.unit.loop.Unit` (it owns the attributes declared here).
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from firmware.chance import roll_off
from firmware.engine import Act, Action, IllegalActionError, Phase, State
from firmware.engine.notation import Header, action_to_json
from firmware.engine.seats import seat_name
from hal.interfaces import Hal

from .commands import (
    AskBot,
    AskInterject,
    Command,
    Commit,
    NewGame,
    RollDice,
    RollOff,
    StartGame,
)
from .controller import Controller, deciding_seat
from .journal import Journal
from .setup import HUMAN, SEAT_KINDS, GameSetup
from .sounds import Cue, cue_for

if TYPE_CHECKING:
    from firmware.bots import Bot

log = logging.getLogger("firmware.unit.loop")


class CommandExecution:
    """The commands of :class:`~firmware.unit.loop.Unit`'s controller, carried out."""

    hal: Hal
    clock: Any
    rng: random.Random
    controller: Controller
    journal: Journal
    bots: dict[int, Bot]
    actions: int
    on_commit: list[Callable[[Action, State], None]]
    forced_first: int | None
    _ahead: Any
    _cue_due: Cue | None

    if TYPE_CHECKING:  # from the other mixins of Unit

        def _roll(self, state: State) -> Any: ...
        def _journal_ahead(self, setup: GameSetup | None, first: int) -> None: ...
        def _cue(self, cue: Cue) -> None: ...

    def _execute(self, commands: Iterable[Command]) -> None:
        pending = list(commands)
        while pending:
            pending.extend(self._run_command(pending.pop(0)))

    def _run_command(self, cmd: Command) -> list[Command]:
        ctl = self.controller
        now = self.clock.now()
        st = ctl.state
        if isinstance(cmd, Commit):
            return self._commit(cmd.action)
        if isinstance(cmd, RollDice):
            if st is not None and st.phase is Phase.ROLL and st.turn == cmd.seat:
                return self._commit(self._roll(st))
            return []
        if isinstance(cmd, AskBot):
            bot = self.bots.get(cmd.seat)
            if bot is not None and st is not None and deciding_seat(st) == cmd.seat:
                return self._commit(bot.decide(st))
            return []
        if isinstance(cmd, AskInterject):
            bot = self.bots.get(cmd.seat)
            if bot is not None and st is not None and st.may(cmd.seat, Act.PLACE):
                place = bot.interject(st)
                if place is not None:
                    return self._commit(place)
            return []
        if isinstance(cmd, RollOff):
            players = cmd.setup.players if cmd.setup is not None else st.players if st else 0
            first, rounds = roll_off(self.rng, range(players))
            if self.forced_first is not None and 0 <= self.forced_first < players:
                first, rounds = self.forced_first, [{s: 6 if s == self.forced_first else 1
                                                     for s in range(players)}]  # fmt: skip
            self.forced_first = None
            log.info("roll-off: %s -> %s starts", rounds, seat_name(first))
            self._journal_ahead(cmd.setup, first)
            ctl.show_rolloff(rounds, first, cmd.setup, now)
            return []
        if isinstance(cmd, StartGame):
            return self._start_game(cmd.setup, cmd.first, now)
        if isinstance(cmd, NewGame):
            self.journal.archive()
            self.bots.clear()
            return ctl.start_setup(now)
        raise TypeError(f"unknown command {cmd!r}")

    def _start_game(self, setup: GameSetup, first: int, now: float) -> list[Command]:
        header = Header(setup.players, first, setup.rules(), setup.seats)
        if self._ahead != header:
            self.journal.create(header)
        self._ahead = None
        log.info("new game: %d players (%s), %s%s, %s starts", setup.players,
                 ", ".join(setup.seats), setup.preset, ", points" if setup.points else "",
                 seat_name(first))  # fmt: skip
        self._make_bots(setup.seats)
        commands = self.controller.begin(header.initial_state(), setup.seats, now)
        self._cue(Cue.START)
        return commands

    def _commit(self, action: Action) -> list[Command]:
        """Journal, apply and show one action (illegal ones are logged and dropped)."""
        state = self.controller.state
        if state is None:
            log.warning("no game: dropped %s", action)
            return []
        try:
            new = state.apply(action)
        except IllegalActionError as exc:
            log.warning("ignored illegal %s: %s", action_to_json(action), exc)
            return []
        if self._ahead is not None and self._ahead == action:
            self._ahead = None  # journaled when its roll-off started
        else:
            self.journal.append(action)  # on disk before any display shows it
        self.actions += 1
        actor = state.actor(action)
        log.debug("%s: %s -> %r", "unit" if actor is None else seat_name(actor),
                  action_to_json(action), new)  # fmt: skip
        commands = self.controller.committed(action, new, self.clock.now())
        if self.hal.buzzer is not None and (cue := cue_for(state, action, new)) is not None:
            self._cue_due = cue
        for hook in self.on_commit:
            hook(action, new)
        if new.game_over:
            winners = new.match_winners or (() if new.winner is None else (new.winner,))
            log.info("game over: won by %s", ", ".join(map(seat_name, winners)) or "nobody")
            self.journal.archive()
        return commands

    def _kinds(self, header: Header) -> tuple[str, ...]:
        kinds = header.seats or (HUMAN,) * header.players
        out = []
        for seat, kind in enumerate(kinds):
            if kind not in SEAT_KINDS:
                log.warning("journal names %s %r (unknown): playing it as human", seat_name(seat),
                            kind)  # fmt: skip
                kind = HUMAN
            out.append(kind)
        return tuple(out)

    def _make_bots(self, kinds: Iterable[str]) -> None:
        from firmware.bots import make_bot

        kinds = tuple(kinds)
        self.bots = {
            seat: make_bot(kind, seat, random.Random(self.rng.getrandbits(64)), table=kinds)
            for seat, kind in enumerate(kinds)
            if kind != HUMAN
        }
