"""Display refresh and retries: each seat's frame sent when its view changed, most
urgent first, after the journal's sync; a display that stopped answering retried with
doubling backoff; the sound cue played once the most urgent display has its frame.

A mixin of :class:`~firmware.unit.loop.Unit` (it owns the attributes declared here).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any

from firmware.games.game import Game, GameController
from firmware.screens import SeatView
from firmware.screens.notice import with_notice
from hal.interfaces import Hal

from .journal import Journal
from .sounds import TUNES, Cue

log = logging.getLogger("firmware.unit.loop")

#: Retrying a display that stopped answering: first after this, doubling up to the max.
RETRY_FIRST_S = 0.25
RETRY_MAX_S = 30.0
#: Stamped on every frame while the journal cannot save the game.
NOT_SAVED = "NOT SAVED"


class DisplayRefresh:
    """Frames, LEDs, retries and cues of :class:`~firmware.unit.loop.Unit`."""

    hal: Hal
    clock: Any
    controller: GameController
    journal: Journal
    render: Callable[[SeatView], Any]
    _pages: Callable[[SeatView], bytes | None]
    frames: int
    on_frame: list[Callable[[int, Any], None]]
    _shown: list[tuple[SeatView, str | None] | None]
    _retry: dict[int, tuple[float, float]]
    _leds: list[bool | None]
    _urgent: int | None
    refresh_pending: bool
    _unplayable: set[Cue]
    _cue_due: Cue | None
    game: Game

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
        """Each seat's LED as :meth:`_led_on` says (after the most urgent frame: the
        press shows on its glass first)."""
        for index, seat in enumerate(self.hal.seats):
            if seat.led is not None:
                on = self._led_on(index)
                if on != self._leds[index]:
                    seat.led.set(on)
                    self._leds[index] = on

    def saved(self) -> bool:
        """Wait until every journaled action is on disk: True when it was saved (a
        frame may show it as it is), False when the journal cannot save. Nothing shows
        or reports an action before this returns: the glass, the link's events and
        replies."""
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

    def _led_on(self, seat: int) -> bool:
        """A seat's LED lights while the game waits for that seat."""
        st = self.controller.state
        return st is not None and seat < st.players and self.game.waiting_seat(st) == seat


def _no_pages(view: SeatView) -> None:
    """No frame as bytes: the image path for every frame."""
    return None
