"""Command execution: what the controller asks for (commit an action, roll the dice,
ask a bot, a roll-off, a new game) done by the loop: journal -> engine state ->
sound cue -> controller, in that order. A bot's move and a hint are thought out by
:meth:`~firmware.unit.thinking.SlowWork.think` (beside the loop when they are slow).

A part of :class:`~firmware.unit.loop.Unit` (:attr:`~firmware.unit.loop.Unit.execution`).
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Iterable
from functools import partial
from typing import Any

from firmware.games.game import GameState as State
from firmware.kernel.errors import IllegalActionError
from firmware.kernel.players import HUMAN
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
from .refresh import DisplayRefresh
from .rolls import Rolls
from .sounds import Cue
from .table import Table
from .thinking import SlowWork

log = logging.getLogger("firmware.unit.loop")


class CommandExecution:
    """The commands of the controller on the :class:`Table`, carried out; the bots."""

    def __init__(
        self,
        table: Table,
        *,
        hal: Hal,
        journal: Journal,
        rng: random.Random,
        rolls: Rolls,
        work: SlowWork,
        displays: DisplayRefresh,
    ) -> None:
        self._table = table
        self._hal = hal
        self._clock = hal.clock
        self._journal = journal
        self._rng = rng
        self._rolls = rolls
        self._work = work
        self._displays = displays
        #: The bots playing, by seat.
        self.bots: dict[int, Any] = {}
        self.actions = 0  #: actions committed since start
        self.on_commit: list[Callable[[Any, State], None]] = []

    def execute(self, commands: Iterable[Command]) -> None:
        """Carry out ``commands`` and the commands they lead to, in order."""
        pending = list(commands)
        while pending:
            pending.extend(self._run_command(pending.pop(0)))

    def _run_command(self, cmd: Command) -> list[Command]:
        ctl, game = self._table.controller, self._table.game
        now = self._clock.now()
        st = ctl.state
        if isinstance(cmd, Commit):
            return self._commit(cmd.action)
        if isinstance(cmd, RollDice):
            roll = None if st is None else self._rolls.roll(game, st, cmd.seat)
            return [] if roll is None else self._commit(roll)
        if isinstance(cmd, AskBot):
            seat, bot = cmd.seat, self.bots.get(cmd.seat)
            if bot is not None and st is not None and st.current_player() == seat:
                then = partial(self._decided, st, seat, bot)
                return self._work.think(game, ctl.kinds[seat], decide, (bot, st), then, move=True)
            return []
        if isinstance(cmd, AskHint):
            return self._hint(cmd.seat)
        if isinstance(cmd, AskInterject):
            bot = self.bots.get(cmd.seat)
            if bot is not None and st is not None and cmd.seat in game.out_of_turn(st):
                place = game.interject(bot, st, cmd.seat)
                if place is not None:
                    return self._commit(place)
            return []
        if isinstance(cmd, RollOff):
            first, rounds = self._rolls.roll_off(cmd.players(st))
            log.info("roll-off: %s -> %s starts", rounds, seat_name(first))
            header = self._rolls.journal_ahead(game, st, cmd.setup, first)
            if header is not None:  # the worker starts while the roll-off shows
                self._work.warm(game, header.seats or ())
            ctl.show_rolloff(rounds, first, cmd.setup, now)
            return []
        if isinstance(cmd, StartGame):
            return self._start_game(cmd.setup, cmd.first, now)
        if isinstance(cmd, NewGame):
            self._journal.archive()
            self.bots.clear()
            self._work.cancel()
            return ctl.start_setup(now)
        if isinstance(cmd, ChooseGame):
            self._table.use_game(cmd.game)
            return self._table.controller.start_setup(now)
        raise TypeError(f"unknown command {cmd!r}")

    def _decided(self, st: State, seat: int, bot: Any, answer: tuple[Any, Any]) -> list[Command]:
        """A bot's move for ``st``, committed unless the game moved on meanwhile; the
        bot as deciding left it (its rng) plays on."""
        action, after = answer
        if self._table.controller.state is not st or self.bots.get(seat) is not bot:
            log.debug("dropped %s's move for a position gone", seat_name(seat))
            return []
        self.bots[seat] = after
        return self._commit(action)

    def _hint(self, seat: int) -> list[Command]:
        """The game's strongest bot's action for ``seat`` (a human's hint), to the
        controller when it is worked out; the bot draws from its own rng off the unit's."""
        ctl, game = self._table.controller, self._table.game
        st = ctl.state
        if st is None or st.current_player() != seat:
            return []
        kinds = tuple(ctl.kinds)
        level = game.levels[-1]
        bot = game.make_bot(level, seat, random.Random(self._rng.getrandbits(64)), kinds)
        return self._work.think(game, level, decide, (bot, st), partial(self._hinted, st, seat))

    def _hinted(self, st: State, seat: int, answer: tuple[Any, Any]) -> list[Command]:
        """A hint for ``st``, shown unless the game moved on meanwhile."""
        action = answer[0]
        ctl = self._table.controller
        if ctl.state is not st:
            return []
        log.info("hint for %s: %s", seat_name(seat), self._table.game.action_to_json(action))
        return ctl.hinted(seat, action, self._clock.now())

    def _start_game(self, setup: Any, first: int, now: float) -> list[Command]:
        game = self._table.game
        header = game.header(setup, first)
        self._rolls.create(header)
        log.info("new game of %s: %s", game.title, game.header_text(header))
        self.make_bots(setup.seats)
        ctl = self._table.controller
        ctl.shell.played = setup  # (a rematch plays it again)
        commands = ctl.begin(header.initial_state(), setup.seats, now)
        self._displays.cue(Cue.START)
        return commands

    def _commit(self, action: Any) -> list[Command]:
        """Journal, apply and show one action (illegal ones are logged and dropped)."""
        ctl, game = self._table.controller, self._table.game
        state = ctl.state
        if state is None:
            log.warning("no game: dropped %s", action)
            return []
        try:
            new = state.apply(action)
        except IllegalActionError as exc:
            log.warning("ignored illegal %s: %s", game.action_to_json(action), exc)
            return []
        self._rolls.append(action)  # on disk before any other frame shows it
        self.actions += 1
        if log.isEnabledFor(logging.DEBUG):  # (the JSON is built only for the log)
            actor = state.actor(action)
            log.debug("%s: %s -> %r", "unit" if actor is None else seat_name(actor),
                      game.action_to_json(action), new)  # fmt: skip
        commands = ctl.committed(action, new, self._clock.now())
        if self._hal.buzzer is not None and (cue := game.cue(state, action, new)) is not None:
            self._displays.cue_after_frame(cue)
        for hook in self.on_commit:
            hook(action, new)
        if new.game_over:
            winners = game.result(new)
            log.info("game over: won by %s", ", ".join(map(seat_name, winners)) or "nobody")
            self._journal.archive()
        return commands

    def make_bots(self, kinds: Iterable[str]) -> None:
        """A bot for each seat of ``kinds`` that is not human (drawing from the unit's
        rng); answers still to come for the old ones are dropped."""
        kinds = tuple(kinds)
        game = self._table.game
        self._work.cancel()
        self._work.warm(game, kinds)
        make_bot = game.make_bot
        self.bots = {
            seat: make_bot(kind, seat, random.Random(self._rng.getrandbits(64)), kinds)
            for seat, kind in enumerate(kinds)
            if kind != HUMAN
        }
