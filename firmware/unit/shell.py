"""The unit shell: what the unit does toward its players the same way in every game.

A game's controller (:class:`~firmware.games.game.GameController`) handles its play; it
holds a :class:`Shell` (its ``shell``) for the rest and hands it every input event
first (:meth:`Shell.takes`) and its timers (:meth:`Shell.take_due`):

- idle: no input for ``Timing.dim_after`` dims the displays, ``screensaver_after``
  starts the screensaver (its content moves every ``saver_step``). A press on a dimmed
  screen (still readable) brightens it and acts as usual; the press that wakes the
  screensaver does nothing else, nor does its hold (:meth:`Shell.swallowed`);
- the burn-in pixel shift: every ``shift_every``, but during play only at a moment
  without input for :data:`SHIFT_QUIET_S` (a shift redraws every panel);
- unit messages on every display, for ``message_show`` or until a press; a press while
  one is up only dismisses it (as the controls table says);
- the end screen's short reviews, per human seat (:meth:`Shell.ask_reviews`), and the
  set-up a rematch plays again (:attr:`Shell.played`); its keys (YES rematch, NO new
  game) the unit answers in every game (:mod:`.end_screen`).

What a game's UI state carries of it is one frozen :class:`ShellView` (:meth:`Shell.view`,
its link JSON written once); the screens on top of a game's (:func:`shell_view`): the
screensaver, then a message. A bot's seat on its turn says the unit's
:data:`~.controls.THINKING`, whatever the game.
"NOT SAVED" is stamped on every frame by the loop (:mod:`.refresh`), whatever the game.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import Enum
from itertools import chain
from typing import Any, TypeVar

from firmware.kernel.seats import seat_name
from firmware.screens import MenuView, SaverView, SeatView, pixel_shift
from firmware.settings import Timing
from hal.events import Button, ButtonDown, ButtonUp, Event, LongPress, RollRequested, ShakeStarted

from .controls import CONTROLS, Do, Part, Screen, does, legend

log = logging.getLogger(__name__)

#: During play the burn-in shift waits for this long without input (see :meth:`Shell.take_due`).
SHIFT_QUIET_S = 10.0
#: The shell's timers rank among a controller's due at the same instant (lower first).
RANK = 5
#: Input that wakes the displays (and restarts the idle timers).
WAKING = (ButtonDown, ShakeStarted, RollRequested)

Reviewer = Callable[[list[int]], dict[int, str]]
T = TypeVar("T")


class ShellTimer(Enum):
    """The shell's timers (log name; ties at one instant fire in name order)."""

    MESSAGE = "message"
    DIM = "dim"
    SAVER = "saver"
    SAVER_STEP = "saver-step"
    SHIFT = "shift"

    def __repr__(self) -> str:
        return f"<Timer {self.value}>"


#: A due timer's order: (time, rank, name), as a controller orders its own.
DueKey = tuple[float, int, str]


def _first(due: Iterable[tuple[DueKey, T]]) -> tuple[DueKey, T] | None:
    """The timer due first of ``due`` ((time, rank, name), timer), if any."""
    return min(due, key=lambda d: d[0], default=None)


def by_value(timer: Any) -> tuple[int, str]:
    """A game timer's order among those due at one instant: the shell's rank, its
    name its (enum) value."""
    return RANK, timer.value


@dataclass(frozen=True, slots=True)
class ShellView:
    """The shell's part of every game's UI state (its ``shell``, :meth:`Shell.view`): what
    the displays show of it and the link's ``ui`` op sends of it (:meth:`to_json`)."""

    message: tuple[str, ...] | None = None
    dimmed: bool = False
    saver: bool = False
    saver_counter: int = 0
    shift_counter: int = 0
    #: (seat, the end screen's short review of its play), by seat
    reviews: tuple[tuple[int, str], ...] = ()

    def review(self, seat: int) -> str:
        """``seat``'s short review on the end screen ("": none, or not yet)."""
        return next((text for s, text in self.reviews if s == seat), "")

    def extras(self, seat: int) -> list[str]:
        """What the shell puts on ``seat``'s display besides the game, in words."""
        parts = [f"message={list(self.message)}"] if self.message is not None else []
        parts += ["saver=True"] if self.saver else []
        return parts + ([f"review={r!r}"] if (r := self.review(seat)) else [])

    def bare(self) -> ShellView:
        """Nothing up but the burn-in shift."""
        return ShellView(shift_counter=self.shift_counter)

    def to_json(self) -> dict[str, Any]:
        """Its fields of the link's ``ui`` (docs/LINK.md), beside the game's own."""
        return {"message": None if self.message is None else list(self.message),
                "saver": self.saver, "saver_counter": self.saver_counter,
                "dimmed": self.dimmed, "shift_counter": self.shift_counter,
                "reviews": [[seat, text] for seat, text in self.reviews]}  # fmt: skip

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ShellView:
        """The shell's part of a ``ui`` reply (a field an older unit did not send: its
        default)."""
        message = data.get("message")
        return cls(
            message=None if message is None else tuple(message),
            dimmed=bool(data.get("dimmed", False)),
            saver=bool(data.get("saver", False)),
            saver_counter=int(data.get("saver_counter", 0)),
            shift_counter=int(data.get("shift_counter", 0)),
            reviews=tuple((int(seat), str(text)) for seat, text in data.get("reviews", [])),
        )


