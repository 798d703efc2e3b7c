"""The unit's game loop: one thread, HAL events on a queue, timers from the clock.

:class:`Unit` owns the HAL, the journal, the bots and the dice rng, and drives a
:class:`~firmware.unit.controller.Controller`. Every accepted action goes
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
"""

from __future__ import annotations

import functools
import logging
import os
import random
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from firmware.chance import roll_dice, roll_off
from firmware.engine import Act, Action, IllegalActionError, NewRound, Phase, Roll, State
from firmware.engine.notation import Header, action_to_json
from firmware.engine.seats import seat_name
from firmware.screens import SeatView, render_pages, render_seat
from firmware.screens.notice import with_notice
from firmware.settings import Timing
from hal.events import ButtonDown, Event
from hal.interfaces import Hal

from .collector import Collector
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
from .controller import Controller, deciding_seat, waiting_seat
from .journal import Journal
from .service import ServiceNotifier
from .setup import HUMAN, SEAT_KINDS, GameSetup
from .sounds import TUNES, Cue, cue_for
from .views import seat_view

if TYPE_CHECKING:
    from firmware.bots import Bot
    from firmware.settings import GameSettings

log = logging.getLogger(__name__)

#: Retrying a display that stopped answering: first after this, doubling up to the max.
RETRY_FIRST_S = 0.25
RETRY_MAX_S = 30.0
#: Trying the journal again while it cannot save the game (or read the saved one).
JOURNAL_RETRY_S = 1.0
#: Stamped on every frame while the journal cannot save the game.
NOT_SAVED = "NOT SAVED"
#: The loop collects garbage (:class:`Collector`) only before a wait at least this long.
IDLE_MIN_S = 0.05


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
        """Do what is due at ``now``."""
        ...


