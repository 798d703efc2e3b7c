"""Display refresh and retries: each seat's frame sent when its view changed, most
urgent first, after the journal's sync (a press's own frame drawn ahead: as the press
arrives, :meth:`DisplayRefresh.show_ahead`); a display that stopped answering retried with
doubling backoff; the sound cue played once the most urgent display has its frame.

A part of :class:`~firmware.unit.loop.Unit` (:attr:`~firmware.unit.loop.Unit.displays`).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any

from firmware.games.game import Game, GameController
from firmware.games.game_ui import GameUi
from firmware.kernel.seats import seat_name
from firmware.screens import SeatView
from firmware.screens.notice import with_notice
from hal.frame import pack_frame
from hal.interfaces import Hal

from .journal import Journal
from .sounds import tune_for
from .table import Table

log = logging.getLogger("firmware.unit.loop")

#: Retrying a display that stopped answering: first after this, doubling up to the max.
RETRY_FIRST_S = 0.25
RETRY_MAX_S = 30.0
#: Frames kept by view (:class:`FramePages`): a seat's screens before and after the
#: next press of every button, for four seats, with room to spare.
KEPT_FRAMES = 256
#: Stamped on every frame while the journal cannot save the game.
NOT_SAVED = "NOT SAVED"


class DisplayRefresh:
    """Frames, LEDs, retries and cues of :class:`~firmware.unit.loop.Unit`."""

    def __init__(
        self, hal: Hal, journal: Journal, table: Table, render: Callable[[SeatView], Any] | None
    ) -> None:
        """``render`` replaces the games' own renderers (a host's: it draws every frame)."""
        self.hal = hal
        self.clock = hal.clock
        self.journal = journal
        self._table = table
        #: A renderer of every game's views given by the host (None: each game's own).
        self.host_render = None if render is table.game.render else render
        self.render, self._pages = self._renderers(table.game)
        self.frames = 0  #: frames sent to displays
        #: Called with (seat, image) for every frame sent to a display.
        self.on_frame: list[Callable[[int, Any], None]] = []
        #: What each display was last sent: (view, notice).
        self._shown: list[tuple[SeatView, str | None] | None] = [None] * len(hal.seats)
        #: Displays that stopped answering: seat -> (next retry time, current backoff).
        self._retry: dict[int, tuple[float, float]] = {}
        self._leds: list[bool | None] = [None] * len(hal.seats)
        #: The seat whose button the next refresh answers (it is drawn first).
        self._urgent: int | None = None
        #: The seat sent a frame foreseen for its press (:meth:`show_ahead`) since the
        #: last refresh, with the game state foreseen; how many such frames the press
        #: did not show after all.
        self._ahead: tuple[int, Any] | None = None
        self.shown_ahead = 0
        self.foreseen_wrong = 0
        #: A refresh gave way to a new event: some displays still wait for their frame.
        self.refresh_pending = False
        self._unplayable: set[str] = set()
        #: A cue to play once the most urgent display has its frame (sound can wait a
        #: frame's time; the pressing seat's glass should not wait for the buzzer).
        self._cue_due: str | None = None

    @property
    def controller(self) -> GameController:
        """The controller on the table (its UI state is what the displays show)."""
        return self._table.controller

    @property
    def game(self) -> Game:
        """The game on the table (its seat views)."""
        return self._table.game

    def use_game(self, game: Game) -> None:
        """``game``'s views and tunes take over the displays and the buzzer."""
        self.render, self._pages = self._renderers(game)
        self._unplayable.clear()  # a cue's name is the new game's

    def _renderers(
        self, game: Game
    ) -> tuple[Callable[[SeatView], Any], Callable[[SeatView], bytes | None]]:
        """What draws a view, and what makes its frame as panel bytes without an image
        where it can: the game's own, or the host's renderer (it draws every frame)."""
        if self.host_render is not None:
            return self.host_render, _no_pages
        return game.render, FramePages(game.render, game.render_pages)

    def keep_frames(self, frames: dict[Any, bytes]) -> None:
        """Frames by view the game's renderer drew beside the loop (:class:`FramePages`)."""
        if isinstance(self._pages, FramePages):
            self._pages.give(frames)

    @property
    def frames_given(self) -> int:
        """How many frames were looked up of those drawn beside the loop."""
        return self._pages.given_used if isinstance(self._pages, FramePages) else 0

    def pages(self, view: SeatView) -> bytes | None:
        """A view's frame as panel bytes (None: only as an image, :attr:`render`)."""
        return self._pages(view)

    def show_ahead(self, seat: int, ui: GameUi, view: SeatView) -> None:
        """Send ``seat`` its frame ``view`` of ``ui`` (what its press was foreseen to
        lead to, :mod:`.lookahead`) now, before the press is handled and its action
        journaled: its own frame drawn ahead, on its glass at once (then brightened,
        if the press wakes the displays). The refresh after the press leaves it if the
        press shows that view, else sends the frame it does show (one foreseen wrong,
        :attr:`foreseen_wrong`, unless something else acted too: a bot answering at
        once)."""
        pages = self._pages(view)
        if pages is None:
            return
        display = self.hal.seats[seat].display
        if display.show_pages(pages, functools.partial(self.render, view), _now):
            display.dim(ui.shell.dimmed)
            self._shown[seat] = (view, None)
            self._ahead = (seat, ui.state)
            self.frames += 1
            self.shown_ahead += 1

    def pressed(self, seat: int) -> None:
        """The next refresh answers ``seat``'s button: its display goes first."""
        self._urgent = seat

    def retry_times(self) -> list[float]:
        """When displays that stopped answering are tried again."""
        return [at for at, _ in self._retry.values()]

    def cue_after_frame(self, cue: str) -> None:
        """Play ``cue`` once the most urgent display has its frame."""
        self._cue_due = cue

    def _play_due_cue(self) -> None:
        if self._cue_due is not None:
            self.cue(self._cue_due)
            self._cue_due = None

    def cue(self, cue: str) -> None:
        """Start a cue's tune (the game's own, else the unit's) on the buzzer, if there
        is one (it replaces any tune playing)."""
        buzzer = self.hal.buzzer
        if buzzer is None or cue in self._unplayable:
            return
        try:
            buzzer.play(tune_for(cue, self.game.tunes))
        except ValueError as exc:  # no such cue, or a [buzzer] range that does not span it
            self._unplayable.add(cue)
            log.warning("sound cue %s not played: %s", cue, exc)

    def retry_displays(self, now: float) -> None:
        """Try the displays that stopped answering again, with doubling backoff."""
        for index, (at, delay) in list(self._retry.items()):
            if at > now:
                continue
            if self.hal.seats[index].display.retry():
                del self._retry[index]
            else:
                delay = min(delay * 2, RETRY_MAX_S)
                self._retry[index] = (now + delay, delay)

    def refresh(self) -> None:
        """Send each display its frame if its view changed, most urgent first; dim; seat
        LEDs (after the most urgent frame); schedule a retry for any display that did
        not answer.

        A frame is rendered before the journal's sync is waited for (the two overlap),
        and sent only after it. When an event arrives meanwhile, the remaining displays
        wait (:attr:`refresh_pending`) and the loop handles the event first.
        """
        ctl = self.controller
        seats = self.hal.seats
        for seat in seats:
            seat.display.dim(ctl.shell.dimmed)  # the display keeps the state: nothing if unchanged
        events = self.hal.events
        order = self._urgency()
        ui = ctl.ui()
        self.refresh_pending = False
        for n, index in enumerate(order):
            seat = seats[index]
            view = self.game.seat_view(ui, index)
            shown = self._shown[index]
            if self._ahead is not None and index == self._ahead[0]:
                foreseen_state, self._ahead = self._ahead[1], None
                if shown is not None and shown[0] != view and ui.state == foreseen_state:
                    self.foreseen_wrong += 1
                    log.info("%s: the frame foreseen for its press was not its frame after "
                             "it", seat_name(index))  # fmt: skip
            pages = image = None
            if shown is None or shown[0] != view:  # drawn while the sync runs
                pages = None if self.on_frame else self._pages(view)
                image = self.render(view) if pages is None else None
            if pages is not None and seat.display.show_pages(
                pages, functools.partial(self.render, view), self.saved
            ):  # planned while the sync runs too, sent once it is done
                self._shown[index] = (view, None)
                self.frames += 1
            else:
                notice = None if self.saved() else NOT_SAVED  # (after the action is on disk)
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
            if n == 0:
                self._set_leds()
            self._play_due_cue()
            if n + 1 < len(order) and not events.empty():
                self.refresh_pending = True  # the next event first, then the rest
                return
        if not order:  # (no display at all)
            self._set_leds()
        self._play_due_cue()
        self._urgent = None

    def _set_leds(self) -> None:
        """Each seat's LED as :meth:`led_on` says (after the most urgent frame: the
        press shows on its glass first)."""
        for index, seat in enumerate(self.hal.seats):
            if seat.led is not None:
                on = self.led_on(index)
                if on != self._leds[index]:
                    seat.led.set(on)
                    self._leds[index] = on

    def saved(self) -> bool:
        """Wait until every journaled action is on disk: True when it was saved (a
        frame may show it as it is), False when the journal cannot save. Nothing shows
        or reports an action before this returns (the glass, the link's events and
        replies) but a press's own frame drawn ahead (:meth:`show_ahead`)."""
        self.journal.wait()
        return self.journal.saving

    def _urgency(self) -> list[int]:
        """Seat indices, most urgent first: the seat that pressed, the seat the game
        waits for, then the others in seat order."""
        order = list(range(len(self.hal.seats)))
        st = self.controller.state
        waiting = None if st is None else self.game.waiting_seat(st)
        for first in (waiting, self._urgent):
            if first is not None and first in order:
                order.remove(first)
                order.insert(0, first)
        return order

    def led_on(self, seat: int) -> bool:
        """A seat's LED lights while the game waits for that seat."""
        st = self.controller.state
        return st is not None and seat < st.players and self.game.waiting_seat(st) == seat


