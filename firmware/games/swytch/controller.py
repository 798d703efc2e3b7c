"""Swytch's UI state machine on the unit: input events + time + the game -> commands.

Pure apart from the clock values it is handed, like Switch 16's
(:mod:`firmware.games.switch16.controller`): the loop rolls the roll-off's dice, asks the bots
(and the searching bot for a hint), journals and applies the actions. Here:

- the set-up (:class:`~.setup.SwytchSetupMenu`), any seat answers it;
- who starts: the roll-off (:mod:`firmware.unit.rolloff`, Switch 16's; a shake rolls its
  next round at once); in a rematch the loser of the last game starts (a drawn game
  rolls off again: :meth:`~firmware.games.swytch.game.Swytch.rematch_starter`);
- the player on turn chooses with its :class:`~.picker.Picker` through the controls table
  (:mod:`.controls`); held CHIP asks for a hint (:class:`~firmware.unit.commands.AskHint`,
  answered by :meth:`SwytchController.hinted`);
- the opponent's last turn is shown on the seat's board for :data:`LAST_TURN_PACE` or
  until its first press (that press does nothing else, also when it comes within
  :data:`READ_GRACE` after the time took the last turn off: the player pressed at what
  it read); its cells stay marked until the seat acts; a bot's move waits
  ``bot_thinking``;
- the end screen's short review of each human side's play
  (:meth:`~firmware.games.swytch.game.Swytch.review`, worked out beside the loop);
- idle dimming, the screensaver, the burn-in shift, messages and the end screen's keys
  (YES a rematch, NO a new game): the unit's (:mod:`firmware.unit.shell`,
  :mod:`firmware.unit.end_screen`).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from enum import Enum
from typing import Any

from firmware.games.game import GameController
from firmware.settings import Timing
from firmware.unit.commands import (
    AskBot,
    AskHint,
    Command,
    Commit,
    RollOff,
    StartGame,
)
from firmware.unit.rolloff import RollOffShow
from firmware.unit.shell import Shell
from firmware.unit.ui_state import Mode
from hal.events import Button, ButtonDown, Event, LongPress, ShakeStopped

from . import controls
from .actions import Action, Move
from .picker import Picker
from .screens.build import last_turn, looks_at
from .screens.render import follow
from .screens.views import LastTurn
from .seat_views import board_of
from .setup import NAME, SwytchSetup, SwytchSetupMenu
from .state import State
from .ui_state import SwytchUi

log = logging.getLogger(__name__)

#: The opponent's last turn stays on a seat's board this many ``bot_thinking``s (at
#: least a second), unless the seat presses a button first.
LAST_TURN_PACE = 3.0

#: A press this soon after the time took the last turn off the seat's board still only
#: reads it: no one reacts to a screen faster, so the player pressed at the last turn it
#: read, and the screen changing under its finger must not make the press mean more
#: (a cursor step, a stack chosen), as browsers guard a prompt that has just appeared.
READ_GRACE = 0.5


class Timer(Enum):
    """The controller's timers (log name)."""

    ROLLOFF = "rolloff"
    BOT = "bot"
    LAST = "last-turn"
    READ = "read-grace"  #: the end of :data:`READ_GRACE`