class Unit:
    """The game unit over any :class:`~hal.interfaces.Hal` backend and clock."""

    def __init__(
        self,
        hal: Hal,
        state_dir: str | os.PathLike[str],
        *,
        timing: Timing | None = None,
        defaults: GameSetup | None = None,
        setup: GameSetup | None = None,
        rng: random.Random | None = None,
        durable: bool = True,
        render: Callable[[SeatView], Any] = render_seat,
        service: ServiceNotifier | None = None,
        collector: Collector | None = None,
    ) -> None:
        """``setup`` skips the set-up menu (tests, simulator demos); ``defaults`` preselects
        it. ``rng`` draws every die (default ``random.SystemRandom()``); ``durable=False``
        skips fsync (benchmarks only); ``service`` tells systemd READY and pings its
        watchdog (default: from the environment, inert outside systemd); ``collector``
        keeps Python's garbage collector off the press path (``switch16 run``; the
        collector is process-wide, so tests and hosts of several units leave it)."""
        self.hal = hal
        self.clock = hal.clock
        self.rng: random.Random = rng if rng is not None else random.SystemRandom()
        self.journal = Journal(state_dir, durable=durable)
        self.controller = Controller(
            len(hal.seats),
            timing or Timing(),
            defaults or GameSetup(),
            preset=setup,
            now=self.clock.now(),
        )
        self.render = render
        #: A frame as panel bytes without an image, where the renderer has them (a
        #: custom renderer draws every frame).
        self._pages: Callable[[SeatView], bytes | None] = (
            render_pages if render is render_seat else _no_pages
        )
        self.bots: dict[int, Bot] = {}
        self.actions = 0  #: actions committed since start()
        self.frames = 0  #: frames sent to displays
        self.on_commit: list[Callable[[Action, State], None]] = []
        #: Called with (seat, image) for every frame sent to a display.
        self.on_frame: list[Callable[[int, Any], None]] = []
        self.extensions: list[Extension] = []
        #: Rolls to use, in order, instead of drawing dice (test mode of the link).
        self.forced_rolls: deque[Roll] = deque()
        #: The next roll-off's winner instead of drawing it (test mode of the link).
        self.forced_first: int | None = None
        #: What each display was last sent: (view, notice).
        self._shown: list[tuple[SeatView, str | None] | None] = [None] * len(hal.seats)
        #: Displays that stopped answering: seat -> (next retry time, current backoff).
        self._retry: dict[int, tuple[float, float]] = {}
        #: Written to the journal ahead of the roll-off that shows it (see _journal_ahead).
        self._ahead: Header | Action | None = None
        self._leds: list[bool | None] = [None] * len(hal.seats)
        #: The seat whose button the next refresh answers (it is drawn first).
        self._urgent: int | None = None
        #: A refresh gave way to a new event: some displays still wait for their frame.
        self.refresh_pending = False
        self._stop = False
        self._started = False
        self._unplayable: set[Cue] = set()
        #: A cue to play once the most urgent display has its frame (sound can wait a
        #: frame's time; the pressing seat's glass should not wait for the buzzer).
        self._cue_due: Cue | None = None
        self.service = service if service is not None else ServiceNotifier()
        self._next_ping: float | None = None
        self.controller.reviewer = self._reviews
        self.collector = collector
        #: When to try the journal again (it cannot save or read now), else None.
        self._journal_retry: float | None = None
        self._unreadable = False  #: the saved game cannot be read yet: wait for it

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
        """A unit with the config's timing, rules defaults and state directory."""
        from .journal import resolve_state_dir

        defaults = GameSetup(preset=settings.preset, points=settings.points)
        rng = random.Random(seed) if seed is not None else random.SystemRandom()
        return cls(
            hal,
            resolve_state_dir(state_dir, settings.state_dir),
            timing=settings.timing,
            defaults=defaults,
            rng=rng,
            **kwargs,
        )

    # ------------------------------------------------------------------ queries
    @property
    def state(self) -> State | None:
        return self.controller.state

    @property
    def finished(self) -> bool:
        """The game (or points match) was played to its end."""
        return self.controller.finished

    def next_deadline(self) -> float | None:
        times = [self.controller.next_deadline(), self.hal.next_deadline()]
        times += [at for at, _ in self._retry.values()]
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
        self._refresh()
        self._ready(now)

    def _recover(self, now: float) -> None:
        """Resume what the journal holds, or start the set-up; while the journal cannot
        be read, say why and wait (:meth:`step` calls this again every second)."""
        found = self.journal.recover(len(self.hal.seats))
        if self._unreadable and found.unreadable is None:
            self.controller.message = None  # its "retrying" is over
        self._unreadable = found.unreadable is not None
        if found.unreadable is not None:
            self.controller.show_message(("SAVED GAME", "cannot be read:",
                                          found.unreadable[:18], "retrying"), now)  # fmt: skip
            return
        where = found.moved_to.name if found.moved_to is not None else "?"
        if found.unresumable is not None:
            if found.moved_to is not None and found.moved_to.parent == self.journal.games:
                where = f"{self.journal.games.name}/{found.moved_to.stem}"
            self.controller.show_message(("CANNOT RESUME", f"{found.unresumable.players}-player "
                                          f"game,", f"unit has {len(self.hal.seats)} seats",
                                          f"kept: {where}"), now)  # fmt: skip
        elif found.problem is not None:
            self.controller.show_message(("JOURNAL DAMAGED", "saved aside as", where,
                                          "new game"), now)  # fmt: skip
        header, state = found.header, found.state
        if header is not None and state is not None:
            kinds = self._kinds(header)
            log.info("resumed: %d players (%s), %s, %r", header.players, ", ".join(kinds),
                     header.rules.name, state)  # fmt: skip
            self._make_bots(kinds)
            self._execute(self.controller.begin(state, kinds, now))
            return
        self._execute(self.controller.start_setup(now))

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

    def new_game(self, setup: GameSetup | None = None, first: int | None = None) -> None:
        """Archive the game and go back to the set-up (or straight to the roll-off of a
        preset set-up), as a human seat's YES on the end screen does. ``setup``: preset
        this set-up from now on (ValueError if it seats more than the unit has);
        ``first``: who wins its roll-off (tests)."""
        if setup is not None:
            if setup.players > len(self.hal.seats):
                raise ValueError(f"{setup.players} players, but this unit has "
                                 f"{len(self.hal.seats)} seats")  # fmt: skip
            self.controller.preset = setup
        self.forced_first = first
        self._execute([NewGame()])
        self._refresh()

    def close(self, close_hal: bool = True) -> None:
        """Close the journal (one more try to save what it could not); blank the
        displays and release the hardware."""
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
            self._execute(self.controller.tick(now))
        for ext in self.extensions:
            ext.poll(now)
        self._retry_displays(now)
        if self._journal_retry is not None and self._journal_retry <= now:
            if self._unreadable:
                self._recover(now)
            else:
                self.journal.retry()
        self._plan_journal_retry(now)
        self._refresh()
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
        """Virtual time: step from deadline to deadline until ``predicate()`` holds.

        Returns False if it still does not hold after ``max_seconds`` of virtual time.
        """
        clock = self._virtual_clock()
        end = clock.now() + max_seconds if end is None else end
        self.step()
        while not predicate():
            deadline = self.next_deadline()
            if deadline is None or deadline > end:
                self._idle(end - clock.now())
                clock.set(max(end, clock.now()))
                self.step()
                return predicate()
            self._idle(deadline - clock.now())
            clock.set(max(deadline, clock.now()))
            self.step()
        return True

    def _virtual_clock(self) -> Any:
        if not hasattr(self.clock, "set"):
            raise TypeError("run_for/run_until need a VirtualClock; use run() or step()")
        return self.clock

    def _idle(self, wait: float | None) -> None:
        """The loop is about to wait ``wait`` seconds (None: until an event) with
        nothing due: the collector's turn, when the wait is long enough."""
        if (
            self.collector is not None
            and (wait is None or wait >= IDLE_MIN_S)
            and self.hal.events.empty()
        ):
            self.collector.idle()

    # ---------------------------------------------------------------- internals
    def _dispatch(self, event: Event) -> None:
        if isinstance(event, StopRequested):
            self._stop = True
            return
        if any(ext.dispatch(event) for ext in self.extensions):
            return
        if self._unreadable:
            return  # nothing to play until the saved game can be read (the message says why)
        log.debug("event %r", event)
        if isinstance(event, ButtonDown):
            self._urgent = event.seat
        self._execute(self.controller.handle(event, self.clock.now()))

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

    def _roll(self, state: State) -> Roll:
        """The next forced roll that is legal now, else dice from the rng."""
        while self.forced_rolls:
            roll = self.forced_rolls.popleft()
            try:
                state.apply(roll)
            except IllegalActionError:
                pass
            else:
                return roll
            log.warning("forced roll %s is not legal now: skipped", action_to_json(roll))
        return roll_dice(state, self.rng)

    @property
    def round_ahead(self) -> bool:
        """The next round's start is journaled while its roll-off shows, the state still
        the last round's: the transcript is one line ahead of the displays."""
        return isinstance(self._ahead, NewRound) and self.controller.state is not None

    def _journal_ahead(self, setup: GameSetup | None, first: int) -> None:
        """Journal a roll-off's outcome before the displays show it, so a power cut
        during the show resumes with the same starter: a new game's header, or the
        next round of a match."""
        st = self.controller.state
        if setup is not None:
            header = Header(setup.players, first, setup.rules(), setup.seats)
            self.journal.create(header)
            self._ahead = header
        elif st is not None and NewRound(first) in st.legal_actions():
            self.journal.append(NewRound(first))
            self._ahead = NewRound(first)

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

    def _reviews(self, humans: list[int]) -> dict[int, str]:
        """The master's short review for each of ``humans`` of the game just finished."""
        from firmware.transcript import parse_action

        from .game_views import short_review

        header, lines = self.journal.open_game  # the whole game, also after a resume
        if header is None:
            return {}
        return short_review(header, [parse_action(line) for line in lines], humans)

    def _play_due_cue(self) -> None:
        if self._cue_due is not None:
            self._cue(self._cue_due)
            self._cue_due = None

    def _cue(self, cue: Cue) -> None:
        """Start a cue's tune on the buzzer, if there is one (it replaces any tune playing)."""
        buzzer = self.hal.buzzer
        if buzzer is None or cue in self._unplayable:
            return
        try:
            buzzer.play(TUNES[cue])
        except ValueError as exc:  # a [buzzer] range that does not span the cues
            self._unplayable.add(cue)
            log.warning("sound cue %s not played: %s", cue, exc)

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

    def _retry_displays(self, now: float) -> None:
        """Try the displays that stopped answering again, with doubling backoff."""
        for index, (at, delay) in list(self._retry.items()):
            if at > now:
                continue
            if self.hal.seats[index].display.retry():
                del self._retry[index]
            else:
                delay = min(delay * 2, RETRY_MAX_S)
                self._retry[index] = (now + delay, delay)

    def _refresh(self) -> None:
        """Send each display its frame if its view changed, most urgent first; dim; seat
        LEDs; schedule a retry for any display that did not answer.

        A frame is rendered before the journal's sync is waited for (the two overlap),
        and sent only after it. When an event arrives meanwhile, the remaining displays
        wait (:attr:`refresh_pending`) and the loop handles the event first.
        """
        ctl = self.controller
        seats = self.hal.seats
        for index, seat in enumerate(seats):
            seat.display.dim(ctl.dimmed)  # the display keeps the state: nothing if unchanged
            if seat.led is not None:
                on = self._led_on(index)
                if on != self._leds[index]:
                    seat.led.set(on)
                    self._leds[index] = on
        events = self.hal.events
        order = self._urgency()
        ui = ctl.ui()
        self.refresh_pending = False
        for n, index in enumerate(order):
            seat = seats[index]
            view = seat_view(ui, index)
            shown = self._shown[index]
            pages = image = None
            if shown is None or shown[0] != view:  # drawn while the sync runs
                pages = None if self.on_frame else self._pages(view)
                image = self.render(view) if pages is None else None
            if pages is not None and seat.display.show_pages(
                pages, functools.partial(self.render, view), self._saved
            ):  # planned while the sync runs too, sent once it is done
                self._shown[index] = (view, None)
                self.frames += 1
            else:
                self.journal.wait()  # nothing shows an action before it is on disk
                notice = None if self.journal.saving else NOT_SAVED
                if (view, notice) != shown:
                    if image is None:
                        image = self.render(view)
                    shown_image = image if notice is None else with_notice(image, notice)
                    seat.display.show(shown_image)
                    self._shown[index] = (view, notice)
                    self.frames += 1
                    for hook in self.on_frame:
                        hook(index, shown_image)
            if seat.display.last_error is not None and index not in self._retry:
                self._retry[index] = (self.clock.now() + RETRY_FIRST_S, RETRY_FIRST_S)
            self._play_due_cue()
            if n + 1 < len(order) and not events.empty():
                self.refresh_pending = True  # the next event first, then the rest
                return
        self._play_due_cue()  # (no display at all)
        self._urgent = None

    def _saved(self) -> bool:
        """Wait until every journaled action is on disk: True when it was saved (a
        frame may show it as it is), False when the journal cannot save."""
        self.journal.wait()
        return self.journal.saving

    def _urgency(self) -> list[int]:
        """Seat indices, most urgent first: the seat that pressed, the seat the game
        waits for, then the others in seat order."""
        order = list(range(len(self.hal.seats)))
        st = self.controller.state
        waiting = None if st is None else waiting_seat(st)
        for first in (waiting, self._urgent):
            if first is not None and first in order:
                order.remove(first)
                order.insert(0, first)
        return order

    def _led_on(self, seat: int) -> bool:
        """A seat's LED lights while the game waits for that seat."""
        st = self.controller.state
        return st is not None and seat < st.players and waiting_seat(st) == seat


def _no_pages(view: SeatView) -> None:
    """No frame as bytes: the image path for every frame."""
    return None