class FramePages:
    """Any game's view → its frame as panel bytes (unrotated panel RAM order): the
    game's own ``render_pages`` where it keeps them, else its image drawn and packed,
    kept for the last :data:`KEPT_FRAMES` such views: a frame drawn ahead
    (:mod:`.lookahead`) or shown before costs a press a look-up."""

    def __init__(self, render: Callable[[Any], Any], pages: Callable[[Any], bytes | None]) -> None:
        self._render, self._pages = render, pages
        self._kept = functools.lru_cache(maxsize=KEPT_FRAMES)(self._draw)
        #: Frames drawn elsewhere (:meth:`give`), by view; how many were looked up.
        self._given: dict[Any, bytes] = {}
        self.given_used = 0

    def _draw(self, view: Any) -> bytes:
        return pack_frame(self._render(view))

    def __call__(self, view: Any) -> bytes:
        pages = self._pages(view)  # (the game keeps its own)
        if pages is not None:
            return pages
        try:
            given = self._given.get(view)
        except TypeError:  # a view that is no value: drawn every time
            return self._draw(view)
        if given is not None:
            self.given_used += 1
            return given
        return self._kept(view)

    def give(self, frames: dict[Any, bytes]) -> None:
        """Frames drawn elsewhere by the game's own renderer (the worker, after a bot's
        move: :func:`.lookahead.drawn_after`), looked up before drawing, until the next
        frames are given."""
        self._given = frames

    def forget(self) -> None:
        """Drop the frames kept (a test's way to draw everything anew)."""
        self._kept.cache_clear()


def _now() -> bool:
    """Ready at once (a frame that waits for nothing)."""
    return True


def _no_pages(view: SeatView) -> None:
    """No frame as bytes: the image path for every frame."""
    return None
