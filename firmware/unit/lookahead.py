"""Frames drawn ahead while the loop idles: the parts a press is likely to show next.

A part drawn for the first time (a new banner, a menu, a header text: FreeType measures
and renders each new string) makes the slowest presses; drawn again it comes from the
parts' caches (:mod:`firmware.games.switch16.screens.play`). So while the loop waits
with nothing due, :class:`Lookahead` plays each button of each seat (the seat the game
waits for first) on a copy of the controller (a cheap one that shares its values:
:mod:`.snapshot`), commits what that copy asks for to a copy of the
engine state, and draws every seat's view of the result as the unit would: the
caches (any game's frames as panel bytes: :class:`~.refresh.FramePages`) then hold
what the press will show, and each display plans the bytes it would send for it
(:meth:`hal.interfaces.Display.prepare`); the seat the game waits for holding each
button too, where the game says a hold is drawn as cheaply
(:attr:`~firmware.games.game.Game.holds_drawn_ahead`: Swytch's hint). Nothing of the
game changes: no journal, no dice (a roll is a chance action: not foreseen; a roll-off
a press starts is drawn from a copy of the unit's dice), no bot, no frame sent, no
cue; a game started at once (a rematch) is begun on the copy.

A piece at a time (:meth:`Lookahead.step`: one press on a copy, one seat's frame of its
result, or a display's plan of its bytes): the loop checks its queue between two, so a
press arriving meanwhile waits for one piece at most (a first drawing of a part, as
long as an idle collection).

What a press was foreseen to show its own seat (:meth:`Lookahead.foreseen`) is what the
loop sends that seat's display the moment the press arrives, before handling it
(:meth:`firmware.unit.loop.Unit._dispatch`): the press then shows on its glass after a
look-up, whatever the game does with it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from firmware.games.game import Game, GameController
from firmware.games.game_ui import GameUi
from firmware.kernel.errors import IllegalActionError
from firmware.kernel.players import is_human
from hal.config import InputTiming
from hal.events import Button, ButtonDown, Event, LongPress
from hal.frame import pack_frame

from .commands import Commit, RollOff, StartGame
from .end_screen import respond
from .snapshot import snapshot

log = logging.getLogger("firmware.unit.loop")

#: (event kind, seat, button) -> the UI state after the event, and its seat's view of it.
Foreseen = dict[tuple[type, int, Button], tuple[GameUi, Any]]
#: What a roll-off of so many players would give now, drawing nothing: (first, rounds);
#: None: it cannot be foreseen.
RollOffs = Callable[[int], tuple[int, list[dict[int, int]]] | None]
#: Draws ``seat``'s frame of a view; returns what is left to do of it, if anything.
Draw = Callable[[int, Any], Callable[[], None] | None]


class Lookahead:
    """The guesses left for the UI state they were made from."""

    def __init__(self) -> None:
        self._key: Any = None
        self._guesses: Iterator[None] = iter(())
        #: (event kind, seat, button) -> the UI state after it and its seat's view of
        #: it, for ``_key``
        self._foreseen: Foreseen = {}
        #: Guesses made beside the loop, and the UI state they are taken up for
        #: (:meth:`adopt`).
        self._adopted: tuple[Drawn, GameUi] | None = None
        self.pieces = 0  #: pieces of guessing done
        self._warned = False

    def step(
        self,
        controller: GameController,
        game: Game,
        draw: Draw,
        now: float,
        seats: int,
        brief: bool = False,
        roll_off: RollOffs | None = None,
    ) -> bool:
        """Do the next piece of guessing (a press on a copy, or one seat's frame of its
        result: ``draw(seat, view)``) for the controller's state now: False when none
        is left. ``brief``: the state changes by itself soon (an animation's frame):
        only the waiting seat's presses and their own frames are drawn for it.
        ``roll_off``: the roll-off a press would start (the unit's dice, copied), so
        it is drawn ahead too."""
        key = controller.ui()
        if key != self._key:
            self._key = key
            adopted, self._adopted = self._adopted, None
            if adopted is not None and adopted[1] == key:  # guessed beside the loop
                drawn = adopted[0]
                self._foreseen = drawn.foreseen
                self._guesses = (x for s, view in drawn.drawn for x in _drawn(draw, s, view))
            else:
                self._foreseen = {}
                guessing = _Guessing(
                    controller, game, draw, now, seats, key, self._foreseen, roll_off
                )
                self._guesses = guessing.guesses(brief)
        try:
            if next(self._guesses, False) is False:
                return False
        except Exception:  # a guess is no part of the game: the press itself will tell
            level = logging.DEBUG if self._warned else logging.WARNING  # not every state
            log.log(level, "drawing ahead failed; the next press draws its own frames",
                    exc_info=True)  # fmt: skip
            self._warned = True
            self._guesses = iter(())
            return False
        self.pieces += 1
        return True

    def forget(self) -> None:
        """Guess anew at the next step: a controller's timer fired, which may change
        what a press does though not the screen (a grace period ending)."""
        self._key, self._foreseen, self._guesses = None, {}, iter(())
        self._adopted = None

    def adopt(self, drawn: Drawn, ui: GameUi) -> None:
        """Take up the guesses the worker made after a bot's move (:func:`drawn_after`)
        for ``ui``, the UI state the move left (while the controller shows it): what
        each press there leads to is known, its frames are drawn; only their displays'
        plans are left to the loop. The caller vouches that ``ui`` is the one the
        worker started from (the move made from the UI state the worker was given;
        comparing the two would cost a long game's history): a wrong one could only
        show a press's frame foreseen wrong, put right as the press is handled."""
        self._adopted = (drawn, ui)

    def foreseen(
        self, controller: GameController, event: ButtonDown | LongPress
    ) -> tuple[GameUi, Any] | None:
        """The UI state ``event`` was foreseen to lead to and its seat's view of it
        (None: not foreseen, or the controller has moved on since)."""
        found = self._foreseen.get((type(event), event.seat, event.button))
        if found is None or controller.ui() != self._key:
            return None
        return found


@dataclass(frozen=True, slots=True)
class Drawn:
    """The guesses made beside the loop for the UI state after a bot's move
    (:func:`drawn_after`): the frames drawn by view (panel bytes), what each press
    there leads to, and each (seat, view) drawn, in order."""

    frames: dict[Any, bytes]
    foreseen: Foreseen
    drawn: tuple[tuple[int, Any], ...]


@dataclass(frozen=True, slots=True)
class _Guessing:
    """What one state's guesses share: the unit's controller and game, how a frame is
    drawn, the time, the seats, the UI state they start from, what they foresee."""

    controller: GameController
    game: Game
    draw: Draw
    now: float
    seats: int
    start: GameUi  #: the controller's UI state now
    foreseen: Foreseen
    roll_off: RollOffs | None
    #: results whose frames are drawn (the start's: nothing to draw)
    seen: set[Any] = field(default_factory=set)

    def guesses(self, brief: bool) -> Iterator[None]:
        """Each press's frames, a seat's at a time, the likeliest presses first: the
        seat the game waits for, then the other people's seats (every press's frame of
        the pressing seat, the one a press is timed by, then the other seats' frames of
        each); then the waiting seat's holds, where the game draws them as cheaply (they
        are rarer than presses); last the seats no person plays (a bot's, an empty one:
        only the shell or the end screen would take their presses: guessed only when a
        press would change what the shell shows, or on the end screen). ``brief``: the
        waiting seat's presses and their own frames only."""
        st, now = self.controller.state, self.now
        waiting = None if st is None else self.game.waiting_seat(st)
        first = [waiting] if waiting is not None and waiting < self.seats else []
        others = [seat for seat in range(self.seats) if seat not in first]
        people = [seat for seat in others if is_human(self.controller.kinds, seat)]
        self.seen.add(self.start)

        def presses(order: list[int]) -> list[ButtonDown | LongPress]:
            return [ButtonDown(now, seat, button) for seat in order for button in Button]

        if brief:
            yield from self.frames(presses(first), others=False)
            return
        yield from self.frames(presses(first + people))
        if first and self.game.holds_drawn_ahead:
            hold = InputTiming().long_press_s  # (no controller reads how long it was held)
            # the button down already: the loop idles the long-press time before its hold
            yield from self.frames([LongPress(now + hold, first[0], b, hold) for b in Button])
        if self.controller.shell.woken_by_press or self.controller.finished:
            yield from self.frames(presses([seat for seat in others if seat not in people]))

    def frames(
        self, events: Sequence[ButtonDown | LongPress], others: bool = True
    ) -> Iterator[None]:
        """The frames of ``events``, each on a copy of the controller: every one's frame
        of the seat it comes from first (kept in :attr:`foreseen`), then the other
        seats' (a result already :attr:`seen`: none; the start's: nothing foreseen;
        none but their own if not ``others``)."""
        game, draw = self.game, self.draw
        after: list[tuple[int, Any]] = []
        for event in events:
            ahead = _after(self.controller, game, event, self.now, self.roll_off)
            yield None
            ui = ahead.ui()
            if ui == self.start:  # the press changes nothing
                continue
            seat = event.seat
            view = game.seat_view(ui, seat)
            self.foreseen[(type(event), seat, event.button)] = (ui, view)
            if ui in self.seen:  # what another press does: its frames are drawn
                continue
            self.seen.add(ui)
            yield from _drawn(draw, seat, view)
            after.append((seat, ui))
        for pressing, ui in after if others else ():
            for index in range(self.seats):
                if index != pressing:
                    yield from _drawn(draw, index, game.seat_view(ui, index))


def _drawn(draw: Draw, seat: int, view: Any) -> Iterator[None]:
    """``seat``'s frame of ``view`` drawn, then what is left of it (a display's plan of
    its bytes), a piece each."""
    rest = draw(seat, view)
    yield None
    if rest is not None:
        rest()
        yield None


def copy_to_guess_on(controller: GameController) -> GameController:
    """A copy of ``controller`` to guess on: its engine state shared (immutable), no
    reviewer (a game's end shows no review ahead: it would ask the journal)."""
    shared = (controller.state, controller.shell.reviewer)  # immutable; the unit's own
    ahead = snapshot(controller, {id(x): x for x in shared if x is not None})
    ahead.shell.reviewer = None
    return ahead


def _after(
    controller: GameController, game: Game, event: Event, now: float,
    roll_off: RollOffs | None = None,
) -> GameController:  # fmt: skip
    """A copy of ``controller`` after ``event``, the actions it commits, the game it
    starts without a roll-off (a rematch), the roll-off it starts (given ``roll_off``,
    the unit's dice copied, where they can be); a roll, a bot's turn, the set-up: not
    foreseen."""
    ahead = copy_to_guess_on(controller)
    for command in respond(ahead, game, event, now):
        if isinstance(command, StartGame):
            state = game.header(command.setup, command.first).initial_state()
            ahead.begin(state, command.setup.seats, now)
        elif isinstance(command, RollOff) and roll_off is not None:
            drawn = roll_off(command.players(ahead.state))
            if drawn is not None:
                ahead.show_rolloff(drawn[1], drawn[0], command.setup, now)
        elif isinstance(command, Commit):
            _commit(ahead, command.action, now)
    return ahead


def _commit(ahead: GameController, action: Any, now: float) -> None:
    """``action`` committed on the copy ``ahead`` (nothing if it is not legal there)."""
    if ahead.state is None:
        return
    try:
        new = ahead.state.apply(action)
    except IllegalActionError:
        return
    ahead.committed(action, new, now)


def drawn_after(
    fn: Callable[..., tuple[Any, Any]], args: tuple[Any, ...], controller: GameController,
    game: Game, seats: int, now: float,
) -> tuple[tuple[Any, Any], Drawn | None]:  # fmt: skip
    """A bot's move worked out beside the loop (``fn(*args)``: its action and the bot
    after it, :func:`firmware.worker.decide`), and the drawing ahead that follows it,
    done there too: every seat's frame once the move is committed on ``controller`` (a
    :func:`copy_to_guess_on` of the unit's at the request), then the guesses of
    :class:`Lookahead` for that state (every press's result and frames). Frames as
    panel bytes, by view (a game that keeps its own page bytes: none). The loop looks
    frames up by view, as its own (:meth:`firmware.unit.refresh.FramePages.give`), and
    takes up the guesses only for the UI state they were made for
    (:meth:`Lookahead.adopt`): nothing drawn here is shown unless it is the loop's.
    Drawing fails quietly (None): the loop draws its own."""
    answer = fn(*args)
    frames: dict[Any, bytes] = {}
    drawn: list[tuple[int, Any]] = []

    def keep(view: Any) -> None:
        if view not in frames and game.render_pages(view) is None:
            frames[view] = pack_frame(game.render(view))

    def draw(seat: int, view: Any) -> None:
        drawn.append((seat, view))
        keep(view)

    try:
        _commit(controller, answer[0], now)
        start = controller.ui()
        for seat in range(seats):
            keep(game.seat_view(start, seat))  # (the loop's refresh sends them)
        foreseen: Foreseen = {}
        if not controller.finished:  # (an end screen's rematch rolls the unit's dice)
            guessing = _Guessing(controller, game, draw, now, seats, start, foreseen, None)
            for _ in guessing.guesses(False):
                pass
    except Exception:  # no part of the move: the loop draws what is missing
        log.debug("drawing after a move failed", exc_info=True)
        return answer, None
    return answer, Drawn(frames, foreseen, tuple(drawn))