class SwytchController(GameController):
    """Swytch's :class:`~firmware.games.game.GameController`; see the module docstring."""

    def __init__(self, seats: int, timing: Timing, defaults: SwytchSetup, *,
                 preset: SwytchSetup | None = None, now: float = 0.0) -> None:  # fmt: skip
        self.seats = seats  #: displays on the unit
        self.timing = timing
        self.defaults = defaults
        self.preset = preset
        self.mode = Mode.SETUP
        self.menu = SwytchSetupMenu(defaults)
        self.state: State | None = None
        self.kinds: tuple[str, ...] = ()
        self.picker: Picker | None = None
        self.last: LastTurn | None = None
        self.last_for: int | None = None
        #: (seat, until when) a press still only reads the last turn the time took off
        self._read_late: tuple[int, float] | None = None
        self.rolloff: RollOffShow | None = None
        #: Idle, screensaver, burn-in shift, messages, the end screen's reviews.
        self.shell = Shell(timing, now)
        self.timers: dict[Timer, float] = {}
        #: per seat: where its last action left its stack (its next picker starts there)
        self._moved: dict[int, Any] = {}
        #: the last press on the picker: (seat, button, the picker before it), undone
        #: when the press turns into a hold (:data:`.controls.HOLD`)
        self._pressed: tuple[int, Button, Picker] | None = None
        #: per player: its zoom window's corner, following what its board looks at
        self.corners: dict[int, tuple[int, int]] = {}

    # ------------------------------------------------------------------ queries
    @property
    def finished(self) -> bool:
        return self.mode is Mode.PLAY and self.state is not None and self.state.game_over

    def ui(self) -> SwytchUi:
        playing = self.mode is Mode.PLAY
        return SwytchUi(
            mode=self.mode, state=self.state, kinds=self.kinds,
            picker=self.picker if playing else None,
            last=self.last, last_for=self.last_for, shell=self.shell.view(),
            question=self.menu.question if self.mode is Mode.SETUP else None,
            question_index=self.menu.index,
            rolloff=None if self.rolloff is None else self.rolloff.shown_value(),
            setup=self.menu.setup if self.mode is Mode.SETUP else None,
            corners=tuple(sorted(self.corners.items())),
        )  # fmt: skip

    def next_deadline(self) -> float | None:
        return self.shell.next_deadline(self.timers.values())

    def due(self, now: float) -> bool:
        return self.shell.due(now, self.timers.values())

    # --------------------------------------------------------------- mode changes
    def start_setup(self, now: float) -> list[Command]:
        self._clear_game()
        self.mode = Mode.SETUP
        self.state, self.kinds = None, ()
        if self.preset is not None:
            return [RollOff(self.preset)]
        self.menu = SwytchSetupMenu(self.menu.setup)
        return []

    def show_rolloff(self, rounds: Sequence[dict[int, int]], first: int, setup: Any,
                     now: float) -> None:  # fmt: skip
        self._clear_game()
        self.mode = Mode.ROLLOFF
        self.rolloff = RollOffShow(tuple(rounds), first, setup)
        self.timers[Timer.ROLLOFF] = now + self.rolloff.seconds(self.timing)

    def begin(self, state: State, kinds: Sequence[str], now: float) -> list[Command]:
        self._clear_game()
        self.mode = Mode.PLAY
        self.state, self.kinds = state, tuple(kinds)
        self.rolloff = None
        self._moved = {}
        self.shell.reviews = {}
        self._plan(now)
        self._follow()
        return []

    # ------------------------------------------------------------------- input
    def handle(self, event: Event, now: float) -> list[Command]:
        commands = self._handle(event, now)
        self._follow()
        return commands

    def _handle(self, event: Event, now: float) -> list[Command]:
        if self.shell.takes(event, now):
            return []
        if isinstance(event, ButtonDown):
            return self._button(event.seat, event.button, now)
        if isinstance(event, LongPress):
            return self._long_press(event.seat, event.button, now)
        if isinstance(event, ShakeStopped) and self.rolloff is not None:
            self.timers[Timer.ROLLOFF] = now  # the shaker rolls the next round at once
        return []

    def _button(self, seat: int, button: Button, now: float) -> list[Command]:
        if self.mode is Mode.SETUP:
            return self.menu.press(button, NAME)
        st = self.state
        if self.mode is not Mode.PLAY or st is None:
            return []
        if st.game_over:  # (the unit's end screen answers: never handed here)
            return []
        if self._reads(seat, now):  # read: this press only takes the last turn off
            self._end_last()
            return []
        if seat != st.to_move or self.picker is None:
            return []
        self._pressed = (seat, button, self.picker)
        self.picker = controls.press(self.picker, button)
        chosen = self.picker.chosen
        return [Commit(chosen)] if chosen is not None else []

    def _long_press(self, seat: int, button: Button, now: float) -> list[Command]:
        st = self.state
        if self.mode is not Mode.PLAY or st is None or st.game_over or self.picker is None:
            return []
        if seat != st.to_move or self._reads(seat, now):
            return []
        pressed, self._pressed = self._pressed, None
        if pressed is not None and pressed[:2] == (seat, button):
            held = controls.hold(pressed[2], button)  # instead of the press it began with
            if held != pressed[2]:
                self.picker = held
        else:
            self.picker = controls.hold(self.picker, button)
        return [AskHint(seat)] if self.picker.hint_requested else []

    def hinted(self, seat: int, action: Action, now: float) -> list[Command]:
        """The searching bot's hint for ``seat``: its picker shows it, YES takes it."""
        st = self.state
        picker = self.picker
        if picker is not None and picker.hint_requested and st is not None and st.to_move == seat:
            self.picker = picker.hinted(action)  # (a hint given up with NO meanwhile: dropped)
            self._follow()
        return []

    # ------------------------------------------------------------------ timers
    def tick(self, now: float) -> list[Command]:
        commands = self._tick(now)
        self._follow()
        return commands

    def _tick(self, now: float) -> list[Command]:
        timer = self.shell.take_due(now, self.timers, self.mode is Mode.PLAY)
        st = self.state
        if timer is Timer.ROLLOFF and self.rolloff is not None:
            show = self.rolloff
            if show.advance():
                self.timers[Timer.ROLLOFF] = now + show.seconds(self.timing)
                return []
            return [StartGame(show.setup, show.first)]
        if timer is Timer.BOT and st is not None and not st.game_over:
            return [AskBot(st.to_move)]
        if timer is Timer.LAST and self.last_for is not None:
            self._read_late = (self.last_for, now + READ_GRACE)
            self.timers[Timer.READ] = now + READ_GRACE
            self.last_for = None
        if timer is Timer.READ:
            self._read_late = None  # a press from now on acts
        return []

    # ---------------------------------------------------------------- actions
    def committed(self, action: Action, state: State, now: float) -> list[Command]:
        """``action`` was journaled and applied: show it to the other seat, plan the next."""
        old = self.state
        self.mode = Mode.PLAY
        self.state = state
        if old is not None and not state.game_over:
            self.last, self.last_for = last_turn(old, action), state.to_move
            moved = action.destination if isinstance(action, Move) else action.cell
            self._moved[old.to_move] = moved
        else:
            self.last = self.last_for = None
        if state.game_over:
            self.shell.ask_reviews([s for s in range(2) if self.is_human(s)])
        self._plan(now)
        self._follow()
        return []

    def _plan(self, now: float) -> None:
        """The picker and the timers of the position now."""
        for timer in (Timer.BOT, Timer.LAST, Timer.READ):
            self.timers.pop(timer, None)
        st = self.state
        self.picker, self._pressed, self._read_late = None, None, None
        if st is None or st.game_over:
            self.last = self.last_for = None
            return
        seat = st.to_move
        if self.is_human(seat):
            self.picker = Picker.new(st, seat, near=self._moved.get(seat))
        else:
            self.timers[Timer.BOT] = now + self.timing.bot_thinking
        if self.last_for is not None:
            self.timers[Timer.LAST] = now + max(1.0, LAST_TURN_PACE * self.timing.bot_thinking)

    def _follow(self) -> None:
        """Each player's zoom window follows what its board looks at now
        (:func:`.screens.render.follow`): a cursor stepping inside it, a move made or
        shown inside it, pans nothing."""
        st = self.state
        if self.mode is not Mode.PLAY or st is None or st.game_over:
            return
        for seat in range(min(st.players, self.seats)):
            looks = looks_at(st, seat, *board_of(st, seat, self.picker, self.last, self.last_for))
            self.corners[seat] = follow(st.board, seat, self.corners.get(seat), *looks)

    def _reads(self, seat: int, now: float) -> bool:
        """Whether ``seat``'s press now only reads the last turn: it is shown, or the time
        took it off less than :data:`READ_GRACE` ago."""
        late = self._read_late
        return self.last_for == seat or (late is not None and late[0] == seat and now < late[1])

    def _end_last(self) -> None:
        """The seat has read the last turn: its cells stay marked until the seat acts."""
        self.last_for = self._read_late = None
        self.timers.pop(Timer.LAST, None)
        self.timers.pop(Timer.READ, None)

    def _clear_game(self) -> None:
        for timer in (Timer.ROLLOFF, Timer.BOT, Timer.LAST, Timer.READ):
            self.timers.pop(timer, None)
        self.picker, self._read_late = None, None
        self.last = self.last_for = None
        self.rolloff = None
        self.corners = {}
