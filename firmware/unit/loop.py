"""The unit's game loop: one thread, HAL events on a queue, timers from the clock.

:class:`Unit` owns the HAL, the journal, the bots and the dice rng, and drives a
:class:`~firmware.games.switch16.controller.Controller`. Every accepted action goes
journal (append, sync started) -> engine state -> sound cue (:mod:`.sounds`) -> screens
(rendered while the sync runs, sent once it is done), in that order. Displays are
refreshed most urgent first: the seat whose button was pressed, then the seat the
game waits for, then the rest; between two displays the loop goes back to its queue
when a new event waits (:attr:`Unit.refresh_pending`), so a press never queues behind
three other panels.

Real time (the unit)::

    settings = load_unit_config(None)
    with load_backend(None, settings.hardware) as hal:
        Unit.from_settings(hal, settings.game, seed=None).run()   # blocks until stop()

Virtual time (tests, headless simulations; ``hal.clock`` is a VirtualClock)::

    unit = Unit(hal, state_dir, setup=GameSetup.of(["expert", "easy"]), rng=Random(1))
    unit.start()
    unit.run_until(lambda: unit.finished, max_seconds=3600)

A frame-driven host (the pygame simulator) calls :meth:`Unit.step` once per frame
with any clock: it handles what is due and never blocks.

The loop itself is here; :class:`Unit` is composed of parts named for their jobs, each
owning its state behind a typed interface (they see the unit only as a
:class:`~.table.Table`: the game played and its controller): :mod:`.execute` (the
controller's commands carried out, the bots), :mod:`.refresh` (frames, LEDs, display
retries, cues), :mod:`.rolls` (forced rolls, roll-offs journaled ahead),
:mod:`.reviews` (end-of-game reviews) and :mod:`.thinking` (slow work beside the loop).
"""

from __future__ import annotations

import functools
import logging
import os
import random
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from firmware.games.game import Game, GameController
from firmware.games.game import GameState as State
from firmware.games.game_ui import GameUi
from firmware.games.registry import DEFAULT_GAME, get_game
from firmware.screens import SeatView
from firmware.settings import Timing
from hal.clock import VirtualClock
from hal.events import ButtonDown, Event, LongPress
from hal.interfaces import Hal

from .collector import Collector
from .commands import NewGame
from .end_screen import respond
from .execute import CommandExecution
from .journal import Journal, resolve_state_dir
from .lookahead import Drawn, Lookahead, copy_to_guess_on
from .refresh import NOT_SAVED as NOT_SAVED  # where tests and tools import it from
from .refresh import DisplayRefresh
from .reviews import Reviews
from .rolls import Rolls
from .service import ServiceNotifier
from .setup import saved_kinds
from .thinking import Answered, SlowWork, default_worker

if TYPE_CHECKING:
    from firmware.settings import GameSettings
    from firmware.worker import WorkerFactory

log = logging.getLogger(__name__)

#: Trying the journal again while it cannot save the game (or read the saved one).
JOURNAL_RETRY_S = 1.0
#: The loop collects garbage (:class:`Collector`) only before a wait at least this long.
IDLE_MIN_S = 0.05
#: A screen the game changes within this (an animation's frame: a controller's timer)
#: has only the waiting seat's presses drawn ahead, and only their own frames.
AHEAD_MIN_S = 0.2


@dataclass(frozen=True, slots=True)
class StopRequested(Event):
    """Put on the HAL queue by :meth:`Unit.stop` to wake a blocked loop."""


class Extension(Protocol):
    """Something else the loop serves on its thread (the serial link): it sees every
    event first, and its deadlines wake the loop. Add it to :attr:`Unit.extensions`."""

    def dispatch(self, event: Event) -> bool:
        """Handle ``event`` if it is this extension's (True), else leave it (False)."""
        ...

    def next_deadline(self) -> float | None: ...

    def poll(self, now: float) -> None:
        """Do what is due at ``now`` (called after the displays got their frames, so
        the actions they show are on disk: :meth:`~.refresh.DisplayRefresh.saved`)."""
        ...


