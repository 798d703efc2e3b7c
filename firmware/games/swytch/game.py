"""Swytch behind the game seam (:class:`firmware.games.game.Game`): its header (line 1 of
a transcript, ``"game": "swytch"`` and the option ``ranks``), its notation as action lines,
its states, bots, views and controls. Nothing here decides a rule: it points."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from PIL import Image

from firmware.games.game import REVIEW, Game
from firmware.jsonsafe import short_repr
from firmware.kernel.errors import MalformedActionError
from firmware.kernel.players import seats_from_json
from firmware.screens import SeatView, render_seat
from firmware.settings import Timing
from hal.events import Button

from .actions import Action
from .board import DEFAULT_RANKS, MAX_RANKS, MIN_RANKS, SIDE_NAMES
from .bots import LEVELS as BOT_CLASSES
from .bots import MediumBot, SwytchBot
from .controller import SwytchController
from .controls import CHIP, CONTROLS, presses_for
from .fen import to_fen
from .notation import format_action, parse_action
from .options import OPTIONS
from .screens import BoardView, EndView, OnlookerView, SwytchView
from .screens import render as render_swytch
from .screens.render import board_image
from .seat_views import seat_view
from .setup import LEVELS, NAME, SwytchSetup
from .sounds import TUNES, cue_for
from .state import State
from .ui_state import SwytchUi

if TYPE_CHECKING:
    from .review import SwytchReview

#: The end screen's short review searches each decision at the ``medium`` level's budget
#: (a 25-decision game: 0.4 s of CPU here, some 10 s beside the loop on a Zero; the full
#: budget of ``switch16 review`` takes 14 times that).
SHORT_REVIEW_NODES = MediumBot.NODES
#: The set-up menu's bot levels -> the bots that play them (:mod:`.bots`).
BOTS: dict[str, type[SwytchBot]] = {level: BOT_CLASSES[level] for level in LEVELS}
_HEADER_KEYS = ("game", "players", "first", "ranks", "seats")


@dataclass(frozen=True, slots=True)
class SwytchHeader:
    """Line 1 of a Swytch transcript: who starts (0 South, 1 North), the board's ranks
    and who plays each side."""

    first: int
    ranks: int = DEFAULT_RANKS
    seats: tuple[str, ...] | None = None

    @property
    def game(self) -> str:
        return NAME

    @property
    def players(self) -> int:
        return 2

    def initial_state(self) -> State:
        return State.new(self.ranks, self.first)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"game": NAME, "players": 2, "first": self.first,
                               "ranks": self.ranks}  # fmt: skip
        if self.seats is not None:
            out["seats"] = list(self.seats)
        return out


def header_from_json(obj: Any) -> SwytchHeader:
    """A parsed header line; a ValueError says what is wrong, naming the key."""
    if not isinstance(obj, dict):
        raise ValueError(f"header: a Swytch header is an object, got {short_repr(obj)}")
    unknown = sorted(set(obj) - set(_HEADER_KEYS))
    if unknown:
        keys = ", ".join(_HEADER_KEYS)
        raise ValueError(f"header: {short_repr(unknown[0])} is not a Swytch key (keys: {keys})")
    if obj.get("players", 2) != 2:
        raise ValueError(
            f"header: 'players': Swytch is played by 2, got {short_repr(obj['players'])}"
        )
    first = obj.get("first")
    if first not in (0, 1) or type(first) is not int:
        raise ValueError(f"header: 'first' must be 0 (South) or 1 (North), got {short_repr(first)}")
    seats = seats_from_json(obj.get("seats"), 2)
    try:
        setup = SwytchSetup(ranks=obj.get("ranks", DEFAULT_RANKS))
    except ValueError as exc:
        raise ValueError(f"header: {exc}") from None
    return SwytchHeader(first, setup.ranks, seats)


def action_from_json(obj: Any) -> Action:
    """A parsed action line ``{"action": "c2 2 c3-c4"}``; NotationError names the token."""
    if not isinstance(obj, dict) or set(obj) != {"action"}:
        raise MalformedActionError(
            f'a Swytch action line is {{"action": text}}, got {short_repr(obj)}'
        )
    return parse_action(obj["action"])


def render(view: Any) -> Image.Image:
    """Swytch's views by its own screens; the set-up, roll-off and messages by the unit's."""
    if isinstance(view, BoardView | OnlookerView | EndView):
        return render_swytch(view)
    return render_seat(view)


def _no_pages(view: Any) -> None:
    return None


class Swytch(Game):
    """The two-player hex-board strategy game (docs/SWYTCH.md)."""

    name = NAME
    title = "Swytch"
    seats = range(2, 3)
    levels: tuple[str, ...] = LEVELS
    controls: Mapping[Any, Any] = CONTROLS
    selfplay_games = 10  #: a hard-vs-hard game takes seconds, not milliseconds
    #: every level but ``easy`` searches (seconds on a Zero), and so does the end
    #: screen's review (a search per decision)
    slow_work = frozenset(LEVELS) - {"easy"} | {REVIEW}
    holds_drawn_ahead = True  # a held CHIP says "HINT…"; the worker answers
    render = staticmethod(render)
    render_pages = staticmethod(_no_pages)
    tunes = TUNES
    options = OPTIONS

    # -- the game
    def header(self, setup: SwytchSetup, first: int) -> SwytchHeader:
        return SwytchHeader(first, setup.ranks, setup.seats)

    def header_from_json(self, obj: Any) -> SwytchHeader:
        return header_from_json(obj)

    def state_from_json(self, obj: Any) -> State:
        return State.from_json(obj)

    def action_from_json(self, obj: Any) -> Action:
        return action_from_json(obj)

    def action_to_json(self, action: Action) -> dict[str, Any]:
        return {"action": format_action(action)}

    def action_text(self, action: Action) -> str:
        return format_action(action)

    def result(self, state: State) -> tuple[int, ...]:
        return () if state.winner is None else (state.winner,)

    def header_text(self, header: SwytchHeader) -> str:
        return f"2 players, {header.ranks} ranks, {SIDE_NAMES[header.first]} started"

    def table_picture(self, state: State) -> Image.Image:
        """The whole board seen from South (at the bottom), as the zoom draws it."""
        return board_image(state.board, 0).copy()

    def describe(self, state: State) -> list[str]:
        out = [f"position {to_fen(state.board, state.to_move)}"]
        out += [f"{SIDE_NAMES[s]}: {state.counters(s)} counters" for s in (0, 1)]
        if state.winner is not None:
            out.append(f"won by {SIDE_NAMES[state.winner]}")
        elif state.draw is not None:
            out.append(f"draw: {state.draw}")
        else:
            quiet = f"{state.quiet} turn{'' if state.quiet == 1 else 's'} without a removal"
            out.append(f"{SIDE_NAMES[state.to_move]} to move ({quiet})")
        return out

    # -- the unit
    def setup_for(self, seats: Sequence[str]) -> SwytchSetup:
        return SwytchSetup(tuple(seats))

    def default_setup(self, seats: int) -> SwytchSetup:
        return SwytchSetup()

    def random_setup(self, rng: random.Random) -> SwytchSetup:
        """Either level on either side, every board size."""
        return SwytchSetup((rng.choice(LEVELS), rng.choice(LEVELS)),
                           rng.randint(MIN_RANKS, MAX_RANKS))  # fmt: skip

    def setup_options(self, setup: SwytchSetup) -> dict[str, Any]:
        return {"ranks": setup.ranks}

    def with_options(self, setup: SwytchSetup, values: Mapping[str, Any]) -> SwytchSetup:
        return replace(setup, ranks=values.get("ranks", setup.ranks))

    def rematch_starter(self, state: State) -> int | None:
        """The loser of the last game starts; after a draw a roll-off decides."""
        return None if state.winner is None else 1 - state.winner

    def controller(self, seats: int, timing: Timing, defaults: SwytchSetup, *,
                   preset: SwytchSetup | None = None,
                   now: float = 0.0) -> SwytchController:  # fmt: skip
        return SwytchController(seats, timing, defaults, preset=preset, now=now)

    def ui_from_json(self, obj: dict[str, Any], state: State | None) -> SwytchUi:
        return SwytchUi.from_json(obj, state)

    def seat_view(self, ui: SwytchUi, seat: int) -> SeatView | SwytchView:
        return seat_view(ui, seat)

    def make_bot(self, kind: str, seat: int, rng: random.Random,
                 table: Sequence[str]) -> SwytchBot:  # fmt: skip
        try:
            return BOTS[kind](seat, rng)
        except KeyError:
            raise ValueError(f"unknown Swytch level {kind!r} (one of {', '.join(BOTS)})") from None

    def presses_for(self, ui: SwytchUi, seat: int, action: Action) -> tuple[Button, ...] | None:
        """The picker's presses for ``action``, after a CHIP that takes the last turn off
        while ``seat`` reads it (None: no picker, a bot's turn or the end)."""
        if ui.picker is None:
            return None
        read = (CHIP,) if ui.last_for == seat else ()
        return (*read, *presses_for(ui.picker, action))

    def interject(self, bot: Any, state: State, seat: int) -> None:
        return None

    def cue(self, before: State, action: Action, after: State) -> str | None:
        return cue_for(before, action, after)

    def review(self, header: Any, lines: Sequence[str], humans: list[int]) -> dict[int, str]:
        from .review import review, short_text  # lazy: the search, only when asked

        actions = [action_from_json(json.loads(line)) for line in lines]
        rev = review(
            header, actions, seats=frozenset(humans), curve=False, nodes=SHORT_REVIEW_NODES
        )
        return {s: short_text(rev, s) for s in humans}

    def review_game(self, header: Any, actions: Sequence[Action]) -> SwytchReview:
        from .review import review  # lazy: the search, only when asked

        return review(header, actions)


GAME = Swytch()