#: The shell with nothing up (a UI state's default ``shell``).
NOTHING_UP = ShellView()


class Shell:
    """The shell's state for one controller; see the module docstring."""

    def __init__(self, timing: Timing, now: float) -> None:
        self.timing = timing
        self.message: tuple[str, ...] | None = None
        self.dimmed = False
        self.saver = False
        self.saver_counter = 0
        self.shift_counter = 0
        self.last_input = now
        #: The end screen's short review per human seat (see :meth:`ask_reviews`).
        self.reviews: dict[int, str] = {}
        #: Reviews the game just finished for the human seats given (set by the host,
        #: which has the game's lines: the unit's journal, the replayed transcript).
        self.reviewer: Reviewer | None = None
        #: The set-up of the game on the table, which a rematch plays again (set by the
        #: unit when it begins a game, or from the journal's header when it resumes one).
        self.played: Any = None
        self.timers: dict[ShellTimer, float] = {}
        #: Buttons held whose press did something else than its own: their hold does nothing.
        self._swallow: set[tuple[int, Button]] = set()
        self._plan_idle(now)
        self.timers[ShellTimer.SHIFT] = now + timing.shift_every

    # ------------------------------------------------------------------ queries
    def view(self) -> ShellView:
        """What the displays show of the shell now, as one frozen value."""
        return ShellView(self.message, self.dimmed, self.saver, self.saver_counter,
                         self.shift_counter, tuple(sorted(self.reviews.items())))  # fmt: skip

    def next_deadline(self, game: Iterable[float] = ()) -> float | None:
        """The earliest of the shell's timers and the game's (``game``)."""
        return min(chain(self.timers.values(), game), default=None)

    def due(self, now: float, game: Iterable[float] = ()) -> bool:
        """A timer of the shell's or of the game's (``game``) is due at ``now``."""
        return any(at <= now for at in chain(self.timers.values(), game))

    def swallowed(self, seat: int, button: Button) -> bool:
        """``seat``'s ``button`` is held after a press the shell (or the game, :meth:`swallow`)
        took for something else: its hold does nothing."""
        return (seat, button) in self._swallow

    # ------------------------------------------------------------------- input
    @property
    def woken_by_press(self) -> bool:
        """A press now changes what the shell shows, whoever presses: it brightens
        dimmed displays, stops the screensaver or takes a message off."""
        return self.dimmed or self.saver or self.message is not None

    def takes(self, event: Event, now: float) -> bool:
        """The shell's part of an input event; True: it took the event (the game does
        nothing with it). Any press, shake or roll wakes the displays; only a press
        that woke the screensaver, a press on a message and the hold of a swallowed
        press are taken."""
        if isinstance(event, ButtonUp):
            self._swallow.discard((event.seat, event.button))
            return False
        if isinstance(event, LongPress):
            return self.swallowed(event.seat, event.button)
        if not isinstance(event, WAKING):
            return False
        if self.wake(now) and isinstance(event, ButtonDown):
            self.swallow(event.seat, event.button)
            log.debug("%s %s woke the screensaver (press swallowed)", seat_name(event.seat),
                      event.button)  # fmt: skip
            return True
        if isinstance(event, ButtonDown) and self.message is not None:
            if does(CONTROLS[Screen.MESSAGE, Part.ANY], event.button) is Do.DISMISS:
                self.clear_message()
            return True
        return False

    def swallow(self, seat: int, button: Button) -> None:
        """The press of ``seat``'s ``button`` did something else (it woke the screensaver,
        it said "read"): its hold does nothing either."""
        self._swallow.add((seat, button))

    def wake(self, now: float) -> bool:
        """Note input: the displays brighten, the screensaver stops, the idle timers
        start again. True when the screensaver was on (the press is swallowed)."""
        self.last_input = now
        was_saving = self.saver
        self.dimmed = self.saver = False
        self.timers.pop(ShellTimer.SAVER_STEP, None)
        self._plan_idle(now)
        return was_saving

    # ----------------------------------------------------------------- messages
    def show_message(self, lines: tuple[str, ...] | list[str], now: float, *,
                     until_press: bool = False) -> None:  # fmt: skip
        """A unit message on every display for ``Timing.message_show`` seconds, or
        ``until_press``; any button (as the controls table says) dismisses it."""
        self.message = tuple(lines)
        self.timers.pop(ShellTimer.MESSAGE, None)
        if not until_press:
            self.timers[ShellTimer.MESSAGE] = now + self.timing.message_show

    def clear_message(self) -> None:
        self.message = None
        self.timers.pop(ShellTimer.MESSAGE, None)

    # ------------------------------------------------------------------ reviews
    def ask_reviews(self, humans: list[int]) -> None:
        """A game just ended: its short review for each of ``humans`` by the
        :attr:`reviewer` (none yet when it has them worked out beside the loop:
        :meth:`reviewed` brings them)."""
        reviewer = self.reviewer
        self.reviews = reviewer(humans) if humans and reviewer is not None else {}

    def reviewed(self, reviews: dict[int, str]) -> None:
        """The reviews worked out beside the loop, for the end screen shown now."""
        self.reviews = dict(reviews)

    # ------------------------------------------------------------------- timers
    def take_due(self, now: float, timers: dict[T, float], playing: bool,
                 order: Callable[[T], tuple[int, str]] = by_value) -> T | None:  # fmt: skip
        """The game's timer to fire at ``now``, taken off its ``timers`` (None: none is
        due, or the shell's earliest due one came first and fired here). ``playing``: a
        game is on the displays (the shift waits for quiet); ``order``: a game timer's
        (rank, name), which orders the timers due at one instant, the shell's too."""
        game = _first(((at, *order(t)), t) for t, at in timers.items() if at <= now)
        shell = _first(((at, RANK, t.value), t) for t, at in self.timers.items() if at <= now)
        if shell is not None and (game is None or shell[0] <= game[0]):
            del self.timers[shell[1]]
            self._fire(shell[1], now, playing)
            return None
        if game is None:
            return None
        del timers[game[1]]
        return game[1]

    def _fire(self, timer: ShellTimer, now: float, playing: bool) -> None:
        t = self.timing
        if timer is ShellTimer.MESSAGE:
            self.message = None
        elif timer is ShellTimer.DIM:
            self.dimmed = True
        elif timer is ShellTimer.SAVER:
            self.saver = True
            self.timers[ShellTimer.SAVER_STEP] = now + t.saver_step
        elif timer is ShellTimer.SAVER_STEP and self.saver:
            self.saver_counter += 1
            self.timers[ShellTimer.SAVER_STEP] = now + t.saver_step
        elif timer is ShellTimer.SHIFT:
            # A shift redraws every panel (~800 bytes each): keep it away from play, at
            # a moment without input for SHIFT_QUIET_S (else try again then).
            quiet_at = self.last_input + SHIFT_QUIET_S
            if playing and not self.dimmed and now < quiet_at:
                self.timers[ShellTimer.SHIFT] = quiet_at
            else:
                self.shift_counter += 1
                self.timers[ShellTimer.SHIFT] = now + t.shift_every

    def _plan_idle(self, now: float) -> None:
        t = self.timing
        self.timers.pop(ShellTimer.DIM, None)
        self.timers.pop(ShellTimer.SAVER, None)
        if t.dim_after > 0:
            self.timers[ShellTimer.DIM] = now + t.dim_after
        if t.screensaver_after > 0:
            self.timers[ShellTimer.SAVER] = now + t.screensaver_after


def shell_view(ui: ShellView, seat: int, saver_text: Callable[[], str]) -> SeatView | None:
    """What the shell (``ui``: a game's UI state's ``shell``) puts on ``seat``'s display
    over the game's screens: the screensaver (``saver_text()`` wandering), else a unit
    message; None: the game's."""
    if ui.saver:
        return SaverView(ui.saver_counter * 5 + seat * 17, saver_text())
    if ui.message is not None:
        title, *lines = ui.message
        keys = legend(CONTROLS[Screen.MESSAGE, Part.ANY])
        return MenuView(title, tuple(lines), 0, keys, False, pixel_shift(ui.shift_counter))
    return None
