"""Slow work beside the loop: a bot's move, a hint, an end-of-game review.

What is slow is the game's to say (:attr:`~firmware.games.game.Game.slow_work`: bot
levels, and :data:`~firmware.games.game.REVIEW`); that work goes to the worker
(:mod:`firmware.worker`, a process on another core) while the loop goes on serving
buttons, displays, LEDs and the link. The answer comes back as an :class:`Answered`
event on the HAL queue and is carried out like any command, unless the position it was
worked out for is gone (a new game, a move made meanwhile): then it is dropped (a
worker still busy with a cancelled think is stopped, and a fresh one started). Every
request carries what the work needs (the bot itself, with its rng), and the answer
brings the bot back, so a game plays the same with the worker as without it. A
request goes to the worker once the displays have their frames (:meth:`SlowWork.send`,
called by the loop): sending it (pickling the position) never delays a press's glass.

While the unit draws frames ahead (:mod:`.lookahead`), a bot's move goes with a copy
of the controller, and the worker draws ahead what follows it too
(:func:`.lookahead.drawn_after`): every seat's frame once the move is made, and what
every press then leads to with its frames; the loop looks the frames up by view and
takes up the guesses for the state they were made for, instead of working them out (a
bot's move is the one change no press foresees, and it changes every display). The
move comes that much later: the worker's drawing is part of the bot's think.

On a real clock the unit starts its worker when a game that needs it begins; on a
virtual clock (tests, the link's test mode) it works inline, or, given a worker,
:meth:`SlowWork.await_answers` holds the clock until the answers are in. If the worker
cannot start or dies, the unit does the work itself (logged once): a game is never lost.

A part of :class:`~firmware.unit.loop.Unit` (:attr:`~firmware.unit.loop.Unit.work`).
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from firmware.games.game import REVIEW, Game
from firmware.kernel.players import HUMAN
from firmware.worker import Thinker, WorkerFactory, WorkerGone, start_worker
from hal.clock import VirtualClock
from hal.events import Event, EventQueue

from .lookahead import Drawn, drawn_after

if TYPE_CHECKING:
    from .commands import Command

log = logging.getLogger("firmware.unit.loop")

#: While virtual time waits for the worker: how often it checks on it (wall seconds).
AWAIT_POLL_S = 0.5


@dataclass(frozen=True, slots=True)
class Answered(Event):
    """The worker answered request ``tag`` (put on the HAL queue by its reader thread)."""

    tag: int


@dataclass(frozen=True, slots=True)
class Think:
    """A request the worker has: ``then(fn(*args))`` once it answers. ``move``: a bot's
    move, whose frames the worker draws too (:attr:`SlowWork.frames_from`); ``drawn``:
    it was sent so (the answer brings them)."""

    worker: Thinker
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    then: Callable[[Any], list[Command]]
    move: bool = False
    drawn: bool = False


def default_worker(clock: Any) -> WorkerFactory | None:
    """A worker process on a real clock; none on a virtual one (tests step the unit)."""
    return None if isinstance(clock, VirtualClock) else start_worker


def _preload(game: Game) -> tuple[str, ...]:
    """What the worker imports as it starts: the game's module and what draws ahead."""
    return type(game).__module__, drawn_after.__module__