class Unit:
    """The game unit over any :class:`~hal.interfaces.Hal` backend and clock: the loop,
    and the parts it is composed of (:attr:`execution`, :attr:`displays`, :attr:`rolls`,
    :attr:`reviews`, :attr:`work`)."""

    def __init__(
        self,
        hal: Hal,
        state_dir: str | os.PathLike[str],
        *,
        timing: Timing | None = None,
        defaults: Any = None,
        setup: Any = None,
        rng: random.Random | None = None,
        durable: bool = True,
        render: Callable[[SeatView], Any] | None = None,
        service: ServiceNotifier | None = None,
        collector: Collector | None = None,
        lookahead: Lookahead | None = None,
        game: str = DEFAULT_GAME,
        worker: WorkerFactory | None = None,
    ) -> None:
        """``setup`` skips the set-up menu (tests, simulator demos); ``defaults`` preselects
        it; ``game`` names the registered game (:mod:`firmware.games.registry`) the unit
        starts with, whose set-ups they are. ``render`` replaces the games' own renderers.
        ``rng`` draws every die (default ``random.SystemRandom()``); ``durable=False``
        skips fsync (benchmarks only); ``service`` tells systemd READY and pings its
        watchdog (default: from the environment, inert outside systemd); ``collector``
        keeps Python's garbage collector off the press path (``switch16 run``; the
        collector is process-wide, so tests and hosts of several units leave it);
        ``lookahead`` draws the likely next frames while idle (``switch16 run``);
        ``worker`` starts the process slow work goes to (default: one on a real clock,
        none on a virtual clock; :mod:`.thinking`)."""
        self.hal = hal
        self.clock = hal.clock
        self.rng: random.Random = rng if rng is not None else random.SystemRandom()
        self.journal = Journal(state_dir, durable=durable)
        self.timing = timing or Timing()
        self.game: Game = get_game(game)
        #: Each game's set-up defaults, kept while another game is played.
        self._defaults: dict[str, Any] = {game: defaults} if defaults is not None else {}
        factory = worker if worker is not None else default_worker(self.clock)
        #: Slow work beside the loop (a bot's move, a hint, a review).
        self.work = SlowWork(hal.events, self.clock, factory)
        #: The end-of-game reviews the controllers ask for.
        self.reviews = Reviews(self, self.journal, self.work)
        self.controller = self._controller_for(self.game, setup)
        #: Frames, LEDs, display retries and sound cues.
        self.displays = DisplayRefresh(hal, self.journal, self, render)
        #: The dice, roll-offs and what of them is journaled ahead.
        self.rolls = Rolls(self.rng, self.journal)
        #: The controller's commands carried out; the bots.
        self.execution = CommandExecution(self, hal=hal, journal=self.journal, rng=self.rng,
                                          rolls=self.rolls, work=self.work,
                                          displays=self.displays)  # fmt: skip
        self.extensions: list[Extension] = []
        self._stop = False
        self._started = False
        self.service = service if service is not None else ServiceNotifier()
        self._next_ping: float | None = None
        self.collector = collector
        self.lookahead = lookahead
        self.work.frames_from, self.work.take_drawn = self._frames_from, self._take_drawn
        #: The UI state the worker's last drawing ahead was given; what it drew, until
        #: the move it came with is made.
        self._drawn_from: GameUi | None = None
        self._drawn: Drawn | None = None
        #: When to try the journal again (it cannot save or read now), else None.
        self._journal_retry: float | None = None
        self._unreadable = False  #: the saved game cannot be read yet: wait for it
        #: Button presses the loop has taken (the link reports them: a rig knows when
        #: the press it sent has been handled, and reads the screen it left).
        self.presses = 0

    def _controller_for(self, game: Game, preset: Any = None) -> GameController:
        """``game``'s UI controller for this unit's displays."""
        seats = len(self.hal.seats)
        defaults = self.setup_defaults(game.name)
        ctl = game.controller(seats, self.timing, defaults, preset=preset, now=self.clock.now())
        ctl.shell.reviewer = self.reviews.reviewer(game)
        return ctl

    def setup_defaults(self, name: str) -> Any:
        """The set-up game ``name``'s menu starts from on this unit (the config's, or the
        game's own defaults for its displays)."""
        return self._defaults.get(name) or get_game(name).default_setup(len(self.hal.seats))

    def use_game(self, name: str) -> None:
        """Play game ``name`` from now on: its controller and views take over the displays."""
        if name != self.game.name:
            self.game = get_game(name)
            self.controller = self._controller_for(self.game)
            self.displays.use_game(self.game)

    @classmethod
    def from_settings(
        cls,
        hal: Hal,
        settings: GameSettings,
        *,
        state_dir: str | os.PathLike[str] | None = None,
        seed: int | None = None,
        **kwargs: Any,
    ) -> Unit:
        """A unit with the config's timing, set-up defaults (the options of the game it
        starts with, ``game`` in ``kwargs``, that its own config sections set) and state
        directory."""
        game = get_game(kwargs.get("game", DEFAULT_GAME))
        values = settings.options.get(game.name, {})
        kwargs["defaults"] = game.with_options(game.default_setup(len(hal.seats)), values)
        rng = random.Random(seed) if seed is not None else random.SystemRandom()
        return cls(
            hal,
            resolve_state_dir(state_dir, settings.state_dir),
            timing=settings.timing,
            rng=rng,
            **kwargs,
        )

    # ------------------------------------------------------------------ queries
    @property
    def state(self) -> State | None:
        return self.controller.state

    @property
    def actions(self) -> int:
        """Actions committed since start()."""
        return self.execution.actions

    @actions.setter
    def actions(self, count: int) -> None:
        self.execution.actions = count

    @property
    def on_commit(self) -> list[Callable[[Any, State], None]]:
        """Called with (action, new state) for every action committed."""
        return self.execution.on_commit

    @property
    def bots(self) -> dict[int, Any]:
        """The bots playing, by seat."""
        return self.execution.bots

    @property
    def frames(self) -> int:
        """Frames sent to displays."""
        return self.displays.frames

    @property
    def on_frame(self) -> list[Callable[[int, Any], None]]:
        """Called with (seat, image) for every frame sent to a display."""
        return self.displays.on_frame

    @property
    def refresh_pending(self) -> bool:
        """A refresh gave way to a new event: some displays still wait for their frame."""
        return self.displays.refresh_pending

    def saved(self) -> bool:
        """Every journaled action is on disk (:meth:`.refresh.DisplayRefresh.saved`)."""
        return self.displays.saved()

    @property
    def forced_rolls(self) -> deque[Any]:
        """Rolls to use, in order, instead of drawing dice (test mode of the link)."""
        return self.rolls.forced_rolls

    @property
    def forced_first(self) -> int | None:
        """The next roll-off's winner instead of drawing it (test mode of the link)."""
        return self.rolls.forced_first

    @forced_first.setter
    def forced_first(self, seat: int | None) -> None:
        self.rolls.forced_first = seat

    @property
    def round_ahead(self) -> bool:
        """The next round's start is journaled while its roll-off shows, the state still
        the last round's: the transcript is one line ahead of the displays."""
        return self.rolls.round_ahead and self.controller.state is not None

    @property
    def thinking(self) -> bool:
        """The worker is working something out for the unit (:attr:`work`)."""
        return self.work.thinking

    @property
    def finished(self) -> bool:
        """The game (or points match) was played to its end."""
        return self.controller.finished

    def next_deadline(self) -> float | None:
        times = [self.controller.next_deadline(), self.hal.next_deadline()]
        times += self.displays.retry_times()
        times += [self._next_ping, self._journal_retry]
        if self.refresh_pending:
            times.append(self.clock.now())
        times += [ext.next_deadline() for ext in self.extensions]
        due = [t for t in times if t is not None]
        return min(due) if due else None

    # ---------------------------------------------------------------- lifecycle
    def start(self) -> None:
        """Resume the journaled game, or start the set-up; draw every display."""
        if self._started:
            return
        self._started = True
        now = self.clock.now()
        self._recover(now)
        self._plan_journal_retry(now)
        self.displays.refresh()
        self._ready(now)

    def _recover(self, now: float) -> None:
        """Resume what the journal holds, or start the set-up; while the journal cannot
        be read, say why and wait (:meth:`step` calls this again every second)."""
        found = self.journal.recover(len(self.hal.seats))
        shell = self.controller.shell
        if self._unreadable and found.unreadable is None:
            shell.clear_message()  # its "retrying" is over
        self._unreadable = found.unreadable is not None
        if found.unreadable is not None:
            shell.show_message(("SAVED GAME", "cannot be read:", found.unreadable[:18],
                                "retrying"), now)  # fmt: skip
            return
        where = found.moved_to.name if found.moved_to is not None else "?"
        if found.unresumable is not None:
            if found.moved_to is not None and found.moved_to.parent == self.journal.games:
                where = f"{self.journal.games.name}/{found.moved_to.stem}"
            shell.show_message(("CANNOT RESUME", f"{found.unresumable.players}-player game,",
                                f"unit has {len(self.hal.seats)} seats", f"kept: {where}"),
                               now, until_press=True)  # fmt: skip
        elif found.problem is not None:
            shell.show_message(("JOURNAL DAMAGED", "saved aside as", where, "new game"), now,
                               until_press=True)  # fmt: skip
        header, state = found.header, found.state
        if header is not None and state is not None:
            self.use_game(header.game)
            kinds = saved_kinds(header, self.game.levels)
            log.info("resumed: %d players (%s), %s, %r", header.players, ", ".join(kinds),
                     self.game.header_text(header), state)  # fmt: skip
            self.execution.make_bots(kinds)
            self.controller.shell.played = self._played(header, kinds)
            self.execution.execute(self.controller.begin(state, kinds, now))
            return
        self.execution.execute(self.controller.start_setup(now))

    def _played(self, header: Any, kinds: tuple[str, ...]) -> Any:
        """The set-up of a resumed game, which its rematch plays again; None when the
        game cannot say it (logged: the end screen's YES then goes to the set-up)."""
        try:
            return self.game.setup_of(header, kinds)
        except ValueError as exc:
            log.warning("no rematch of the resumed game (its set-up: %s)", exc)
            return None

    def _ready(self, now: float) -> None:
        """Every display shows its first frame: tell systemd, start the watchdog pings;
        start-up's garbage collected and frozen."""
        if self.collector is not None:
            self.collector.settle()
        self.service.ready(f"{len(self.hal.seats)} seats, journal in {self.journal.dir}")
        if self.service.interval is not None:
            self.service.ping()
            self._next_ping = now + self.service.interval

    def stop(self) -> None:
        """Ask :meth:`run` to return (safe from a signal handler or another thread)."""
        self._stop = True
        self.hal.events.put(StopRequested(self.clock.now()))

    def new_game(self, setup: Any = None, first: int | None = None, *,
                 game: str | None = None) -> None:  # fmt: skip
        """Archive the game and go back to the set-up (or straight to the roll-off of a
        preset set-up), as the end screen's NO does. ``game``: play this
        registered game from now on; ``setup``: preset this set-up of it from now on
        (ValueError if it seats more than the unit has); ``first``: who wins its
        roll-off (tests)."""
        if setup is not None and setup.players > len(self.hal.seats):
            raise ValueError(f"{setup.players} players, but this unit has "
                             f"{len(self.hal.seats)} seats")  # fmt: skip
        if game is not None:
            self.use_game(game)
        if setup is not None:
            self.controller.preset = setup
        self.rolls.forced_first = first
        self.execution.execute([NewGame()])
        self.displays.refresh()

    def close(self, close_hal: bool = True) -> None:
        """Close the journal (one more try to save what it could not); blank the
        displays and release the hardware."""
        self.work.close()
        self.journal.retry()
        self.journal.close()
        if close_hal:
            self.hal.close()

    def run(self) -> None:
        """Real time: block on the event queue until the next deadline, until :meth:`stop`
        (then systemd hears STOPPING, before the displays are blanked)."""
        self.start()
        while not self._stop:
            deadline = self.next_deadline()
            timeout = None if deadline is None else max(0.0, deadline - self.clock.now())
            self._idle(timeout)
            event = self.hal.events.get(timeout)
            if event is not None:
                self._dispatch(event)
            self.step()
        self.service.stopping()
        log.info("stopped")

    # ------------------------------------------------------------- stepping
    def step(self) -> None:
        """Handle everything due now (HAL polling, queued events, timers); never blocks."""
        if not self._started:
            self.start()
        now = self.clock.now()
        hal_due = self.hal.next_deadline()
        if hal_due is not None and hal_due <= now:
            self.hal.poll(now)
        for event in self.hal.events.drain():
            self._dispatch(event)
        while self.controller.due(now):
            self.execution.execute(self.controller.tick(now))
            if self.lookahead is not None:
                self.lookahead.forget()  # what a press does may have changed
        self.displays.retry_displays(now)
        if self._journal_retry is not None and self._journal_retry <= now:
            if self._unreadable:
                self._recover(now)
            else:
                self.journal.retry()
        self._plan_journal_retry(now)
        self.displays.refresh()
        if not self.displays.refresh_pending:
            self.work.send()  # the worker's requests once the glass shows what asked them
        for ext in self.extensions:  # after the frames: what they show is on disk
            ext.poll(now)
        if self._next_ping is not None and self._next_ping <= now:
            self.service.ping()  # from the loop itself: a hung loop stops pinging
            self._next_ping = now + (self.service.interval or 0.0)

    def _plan_journal_retry(self, now: float) -> None:
        waiting = self._unreadable or not self.journal.saving
        if not waiting:
            self._journal_retry = None
        elif self._journal_retry is None or self._journal_retry <= now:
            self._journal_retry = now + JOURNAL_RETRY_S

    def run_for(self, seconds: float) -> None:
        """Virtual time: advance the clock ``seconds``, stepping at every deadline."""
        end = self._virtual_clock().now() + seconds
        self.run_until(lambda: False, end=end)

    def run_until(
        self,
        predicate: Callable[[], bool],
        max_seconds: float = 3600.0,
        *,
        end: float | None = None,
    ) -> bool:
        """Virtual time: step from deadline to deadline until ``predicate()`` holds; the
        clock waits for the worker's answers (:meth:`.thinking.SlowWork.await_answers`).

        Returns False if it still does not hold after ``max_seconds`` of virtual time.
        """
        clock = self._virtual_clock()
        end = clock.now() + max_seconds if end is None else end
        self.step()
        while not predicate():
            if self.work.thinking:  # unit time stands still while the worker thinks
                self.work.await_answers(self._dispatch)
                self.step()
                continue
            deadline = self.next_deadline()
            if deadline is None or deadline > end:
                # idle as the loop would: it waits for its next deadline, not for ``end``
                self._idle(None if deadline is None else deadline - clock.now())
                clock.set(max(end, clock.now()))
                self.step()
                return predicate()
            self._idle(deadline - clock.now())
            clock.set(max(deadline, clock.now()))
            self.step()
        return True

    def _virtual_clock(self) -> VirtualClock:
        if not isinstance(self.clock, VirtualClock):
            raise TypeError("run_for/run_until need a VirtualClock; use run() or step()")
        return self.clock

    def _idle(self, wait: float | None) -> None:
        """The loop is about to wait ``wait`` seconds (None: until an event) with
        nothing due, long enough: the likely next frames are drawn (for half the wait
        at most), then the collector's turn. Each stops when an event arrives."""
        if wait is not None and wait < IDLE_MIN_S:
            return
        events = self.hal.events
        ahead = self.lookahead
        if ahead is not None and self._drawing_ahead():
            clock, seats = self.clock, len(self.hal.seats)
            until = None if wait is None else clock.now() + wait / 2
            changes = self.controller.next_deadline()  # the screen's own next change
            brief = changes is not None and changes - clock.now() < AHEAD_MIN_S
            while (
                events.empty()
                and (until is None or clock.now() < until)
                and ahead.step(
                    self.controller,
                    self.game,
                    self._draw_ahead,
                    clock.now(),
                    seats,
                    brief,
                    self.rolls.foreseen_roll_off,
                )
            ):
                pass
        if self.collector is not None and events.empty():
            self.collector.idle()

    def _drawing_ahead(self) -> bool:
        """Frames are drawn ahead (and a press's own shown before it is handled): with a
        lookahead, on the games' own renderers, no one watching the frames (the
        simulator's window and the link see each frame as the loop sends it)."""
        shown_elsewhere = self.displays.host_render is not None or bool(self.on_frame)
        return self.lookahead is not None and not shown_elsewhere

    def _frames_from(self) -> tuple[Any, ...] | None:
        """What the worker draws ahead after a bot's move from (the controller copied,
        the game, the seats, the time: :func:`.lookahead.drawn_after`), while frames
        are drawn ahead; the UI state it was copied in is kept (:meth:`_take_drawn`)."""
        if not self._drawing_ahead():
            return None
        self._drawn_from = self.controller.ui()
        return copy_to_guess_on(self.controller), self.game, len(self.hal.seats), self.clock.now()

    def _take_drawn(self, drawn: Drawn) -> None:
        """What the worker drew ahead after a bot's move, before the move is made: its
        frames; its guesses, if the UI state is still the one the worker was given
        (they are taken up for the state the move leaves: :meth:`_dispatch`)."""
        self.displays.keep_frames(drawn.frames)
        if self.controller.ui() == self._drawn_from:
            self._drawn = drawn

    def _draw_ahead(self, seat: int, view: Any) -> Callable[[], None] | None:
        """A frame the seat's display may show after the next press: its parts drawn
        (the caches keep them); what is left, a piece of its own: its panel bytes
        planned by the display."""
        pages = self.displays.pages(view)
        if pages is None:
            return None
        return functools.partial(self.hal.seats[seat].display.prepare, pages)

    # ---------------------------------------------------------------- internals
    def _dispatch(self, event: Event) -> None:
        if isinstance(event, StopRequested):
            self._stop = True
            return
        if isinstance(event, Answered):
            actions = self.actions
            self.execution.execute(self.work.answered(event))
            drawn, self._drawn = self._drawn, None
            if (
                drawn is not None
                and self.lookahead is not None
                and self.actions == actions + 1  # the move, and no more
                and not self.controller.finished  # (a rematch's roll-off: the unit's dice)
            ):
                self.lookahead.adopt(drawn, self.controller.ui())
            return
        if isinstance(event, ButtonDown):
            self.presses += 1
        if any(ext.dispatch(event) for ext in self.extensions):
            return
        if self._unreadable:
            return  # nothing to play until the saved game can be read (the message says why)
        log.debug("event %r", event)
        if isinstance(event, ButtonDown):
            self.displays.pressed(event.seat)
        if isinstance(event, ButtonDown | LongPress) and self._drawing_ahead():
            assert self.lookahead is not None
            foreseen = self.lookahead.foreseen(self.controller, event)
            if foreseen is not None and self.journal.saving:
                self.displays.show_ahead(event.seat, *foreseen)
        self.execution.execute(respond(self.controller, self.game, event, self.clock.now()))
