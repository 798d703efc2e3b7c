"""Command execution: what the controller asks for (commit an action, roll the dice,
ask a bot, a roll-off, a new game) done by the loop: journal -> engine state ->
sound cue -> controller, in that order. A bot's move and a hint are thought out by
:meth:`~firmware.unit.thinking.Thinking._think` (beside the loop when they are slow).

A mixin of :class:`~firmware.unit.loop.Unit` (it owns the attributes declared here).
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Iterable
from functools import partial
from typing import TYPE_CHECKING, Any

from firmware.games.game import Game, GameController, GameHeader
from firmware.games.game import GameState as State
from firmware.kernel.errors import IllegalActionError
from firmware.kernel.players import HUMAN
from firmware.kernel.rolloff import roll_off
from firmware.kernel.seats import seat_name
from firmware.worker import decide
from hal.interfaces import Hal

from .commands import (
    AskBot,
    AskHint,
    AskInterject,
    ChooseGame,
    Command,
    Commit,
    NewGame,
    RollDice,
    RollOff,
    StartGame,
)
from .journal import Journal
from .setup import saved_kinds
from .sounds import Cue

log = logging.getLogger("firmware.unit.loop")


class CommandExecution:
    """The commands of :class:`~firmware.unit.loop.Unit`'s controller, carried out."""

    hal: Hal
    clock: Any
    rng: random.Random
    controller: GameController
    journal: Journal
    bots: dict[int, Any]
    actions: int
    on_commit: list[Callable[[Any, State], None]]
    forced_first: int | None
    _ahead: Any
    _cue_due: Cue | None

    game: Game

    if TYPE_CHECKING:  # from the other mixins of Unit and the loop

        def _roll(self, state: State, seat: int) -> Any: ...
        def _use_game(self, name: str) -> None: ...
        def _journal_ahead(self, setup: Any, first: int) -> None: ...
        def _cue(self, cue: Cue) -> None: ...
        def _think(self, work: str, fn: Callable[..., Any], args: tuple[Any, ...],
                   then: Callable[[Any], list[Command]]) -> list[Command]: ...  # fmt: skip
        def _warm_worker(self, kinds: Iterable[str]) -> None: ...
        def _cancel_thinks(self) -> None: ...

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
            roll = None if st is None else self._roll(st, cmd.seat)
            return [] if roll is None else self._commit(roll)
        if isinstance(cmd, AskBot):
            seat, bot = cmd.seat, self.bots.get(cmd.seat)
            if bot is not None and st is not None and self.game.deciding_seat(st) == seat:
                then = partial(self._decided, st, seat, bot)
                return self._think(ctl.kinds[seat], decide, (bot, st), then)
            return []
        if isinstance(cmd, AskHint):
            return self._hint(cmd.seat)
        if isinstance(cmd, AskInterject):
            bot = self.bots.get(cmd.seat)
            if bot is not None and st is not None:
                place = self.game.interject(bot, st, cmd.seat)
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
            self._cancel_thinks()
            return ctl.start_setup(now)
        if isinstance(cmd, ChooseGame):
            self._use_game(cmd.game)
            return self.controller.start_setup(now)
        raise TypeError(f"unknown command {cmd!r}")

    def _decided(self, st: State, seat: int, bot: Any, answer: tuple[Any, Any]) -> list[Command]:
        """A bot's move for ``st``, committed unless the game moved on meanwhile; the
        bot as deciding left it (its rng) plays on."""
        action, after = answer
        if self.controller.state is not st or self.bots.get(seat) is not bot:
            log.debug("dropped %s's move for a position gone", seat_name(seat))
            return []
        self.bots[seat] = after
        return self._commit(action)

    def _hint(self, seat: int) -> list[Command]:
        """The game's strongest bot's action for ``seat`` (a human's hint), to the
        controller when it is worked out; the bot draws from its own rng off the unit's."""
        st = self.controller.state
        if st is None or self.game.deciding_seat(st) != seat:
            return []
        kinds = tuple(self.controller.kinds)
        level = self.game.levels[-1]
        bot = self.game.make_bot(level, seat, random.Random(self.rng.getrandbits(64)), kinds)
        return self._think(level, decide, (bot, st), partial(self._hinted, st, seat))

    def _hinted(self, st: State, seat: int, answer: tuple[Any, Any]) -> list[Command]:
        """A hint for ``st``, shown unless the game moved on meanwhile."""
        action = answer[0]
        if self.controller.state is not st:
            return []
        log.info("hint for %s: %s", seat_name(seat), self.game.action_to_json(action))
        return self.controller.hinted(seat, action, self.clock.now())

    def _start_game(self, setup: Any, first: int, now: float) -> list[Command]:
        header = self.game.header(setup, first)
        if self._ahead != header:
            self.journal.create(header)
        self._ahead = None
        log.info("new game of %s: %s", self.game.title, self.game.header_text(header))
        self._make_bots(setup.seats)
        commands = self.controller.begin(header.initial_state(), setup.seats, now)
        self._cue(Cue.START)
        return commands

    def _commit(self, action: Any) -> list[Command]:
        """Journal, apply and show one action (illegal ones are logged and dropped)."""
        state = self.controller.state
        if state is None:
            log.warning("no game: dropped %s", action)
            return []
        try:
            new = state.apply(action)
        except IllegalActionError as exc:
            log.warning("ignored illegal %s: %s", self.game.action_to_json(action), exc)
            return []
        if self._ahead is not None and self._ahead == action:
            self._ahead = None  # journaled when its roll-off started
        else:
            self.journal.append(action)  # on disk before any display shows it
        self.actions += 1
        if log.isEnabledFor(logging.DEBUG):  # (the JSON is built only for the log)
            actor = state.actor(action)
            log.debug("%s: %s -> %r", "unit" if actor is None else seat_name(actor),
                      self.game.action_to_json(action), new)  # fmt: skip
        commands = self.controller.committed(action, new, self.clock.now())
        if self.hal.buzzer is not None and (cue := self.game.cue(state, action, new)) is not None:
            self._cue_due = cue
        for hook in self.on_commit:
            hook(action, new)
        if new.game_over:
            winners = self.game.result(new)
            log.info("game over: won by %s", ", ".join(map(seat_name, winners)) or "nobody")
            self.journal.archive()
        return commands

    def _kinds(self, header: GameHeader) -> tuple[str, ...]:
        return saved_kinds(header, self.game.levels)

    def _make_bots(self, kinds: Iterable[str]) -> None:
        kinds = tuple(kinds)
        self._cancel_thinks()
        self._warm_worker(kinds)
        make_bot = self.game.make_bot
        self.bots = {
            seat: make_bot(kind, seat, random.Random(self.rng.getrandbits(64)), kinds)
            for seat, kind in enumerate(kinds)
            if kind != HUMAN
        }
