"""The unit's UI state machine: input events + time + engine state -> commands and timers.

Pure apart from the clock values it is handed: no hardware, no dice, no disk. The
loop feeds it events (:meth:`Controller.handle`), fires its timers
(:meth:`Controller.tick` while :meth:`Controller.due`), executes the commands it
returns and reports every accepted action back (:meth:`Controller.committed`).
Views for the displays are built from its public attributes by :mod:`.views`.

Controls (docs/PLAYING.md, "Controls"): only the seat(s) that may act respond, every other press is
ignored; each accepted press commits at most one action, which changes the state.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum, StrEnum

from firmware.games.game import GameController
from firmware.games.switch16.setup import GAME_NAME, GameSetup, SetupMenu
from firmware.games.switch16.ui_state import OpenMenu, SetupShown, UiState
from firmware.kernel.players import HUMAN, answers_the_end
from firmware.kernel.seats import seat_name
from firmware.settings import Timing
from firmware.unit.commands import (
    AskBot,
    AskInterject,
    Command,
    Commit,
    RollDice,
    RollOff,
    StartGame,
)
from firmware.unit.controls import Do
from firmware.unit.rolloff import RollOffShow
from firmware.unit.shell import Shell
from firmware.unit.ui_state import Mode
from hal.events import (
    Button,
    ButtonDown,
    ButtonUp,
    Event,
    LongPress,
    RollRequested,
    ShakeStarted,
    ShakeStopped,
)

from . import controls
from .banners import RollShown, banners, turn_end
from .config import Switch16Timing
from .engine import (
    ACCEPT,
    DISCARD,
    Act,
    Action,
    NewRound,
    Phase,
    Place,
    State,
)
from .game_views import choices

log = logging.getLogger(__name__)

YES, NO, CHIP = Button.YES, Button.NO, Button.CHIP


class Timer(Enum):
    """The controller's timers: (log name, re-planned on every action, part of the turn's
    pace, rank among timers due at the same instant: lower fires first)."""

    DISCARD = ("discard", True, True, 5)
    REFUSAL = ("refusal", True, True, 5)
    BOT = ("bot", True, False, 5)
    BOT_ROLL = ("bot-roll", True, True, 5)
    ROLL = ("roll", True, True, 5)
    FRAME = ("frame", True, True, 5)
    #: a roll that ended its turn stays on the displays; the next turn's timers wait
    SHOWN = ("roll-shown", True, False, 5)
    #: the chip holder's bot may lay the chip before the discard or decision it pre-empts
    INTERJECT = ("interject", True, False, 0)
    AUTO = ("auto", True, False, 5)  #: bots-only match: start the next round by itself
    BANNER = ("banner", False, False, 1)
    ROLLOFF = ("rolloff", False, False, 5)

    def __init__(self, label: str, game: bool, pace: bool, rank: int) -> None:
        self.label = label
        #: depends on the position: cleared and re-planned on every action
        self.game = game
        #: the turn's pace: a chip laid that leaves the phase as it was keeps it running
        self.pace = pace
        self.rank = rank

    def __repr__(self) -> str:
        return f"<Timer {self.label}>"

    def order(self) -> tuple[int, str]:
        """Its (rank, name) among timers due at one instant (the shell's too)."""
        return self.rank, self.label


GAME_TIMERS = frozenset(t for t in Timer if t.game)
PACE_TIMERS = frozenset(t for t in Timer if t.pace)

BANNER_SECONDS = 2.0


@dataclass(slots=True)
class Tumble:
    """Dice being shaken for ``seat``: by the shaker (ends on ShakeStopped) or timed."""

    seat: int
    started: float
    shaker: bool
    frame: int = 0


@dataclass(slots=True)
class Menu:
    """A seat's open menu: ``highlight`` indexes :func:`firmware.screens.choices`."""

    placing: bool
    highlight: int = 0
    opened_at: float = 0.0


def deciding_seat(state: State) -> int | None:
    """The seat whose decision the game waits for, by the engine's ``current_player()``;
    None for chance, the end, and discards (the unit discards by itself once the
    blocking window closes)."""
    player = state.current_player()
    return player if player >= 0 and state.phase is not Phase.DISCARD else None


def waiting_seat(state: State) -> int | None:
    """The seat the table waits for: the roller in ``roll`` (it shakes), else
    :func:`deciding_seat` (its LED lights, its display is refreshed first)."""
    return state.turn if state.phase is Phase.ROLL else deciding_seat(state)


class Controller(GameController):
    """UI state of the whole unit; see the module docstring for the protocol."""

    def __init__(self, seats: int, timing: Timing, defaults: GameSetup, *,
                 preset: GameSetup | None = None, now: float = 0.0) -> None:  # fmt: skip
        self.seats = seats  #: displays on the unit
        self.timing = timing
        #: Switch 16's own delays (``[timing]`` keys the game declares).
        self.pace = timing.of(Switch16Timing)
        self.defaults = defaults
        self.preset = preset  #: skip the set-up menu with this set-up
        self.mode = Mode.SETUP
        self.menu = SetupMenu(defaults, seats)
        self.state: State | None = None
        self.kinds: tuple[str, ...] = ()
        self.timers: dict[Timer, float] = {}
        self.tumble: Tumble | None = None
        self.menus: dict[int, Menu] = {}  #: open menus (green/red choice, laying the chip)
        self.hints: set[int] = set()
        self.rolloff: RollOffShow | None = None
        #: The roll that just ended a turn, on every display until read (Timer.SHOWN).
        self.roll_shown: RollShown | None = None
        self.banners: dict[int, tuple[str, ...]] = {}
        #: Idle, screensaver, burn-in shift, messages, the end screen's reviews.
        self.shell = Shell(timing, now)
        self._down_at: dict[tuple[int, Button], float] = {}

    # ------------------------------------------------------------------ queries
    @property
    def finished(self) -> bool:
        """A game was played to its end (single game won, or points match decided)."""
        return self.mode is Mode.PLAY and self.state is not None and self.state.game_over

    def is_bot(self, seat: int) -> bool:
        return seat < len(self.kinds) and self.kinds[seat] != HUMAN

    def ui(self) -> UiState:
        """The UI state now, as one frozen value (what every display is drawn from)."""
        show, tumble = self.rolloff, self.tumble
        return UiState(
            mode=self.mode,
            state=self.state,
            kinds=self.kinds,
            menus=tuple(OpenMenu(s, m.placing, m.highlight) for s, m in sorted(self.menus.items())),
            banners=tuple(sorted(self.banners.items())),
            tumble=None if tumble is None else (tumble.seat, tumble.frame),
            hints=tuple(sorted(self.hints)),
            roll_shown=self.roll_shown,
            shell=self.shell.view(),
            setup=SetupShown.of(self.menu) if self.mode is Mode.SETUP else None,
            rolloff=None if show is None else show.shown_value(),
        )  # fmt: skip

    def next_deadline(self) -> float | None:
        return self.shell.next_deadline(self.timers.values())

    def due(self, now: float) -> bool:
        return self.shell.due(now, self.timers.values())

    # --------------------------------------------------------------- mode changes
    def start_setup(self, now: float) -> list[Command]:
        """Back to the set-up (or straight to the roll-off with a preset set-up)."""
        self._clear(GAME_TIMERS)
        self.mode = Mode.SETUP
        self.state = None
        self.kinds = ()
        self.tumble = None
        self.roll_shown = None
        self.menus.clear()
        self.banners.clear()
        if self.preset is not None:
            return [RollOff(self.preset)]
        self.menu = SetupMenu(self.menu.setup, self.seats)
        return []

    def show_rolloff(self, rounds: Sequence[dict[int, int]], first: int,
                     setup: GameSetup | None, now: float) -> None:  # fmt: skip
        """Show a roll-off (``setup`` None: the next round of a match)."""
        self.mode = Mode.ROLLOFF
        self._clear(GAME_TIMERS)
        self.rolloff = RollOffShow(tuple(rounds), first, setup)
        self.roll_shown = None
        self._set(Timer.ROLLOFF, now + self._rolloff_step())

    def begin(self, state: State, kinds: Sequence[str], now: float) -> list[Command]:
        """Play ``state`` (a new game or a resumed one) with these seat kinds."""
        self.mode = Mode.PLAY
        self.state = state
        self.kinds = tuple(kinds)
        self.rolloff = None
        self.tumble = None
        self.roll_shown = None
        self.menus.clear()
        self.banners.clear()
        self.shell.reviews = {}
        self.hints &= set(range(state.players))
        self._open_phase_menu()
        self._plan(now)
        return []

    # ------------------------------------------------------------------- input
    def handle(self, event: Event, now: float) -> list[Command]:
        """React to one input event (the shell's part first)."""
        if isinstance(event, ButtonDown):
            self._down_at[event.seat, event.button] = now
        if self.shell.takes(event, now):
            return []
        if isinstance(event, ButtonDown):
            return self._button(event.seat, event.button, now)
        if isinstance(event, ButtonUp):
            return []
        if isinstance(event, LongPress):
            return self._long_press(event, now)
        if isinstance(event, ShakeStarted):
            self._end_roll_shown(now)
            return self._shake_started(now)
        if isinstance(event, ShakeStopped):
            return self._shake_stopped(event)
        if isinstance(event, RollRequested):
            self._end_roll_shown(now)
            st = self.state
            if st is None or self.mode is not Mode.PLAY or st.phase is not Phase.ROLL:
                return []
            seat = st.turn if event.seat is None else event.seat
            if seat == st.turn and self.is_human(seat):
                return self._start_timed_roll(now)
            return []
        log.debug("ignored event %r", event)
        return []

    def _button(self, seat: int, button: Button, now: float) -> list[Command]:
        if self._end_roll_shown(now):
            self.shell.swallow(seat, button)
            return []  # the press that says "read" does nothing else
        if self.mode is Mode.SETUP:
            return self.menu.press(button, GAME_NAME)
        if self.mode is Mode.ROLLOFF or self.state is None:
            return []
        return self._play_button(seat, button, now)

    def _play_button(self, seat: int, button: Button, now: float) -> list[Command]:
        st = self.state
        assert st is not None
        if st.phase is Phase.OVER:  # a round's end (the end screen is the unit's)
            go_on = controls.does(controls.row(st, seat), button) is Do.GO_ON
            if go_on and st.round_pending and answers_the_end(self.kinds, seat):
                return [RollOff(None)]
            return []
        if not self.is_human(seat):
            return []
        menu = self.menus.get(seat)
        if menu is not None:
            return self._menu_button(seat, menu, button)
        does = controls.does(controls.row(st, seat), button)
        if does is Do.ROLL:
            return self._start_timed_roll(now) if self.tumble is None else []
        if does is Do.BLOCK:
            return [Commit(Place(seat, st.turn))] if st.may(seat, Act.PLACE) else []
        if does is Do.LAY:
            if st.may(seat, Act.PLACE):
                self.menus[seat] = Menu(placing=True, opened_at=now)
            return []
        return [Commit(does)] if does is not None and not isinstance(does, StrEnum) else []

    def _menu_button(self, seat: int, menu: Menu, button: Button) -> list[Command]:
        st = self.state
        assert st is not None
        options = choices(st, seat, menu.placing)
        if not options:  # stale: the position moved on
            del self.menus[seat]
            return []
        does = controls.does(controls.row(st, seat, menu.placing), button)
        if does in (Do.NEXT, Do.PREV):
            step = 1 if does is Do.NEXT else -1
            menu.highlight = (menu.highlight + step) % len(options)
            return []
        action = options[menu.highlight % len(options)][1] if does is Do.OK else None
        if menu.placing and does in (Do.OK, Do.CANCEL):
            del self.menus[seat]
        return [Commit(action)] if action is not None else []

    def _long_press(self, event: LongPress, now: float) -> list[Command]:
        seat, button = event.seat, event.button
        if button is not CHIP:
            return []
        if self.mode is not Mode.PLAY or not self.is_human(seat):
            return []
        if seat in self.hints:
            self.hints.discard(seat)
        else:
            self.hints.add(seat)
        menu = self.menus.get(seat)
        down = self._down_at.get((seat, button))
        if menu is not None and menu.placing and down is not None and menu.opened_at == down:
            del self.menus[seat]  # the press that opened it was this long press
        return []

    def _shake_started(self, now: float) -> list[Command]:
        st = self.state
        if self.mode is not Mode.PLAY or st is None or st.phase is not Phase.ROLL:
            return []
        if self.tumble is not None or not self.is_human(st.turn):
            return []
        self.tumble = Tumble(st.turn, now, shaker=True)
        self._set(Timer.FRAME, now + self.pace.tumble_frame)
        return []

    def _shake_stopped(self, event: ShakeStopped) -> list[Command]:
        tumble = self.tumble
        if tumble is None or not tumble.shaker:
            return []
        log.debug("shake stopped after %.2f s (%d edges%s)", event.duration, event.edges,
                  ", capped" if event.capped else "")  # fmt: skip
        return [RollDice(tumble.seat)]

    def _start_timed_roll(self, now: float) -> list[Command]:
        st = self.state
        assert st is not None
        self.tumble = Tumble(st.turn, now, shaker=False)
        self._set(Timer.ROLL, now + self.pace.tumble)
        self._set(Timer.FRAME, now + self.pace.tumble_frame)
        return []

    # ------------------------------------------------------------------ timers
    def tick(self, now: float) -> list[Command]:
        """Fire the earliest due timer, the shell's or the game's (call while :meth:`due`)."""
        timer = self.shell.take_due(now, self.timers, self.mode is Mode.PLAY, Timer.order)
        return [] if timer is None else self._fire(timer, now)

    def _fire(self, timer: Timer, now: float) -> list[Command]:
        st = self.state
        if timer is Timer.DISCARD:
            return [Commit(DISCARD)]
        if timer is Timer.REFUSAL:
            if st is not None and st.target is not None:
                log.info("no answer to the green switch: %s accepts", seat_name(st.target))
            return [Commit(ACCEPT)]
        if timer is Timer.BOT and st is not None:
            seat = deciding_seat(st)
            return [AskBot(seat)] if seat is not None else []
        if timer is Timer.INTERJECT and st is not None and st.chip_holder is not None:
            return [AskInterject(st.chip_holder)]
        if timer is Timer.BOT_ROLL and st is not None and st.phase is Phase.ROLL:
            return self._start_timed_roll(now)
        if timer is Timer.ROLL and self.tumble is not None:
            return [RollDice(self.tumble.seat)]
        if timer is Timer.SHOWN:
            self._end_roll_shown(now)
        elif timer is Timer.FRAME and self.tumble is not None:
            self.tumble.frame += 1
            self._set(Timer.FRAME, now + self.pace.tumble_frame)
        elif timer is Timer.AUTO and st is not None and st.round_pending:
            return [RollOff(None)]
        elif timer is Timer.BANNER:
            self.banners.clear()
        elif timer is Timer.ROLLOFF:
            return self._rolloff_next(now)
        return []

    def _rolloff_step(self) -> float:
        show = self.rolloff
        assert show is not None
        return show.seconds(self.timing)

    def _rolloff_next(self, now: float) -> list[Command]:
        show = self.rolloff
        if show is None:
            return []
        if show.advance():
            self._set(Timer.ROLLOFF, now + self._rolloff_step())
            return []
        if show.setup is None:
            return [Commit(NewRound(show.first))]
        return [StartGame(show.setup, show.first)]

    # ---------------------------------------------------------------- actions
    def hinted(self, seat: int, action: Action, now: float) -> list[Command]:
        """Never asked for: Switch 16's held CHIP shows the odds, not a bot's hint."""
        return []

    def committed(self, action: Action, state: State, now: float) -> list[Command]:
        """An action was journaled and applied: move to ``state`` and re-plan the timers."""
        old = self.state
        self.state = state
        self.mode = Mode.PLAY
        self.rolloff = None
        if old is not None:
            self._announce(old, action, state, now)
        if state.game_over:
            self.shell.ask_reviews([s for s in range(state.players) if self.is_human(s)])
        same_pace = (
            type(action) is Place
            and old is not None
            and old.phase is state.phase
            and old.turn == state.turn
        )
        if not same_pace:
            self.tumble = None
            self.menus = {s: m for s, m in self.menus.items() if m.placing}
        for seat in [s for s, m in self.menus.items() if m.placing and not state.may(s, Act.PLACE)]:
            del self.menus[seat]
        if state.phase is Phase.DISCARD and state.chip_holder is not None:
            menu = self.menus.get(state.chip_holder)
            if menu is not None and menu.placing:
                del self.menus[state.chip_holder]  # CHIP blocks the discarding seat now
        self._open_phase_menu()
        show = self.pace.roll_show > 0 and old is not None
        self.roll_shown = turn_end(old, action, state) if show and old is not None else None
        if self.roll_shown is None:
            self._plan(now, keep_pace=same_pace)
        else:  # the next turn's timers and the banners wait until the roll was read
            self._clear(GAME_TIMERS | {Timer.BANNER})
            self._set(Timer.SHOWN, now + self.pace.roll_show)
        return []

    def _end_roll_shown(self, now: float) -> bool:
        """Stop showing the roll that ended a turn (read, or its time is up): the next
        turn's timers and the banners start now. False when none was shown."""
        if self.roll_shown is None:
            return False
        self.roll_shown = None
        self._clear({Timer.SHOWN})
        self._plan(now)
        if self.banners:
            self._set(Timer.BANNER, now + BANNER_SECONDS)
        return True

    def _plan(self, now: float, keep_pace: bool = False) -> None:
        """(Re)plan the game timers for the current position."""
        self._clear(GAME_TIMERS - PACE_TIMERS if keep_pace else GAME_TIMERS)
        st = self.state
        if st is None:
            return
        t, pace = self.timing, self.pace
        humans = any(self.is_human(s) for s in range(st.players))
        if st.phase is Phase.OVER:
            if st.round_pending and not humans:
                self._set(Timer.AUTO, now + max(t.rolloff_show, t.bot_thinking))
            return
        phase = st.phase
        if not keep_pace:
            if phase is Phase.ROLL:
                if self.is_bot(st.turn):
                    self._set(Timer.BOT_ROLL, now + t.bot_thinking)
            elif phase is Phase.DISCARD:
                self._set(Timer.DISCARD, now + pace.discard_window)
            elif phase is Phase.GREEN_REFUSAL and self.is_human(st.current_player()):
                self._set(Timer.REFUSAL, now + pace.refusal_window)
        actor = deciding_seat(st)
        if actor is not None and self.is_bot(actor):
            self._set(Timer.BOT, now + t.bot_thinking)
        holder = st.chip_holder
        if holder is not None and self.is_bot(holder) and st.may(holder, Act.PLACE):
            if phase is Phase.DISCARD:
                if holder != st.turn:
                    due = self.timers.get(Timer.DISCARD, now + pace.discard_window)
                    self._set(Timer.INTERJECT, now + (due - now) / 2)
            elif holder != actor:
                self._set(Timer.INTERJECT, now + t.bot_thinking / 2)

    def _announce(self, old: State, action: Action, new: State, now: float) -> None:
        """Per-seat banners for what just happened (a switch, a penalty, a block…); each
        action replaces the previous banners."""
        self.banners = banners(old, action, new)
        if self.banners:
            self._set(Timer.BANNER, now + BANNER_SECONDS)
        else:
            self._clear({Timer.BANNER})

    def _open_phase_menu(self) -> None:
        """Green / red: the roller (if human) gets the menu of targets."""
        st = self.state
        if st is None or st.phase not in (Phase.GREEN, Phase.RED):
            return
        seat = st.turn
        if self.is_human(seat) and seat not in self.menus:
            self.menus[seat] = Menu(placing=False)

    # ------------------------------------------------------------------ helpers
    def _set(self, timer: Timer, at: float) -> None:
        self.timers[timer] = at

    def _clear(self, timers: frozenset[Timer] | set[Timer]) -> None:
        for timer in timers:
            self.timers.pop(timer, None)