class SlowWork:
    """The worker of :class:`~firmware.unit.loop.Unit` and the requests it has; see the
    module docstring. What is slow is asked of the ``game`` given with each request."""

    def __init__(self, events: EventQueue, clock: Any, factory: WorkerFactory | None) -> None:
        """``events``: the loop's queue (answers come to it); ``factory`` starts the
        worker (None: the unit works inline)."""
        self._events = events
        self._clock = clock
        self._factory = factory
        self._worker: Thinker | None = None
        #: Requests the worker has, by tag.
        self._thinks: dict[int, Think] = {}
        #: Requests made since the last :meth:`send`, not yet given to the worker.
        self._unsent: list[Think] = []
        #: Results the unit worked out itself for a worker lost before it had the
        #: request, by tag (negative: never a worker's), answered through the queue too.
        self._worked: dict[int, Any] = {}
        self._own_tags = itertools.count(-1, -1)
        #: What the drawing ahead after a bot's move is done from, beside the loop, as
        #: the request goes (the unit's: a copy of its controller, the game, its seats,
        #: the time; None: not drawn), and who takes what the answer brings of it.
        self.frames_from: Callable[[], tuple[Any, ...] | None] | None = None
        self.take_drawn: Callable[[Drawn], None] | None = None
        self._undrawable = False  #: the drawing ahead did not pickle: the loop draws

    @property
    def thinking(self) -> bool:
        """The worker is working something out for the unit (a host that sleeps on
        something else than the HAL queue should wake up soon for its answer)."""
        return bool(self._thinks or self._unsent)

    def think(self, game: Game, work: str, fn: Callable[..., Any], args: tuple[Any, ...],
              then: Callable[[Any], list[Command]],
              move: bool = False) -> list[Command]:  # fmt: skip
        """``then(fn(*args))``: the worker's when ``work`` is slow (then's commands come
        with its answer, :meth:`answered`), else worked out now. ``move``: ``fn`` is a
        bot's decision, :func:`firmware.worker.decide` (the worker draws what follows)."""
        if self.submit(game, work, fn, args, then, move):
            return []
        return then(fn(*args))

    def submit(self, game: Game, work: str, fn: Callable[..., Any], args: tuple[Any, ...],
               then: Callable[[Any], list[Command]], move: bool = False) -> bool:  # fmt: skip
        """Give ``fn(*args)`` to the worker if ``work`` is slow and a worker runs (True):
        at the next :meth:`send`."""
        worker = self._aside(game, work)
        if worker is None:
            return False
        self._unsent.append(Think(worker, fn, args, then, move))
        return True

    def send(self) -> None:
        """Give the worker the requests made since the last call (the loop calls this
        once the displays have their frames). One the worker cannot take (it died) is
        worked out now, and answered through the queue like the worker's."""
        unsent, self._unsent = self._unsent, []
        for think in unsent:
            try:
                tag, drawn = self._submit(think)
                think = replace(think, drawn=drawn)
            except WorkerGone as exc:
                self._worker_lost(str(exc))
                tag = next(self._own_tags)
                self._worked[tag] = think.fn(*think.args)
                self._events.put(Answered(self._clock.now(), tag))
            self._thinks[tag] = think

    def _submit(self, think: Think) -> tuple[int, bool]:
        """Give ``think`` to its worker: (its tag, whether the drawing ahead after a
        move goes with it: a bot's move while the unit draws ahead, unless that does not
        pickle, a game's controller holding what cannot be sent: then the request
        alone, said once). WorkerGone: it cannot be sent."""
        frames_from = None if self._undrawable or not think.move else self.frames_from
        draw = None if frames_from is None else frames_from()
        if draw is not None:
            try:
                return think.worker.submit(drawn_after, (think.fn, think.args, *draw)), True
            except WorkerGone:
                raise
            except Exception as exc:
                log.warning("worker: the drawing ahead after a move cannot be sent (%s: %s); "
                            "the loop draws it", type(exc).__name__, exc)  # fmt: skip
                self._undrawable = True
        return think.worker.submit(think.fn, think.args), False

    def _aside(self, game: Game, work: str) -> Thinker | None:
        """The worker if ``work`` (a bot level, or REVIEW) goes to it (started now if
        it was not running), else None."""
        if work not in game.slow_work or self._factory is None:
            return None
        if self._worker is None:
            try:
                self._worker = self._factory(self._on_answer, _preload(game))
            except OSError as exc:
                self._worker_lost(f"it cannot start: {exc}")
            if self._worker is None:
                self._factory = None
        return self._worker

    def warm(self, game: Game, kinds: Iterable[str]) -> None:
        """Start the worker ahead of a game that will need it (its bots' levels; a
        human's hints, the strongest level's, and review)."""
        work = set(kinds)
        if HUMAN in work:
            work |= {game.levels[-1], REVIEW}
        slow = work & game.slow_work
        if slow:
            self._aside(game, min(slow))

    def _on_answer(self, tag: int) -> None:
        """The worker's reader thread: an answer came (the loop wakes for it)."""
        self._events.put(Answered(self._clock.now(), tag))

    def answered(self, event: Answered) -> list[Command]:
        """The commands of an answer (none when its request was cancelled); a request
        the worker died on is worked out now."""
        think = self._thinks.pop(event.tag, None)
        if think is None:
            return []
        if event.tag in self._worked:
            return think.then(self._worked.pop(event.tag))
        try:
            result = think.worker.answer(event.tag)
        except WorkerGone as exc:
            self._worker_lost(str(exc))
            return think.then(think.fn(*think.args))
        if think.drawn:
            result, drawn = result
            if drawn is not None and self.take_drawn is not None:
                self.take_drawn(drawn)
        return think.then(result)

    def cancel(self) -> None:
        """Drop every answer still to come (a new game: nothing asked is current). A
        worker still at one is stopped, as it would work it out to the end before the
        next request: the next slow work starts a fresh one (a new game's, at once)."""
        if self._thinks:
            self.close()
        self._thinks.clear()
        self._unsent.clear()
        self._worked.clear()

    def await_answers(self, dispatch: Callable[[Event], None]) -> None:
        """Virtual time waits for the worker: the clock does not move past a think (the
        events that come meanwhile go to ``dispatch`` at the time it shows)."""
        self.send()
        while self._thinks:
            event = self._events.get(AWAIT_POLL_S)
            if event is not None:
                dispatch(event)

    def _worker_lost(self, why: str) -> None:
        """The worker is gone: the unit works inline from now on (said once)."""
        if self._factory is not None or self._worker is not None:
            log.warning("worker: %s; the unit works in its loop from now on", why)
        self.close()
        self._factory = None

    def close(self) -> None:
        """Stop the worker (if it runs)."""
        worker, self._worker = self._worker, None
        if worker is not None:
            worker.close()
