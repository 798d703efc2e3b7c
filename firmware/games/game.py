"""The game seam: what the unit, its journal and its tools need from a game.

Modelled on OpenSpiel's ``Game``/``State``: a :class:`Game` names itself, says how many
seats it is played by, makes its set-up's initial state (through a :class:`GameHeader`,
line 1 of a transcript), reads and writes its actions (the transcript notation) and
tells a result; its states (:class:`GameState`) are immutable values that ``apply`` an
action and say who may act. On top, what a unit needs: the UI controller (buttons and
time -> commands; :class:`GameController`), the seat views drawn from it, the controls
table, the bots and their levels, the set-up.

Values that are the game's own (actions, set-ups, UI states) are ``Any`` here: only the
game's own modules look inside them. A game is registered in :mod:`.registry`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from PIL import Image

    from firmware.screens import SeatView
    from firmware.settings import Timing
    from firmware.unit.commands import Command
    from firmware.unit.sounds import Cue
    from hal.events import Event


#: :attr:`Game.slow_work`'s name for the end-of-game review (:meth:`Game.review`).
REVIEW = "review"


class GameState(Protocol):
    """One position: immutable; ``apply`` returns the next one, or raises
    :class:`~firmware.engine.errors.IllegalActionError` (the loop drops such an action)
    naming what is wrong, the state unchanged."""

    @property
    def players(self) -> int: ...

    @property
    def game_over(self) -> bool: ...

    def legal_actions(self) -> Sequence[Any]: ...

    def apply(self, action: Any) -> Any: ...

    def actor(self, action: Any) -> int | None:
        """The seat that takes ``action`` (None: the unit's chance or bookkeeping)."""
        ...

    def to_json(self) -> dict[str, Any]: ...


class GameHeader(Protocol):
    """Line 1 of a transcript: the game, its seats, who starts, its options."""

    @property
    def game(self) -> str:
        """The game's registry name (the header's ``game`` key)."""
        ...

    @property
    def players(self) -> int: ...

    @property
    def first(self) -> int: ...

    @property
    def seats(self) -> tuple[str, ...] | None:
        """Who plays each seat ("human" or a bot level), for the unit's journal."""
        ...

    def initial_state(self) -> Any: ...

    def to_json(self) -> dict[str, Any]: ...


class GameController(Protocol):
    """The unit's UI state machine for one game: events and time in, commands out."""

    state: Any
    #: Who plays each seat of the game shown ("human" or a bot level).
    kinds: tuple[str, ...]
    #: The set-up the menu starts from; a set-up that skips the menu (or None).
    defaults: Any
    preset: Any
    message: tuple[str, ...] | None
    reviewer: Callable[[list[int]], dict[int, str]] | None

    @property
    def finished(self) -> bool: ...

    @property
    def dimmed(self) -> bool: ...

    def ui(self) -> Any: ...

    def next_deadline(self) -> float | None: ...

    def due(self, now: float) -> bool: ...

    def start_setup(self, now: float) -> list[Command]: ...

    def show_rolloff(self, rounds: Sequence[dict[int, int]], first: int, setup: Any,
                     now: float) -> None: ...  # fmt: skip

    def begin(self, state: Any, kinds: Sequence[str], now: float) -> list[Command]: ...

    def show_message(self, lines: Sequence[str], now: float) -> None: ...

    def handle(self, event: Event, now: float) -> list[Command]: ...

    def tick(self, now: float) -> list[Command]: ...

    def committed(self, action: Any, state: Any, now: float) -> list[Command]: ...

    def hinted(self, seat: int, action: Any, now: float) -> list[Command]:
        """The unit's answer to the controller's ``AskHint``: the strongest bot's action
        for ``seat`` (a controller that never asks ignores it)."""
        ...

    def reviewed(self, reviews: dict[int, str], now: float) -> list[Command]:
        """The end-of-game reviews, when ``reviewer`` (it answered ``{}``) had them
        worked out beside the loop: the finished game's end screen shows them."""
        ...


class Bot(Protocol):
    """A computer player of a game."""

    def decide(self, state: Any) -> Any: ...


class Game(Protocol):
    """One game the unit plays; see the module docstring."""

    #: The transcript header's ``game`` key (and the registry's key).
    name: str
    #: Shown in the set-up menu.
    title: str
    #: How many seats may play it.
    seats: range
    #: Bot levels, weakest first (a seat is "human" or one of these).
    levels: tuple[str, ...]
    #: The controls table (what YES, NO and CHIP do, per screen), read by the controller,
    #: the legends and the link's harness.
    controls: Mapping[Any, Any]
    #: The unit's work for this game that is slow on a Zero, done beside the loop by
    #: its worker (:mod:`firmware.unit.thinking`): bot levels (their moves; a hint is
    #: the strongest level's) and :data:`REVIEW`. The rest runs in the loop.
    slow_work: frozenset[str]

    # -- the game (OpenSpiel's Game/State)
    def header(self, setup: Any, first: int) -> GameHeader:
        """A new game of ``setup`` (its set-up options) with ``first`` to start."""
        ...

    def header_from_json(self, obj: Any) -> GameHeader:
        """Read a parsed header line; a ValueError names the bad key."""
        ...

    def state_from_json(self, obj: Any) -> Any:
        """The position a state's full JSON object describes (like a FEN); a ValueError
        or :class:`~firmware.engine.errors.EngineError` names what is wrong."""
        ...

    def action_from_json(self, obj: Any) -> Any:
        """Read a parsed action line (its shape; legality is the state's)."""
        ...

    def action_to_json(self, action: Any) -> dict[str, Any]: ...

    def action_text(self, action: Any) -> str:
        """An action as a log line shows it (the sim's demo, a host's turn log)."""
        ...

    def result(self, state: Any) -> tuple[int, ...]:
        """The winning seats of a finished game (empty: nobody)."""
        ...

    def header_text(self, header: Any) -> str:
        """A header in words (``switch16 replay``): players, options, who started."""
        ...

    def describe(self, state: Any) -> list[str]:
        """A position as lines of text (``switch16 replay``)."""
        ...

    # -- the unit
    def setup_for(self, seats: Sequence[str]) -> Any:
        """A set-up (default options) for these seat kinds ("human" or bot levels)."""
        ...

    def default_setup(self, seats: int) -> Any:
        """The set-up the menu starts from on a unit with ``seats`` displays."""
        ...

    def controller(self, seats: int, timing: Timing, defaults: Any, *, preset: Any = None,
                   now: float = 0.0) -> GameController: ...  # fmt: skip

    def seat_view(self, ui: Any, seat: int) -> SeatView:
        """What ``seat``'s display shows for the controller's UI state."""
        ...

    #: A view -> the seat's 128x64 mode-"1" image (the game's own screens).
    render: Callable[[Any], Image.Image]
    #: A view -> its frame as panel bytes without drawing an image, where the game's
    #: screens keep them (its play screen); else None.
    render_pages: Callable[[Any], bytes | None]

    def waiting_seat(self, state: Any) -> int | None:
        """The seat the game waits for (its LED lights, its display is drawn first)."""
        ...

    def deciding_seat(self, state: Any) -> int | None:
        """The seat whose decision (a bot's, when it is one) the game needs now."""
        ...

    def chance(self, state: Any, seat: int, rng: random.Random,
               forced: Callable[[Any], Any | None]) -> Any | None:  # fmt: skip
        """``seat`` rolls now: the chance action (``forced`` offers a test mode's own
        choice first), or None when it is not that seat's roll."""
        ...

    def next_round(self, state: Any, first: int) -> Any | None:
        """The action that starts a match's next round with ``first``, if there is one."""
        ...

    def make_bot(self, kind: str, seat: int, rng: random.Random,
                 table: Sequence[str]) -> Bot: ...  # fmt: skip

    def interject(self, bot: Bot, state: Any, seat: int) -> Any | None:
        """A bot's move out of turn (Switch 16's chip), or None."""
        ...

    def cue(self, before: Any, action: Any, after: Any) -> Cue | None:
        """The buzzer's cue for an action, if any."""
        ...

    def review(self, header: Any, lines: Sequence[str], humans: list[int]) -> dict[int, str]:
        """The end screen's short review per human seat (may be empty)."""
        ...
