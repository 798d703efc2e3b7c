"""Switch 16 behind the game seam: its engine (:mod:`firmware.games.switch16.engine`), its unit UI
(:mod:`.controller`, :mod:`.seat_views`), its bots (:mod:`.bots`)
as one :class:`~firmware.games.game.Game`. Nothing here decides anything: it points."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import replace
from functools import cache
from typing import TYPE_CHECKING, Any

from firmware.games.game import REVIEW, Bot, Game
from firmware.games.hil_scenarios import Scenario
from firmware.games.switch16.setup import BOT_LEVELS, GameSetup
from firmware.games.switch16.ui_state import UiState
from firmware.kernel.seats import seat_name
from firmware.settings import Timing
from hal.events import Button

from .chance import chance_action, roll_from_dice
from .config import Switch16Timing
from .controller import Controller, waiting_seat
from .controls import CONTROLS
from .driver import steps
from .engine import COLOURS, Act, Action, State
from .engine.notation import (
    Header,
    action_from_json,
    action_to_json,
    header_from_json,
)
from .engine.rules import (
    CARDS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PRESETS,
)
from .game_views import short_review
from .hil_scenarios import scenarios
from .options import OPTIONS
from .presses import presses_for
from .screens import SeatView, render_pages, render_seat
from .seat_views import seat_view
from .sounds import TUNES, cue_for
from .table_status import table_status
from .transcript_lines import InPlaceReplay, parse_action
from .turn_log import TurnLog

if TYPE_CHECKING:
    from .bots.review import Review
    from .bots.stats.selfplay import Switch16Stats


#: Each seat alone (:meth:`Switch16.out_of_turn`).
_SEATS = tuple((seat,) for seat in range(MAX_PLAYERS))
_PLACE = Act.PLACE  # a module name: an enum member's lookup is slow on 3.11


@cache
def _bot_maker() -> Callable[..., Bot]:
    """The bots' factory, imported at the first bot (switch16's start-up loads no bot; an
    import statement a bot would cost self-play ~3 % of a run)."""
    from .bots import make_bot  # lazy: switch16's start-up (the first bot loads them)

    return make_bot


class Switch16(Game):
    """The dice-and-cards game the unit was built for (docs/RULES.md)."""

    name = Header.game
    title = "Switch 16"
    seats = range(MIN_PLAYERS, MAX_PLAYERS + 1)
    levels: tuple[str, ...] = BOT_LEVELS
    controls: Mapping[Any, Any] = CONTROLS
    selfplay_games = 1000
    selfplay_seats = ("expert", "rulebook", "rulebook", "rulebook")
    bot_level = "expert"
    dice_table = True
    tunes = TUNES
    demo_levels = ("expert", "rulebook", "easy", "expert")
    options = OPTIONS
    #: its bots answer within a press's time; the master's review does not
    slow_work = frozenset({REVIEW})
    render = staticmethod(render_seat)
    render_pages = staticmethod(render_pages)

    # -- the game
    def header(self, setup: GameSetup, first: int) -> Header:
        return Header(setup.players, first, setup.rules(), setup.seats)

    def header_from_json(self, obj: Any) -> Header:
        return header_from_json(obj)

    def state_from_json(self, obj: Any) -> State:
        return State.from_json(obj)

    def action_from_json(self, obj: Any) -> Action:
        return action_from_json(obj)

    def action_to_json(self, action: Action) -> dict[str, Any]:
        return action_to_json(action)

    def action_text(self, action: Action) -> str:
        return json.dumps(action_to_json(action), ensure_ascii=False)

    def result(self, state: State) -> tuple[int, ...]:
        return state.match_winners or (() if state.winner is None else (state.winner,))

    def header_text(self, header: Header) -> str:
        h = header
        extra = f", options {h.rules.options()}" if h.rules.options() else ""
        return f"{h.players} players, rules {h.rules.name}{extra}, {seat_name(h.first)} started"

    def table_picture(self, state: State) -> None:
        return None  # the simulator's table shows the dice and the chip

    def table_status(self, state: State, *, rolling: bool = False, shown: Any = None) -> str:
        return table_status(state, rolling=rolling, shown=shown)

    def describe(self, state: State) -> list[str]:
        """Seat-by-seat lines for a position."""
        out = []
        for seat in range(state.players):
            marks = []
            if state.chip_holder == seat:
                marks.append("holds the chip")
            if state.blocked(seat):
                marks.append("BLOCKED")
            if state.winner == seat:
                marks.append("WINNER")
            elif seat == state.turn and not state.game_over:
                marks.append(f"to move ({state.phase.value})")
            top = state.top_card(seat)
            top_text = f"all {CARDS} gone" if top > CARDS else f"top card {top:2d}"
            score = f", {state.scores[seat]} pts" if state.scores is not None else ""
            note = f"  [{', '.join(marks)}]" if marks else ""
            out.append(
                f"{seat_name(seat)}: {COLOURS[state.deck_of(seat)]:6} {top_text}{score}{note}"
            )
        if state.chip_holder is None and state.chip_on_seat is None:
            out.append("chip on the table")
        if state.match_winners:
            out.append("match won by " + ", ".join(map(seat_name, state.match_winners)))
        return out

    def selfplay_stats(self) -> Switch16Stats:
        """Turns, rolls, the switch faces that mattered, discards per turn."""
        from .bots.stats.selfplay import Switch16Stats  # lazy: loaded by selfplay only

        return Switch16Stats()

    def play_out(
        self, state: State, bots: Sequence[Any], rng: random.Random
    ) -> Iterator[tuple[Action, State]]:
        """The driver's steps (:func:`.driver.steps`): who acts read once a step from
        :meth:`State.actors`, one private copy of ``state`` changed in place."""
        return steps(state, bots, rng)

    def turn_log(self, names: tuple[str, ...]) -> TurnLog:
        return TurnLog(names)

    def setup_text(self, setup: GameSetup) -> str:
        return f"{setup.preset}{', points game' if setup.points else ''}"

    def fast_replay(self, initial: State) -> InPlaceReplay:
        return InPlaceReplay(initial)

    # -- the unit
    def setup_for(self, seats: Sequence[str]) -> GameSetup:
        return GameSetup.of(list(seats))

    def default_setup(self, seats: int) -> GameSetup:
        return GameSetup()

    def random_setup(self, rng: random.Random) -> GameSetup:
        """Mostly two seats; every preset; now and then a points match."""
        players = rng.choice([2, 2, 2, 2, 3, 4])
        return GameSetup.of([rng.choice(BOT_LEVELS) for _ in range(players)],
                            rng.choice(list(PRESETS)), points=rng.random() < 0.03)  # fmt: skip

    def setup_options(self, setup: GameSetup) -> dict[str, Any]:
        return {"rules": setup.preset, "points": setup.points}

    def setup_of(self, header: Header, seats: Sequence[str]) -> GameSetup:
        """The preset its rules name, a points match if they play one (the header keeps
        ``points`` among the rules' options)."""
        return GameSetup.of(list(seats), header.rules.name, header.rules.points)

    def with_options(self, setup: GameSetup, values: Mapping[str, Any]) -> GameSetup:
        return replace(setup, preset=values.get("rules", setup.preset),
                       points=values.get("points", setup.points))  # fmt: skip

    def controller(self, seats: int, timing: Timing, defaults: GameSetup, *,
                   preset: GameSetup | None = None, now: float = 0.0) -> Controller:  # fmt: skip
        return Controller(seats, timing, defaults, preset=preset, now=now)

    def ui_from_json(self, obj: dict[str, Any], state: State | None) -> UiState:
        return UiState.from_json(obj, state)

    def seat_view(self, ui: UiState, seat: int) -> SeatView:
        return seat_view(ui, seat)

    def waiting_seat(self, state: State) -> int | None:
        """The roller while chance rolls; no one while the unit discards for the seat."""
        return waiting_seat(state)

    #: The dice (or a match's next round) by the game's ``chance_action``: what the unit
    #: and the bots' runner have always drawn.
    draw_chance = staticmethod(chance_action)

    def chance_from_dice(self, obj: dict[str, Any]) -> Action:
        return roll_from_dice(obj)

    def make_bot(self, kind: str, seat: int, rng: random.Random, table: Sequence[str]) -> Bot:
        return _bot_maker()(kind, seat, rng, table=table)

    def presses_for(self, ui: UiState, seat: int, action: Action) -> tuple[Button, ...] | None:
        return presses_for(ui, seat, action)

    def hil_scenarios(self) -> list[Scenario]:
        return scenarios()

    def interject(self, bot: Any, state: State, seat: int) -> Action | None:
        place: Action | None = bot.interject(state)
        return place

    def out_of_turn(self, state: State) -> tuple[int, ...]:
        """The chip holder, while it may lay the chip (:meth:`State.actors`)."""
        if state.chip_holder is None:
            return ()
        first = state.actors()[:1]  # one who may lay the chip is asked first
        return _SEATS[first[0].seat] if first and first[0].act is _PLACE else ()

    def cue(self, before: State, action: Action, after: State) -> str | None:
        return cue_for(before, action, after)

    def roll_shown_for(self, timing: Timing) -> float:
        return timing.of(Switch16Timing).roll_show

    def review(self, header: Header, lines: Sequence[str], humans: list[int]) -> dict[int, str]:
        return short_review(header, [parse_action(line) for line in lines], humans)

    def review_game(self, header: Header, actions: Sequence[Action]) -> Review:
        from .bots.review import review  # lazy: the master's search, when asked

        return review(header, actions)


GAME = Switch16()
