"""Nim, a test-only game behind the game seam (:mod:`firmware.games.game`): a pile of
stones, two seats take 1-3 in turn, who takes the last wins. Its own notation, state,
controls table, views (the screens' menu widget), controller and bot; registered by
the tests that use it with one registry line (``GAMES["nim"] = NIM``)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from PIL import Image, ImageChops

from firmware.games.game import Game, GameController
from firmware.games.game_ui import GameUi
from firmware.games.options import Option
from firmware.games.registry import game_question, next_game
from firmware.kernel.errors import IllegalActionError, MalformedActionError
from firmware.kernel.players import TERMINAL
from firmware.screens import MenuView, NotPlayingView, SeatView, render_seat
from firmware.settings import Timing
from firmware.unit.commands import (
    AskBot,
    ChooseGame,
    Command,
    Commit,
    RollOff,
    StartGame,
)
from firmware.unit.controls import CONTROLS as UNIT_CONTROLS
from firmware.unit.controls import END, THINKING
from firmware.unit.controls import legend as unit_legend
from firmware.unit.shell import RANK, Shell, ShellView, shell_view
from hal.events import Button, ButtonDown, Event

NAME = "nim"
HUMAN = "human"
MAX_TAKE = 3
PILE = 7
#: The controls table: (screen, button) -> what it does; the controller and the
#: legend both read it.
CONTROLS: dict[tuple[str, Button], str] = {
    ("setup", Button.CHIP): "game",
    ("setup", Button.YES): "play",
    ("play", Button.CHIP): "more",
    ("play", Button.YES): "take",
}


@dataclass(frozen=True, slots=True)
class Take:
    count: int


@dataclass(frozen=True, slots=True)
class NimState:
    players: int
    pile: int
    turn: int
    winner: int | None = None

    @property
    def game_over(self) -> bool:
        return self.winner is not None

    def legal_actions(self) -> list[Take]:
        return [] if self.game_over else [Take(n) for n in range(1, min(MAX_TAKE, self.pile) + 1)]

    def apply(self, action: Any) -> NimState:
        if action not in self.legal_actions():
            raise IllegalActionError(f"cannot {action!r} from a pile of {self.pile}")
        pile = self.pile - action.count
        return replace(self, pile=pile, turn=1 - self.turn, winner=self.turn if pile == 0 else None)

    def actor(self, action: Any) -> int | None:
        return self.turn

    def current_player(self) -> int:
        return TERMINAL if self.game_over else self.turn

    def chance_outcomes(self) -> list[tuple[Take, float]]:
        return []  # no dice in Nim

    def to_json(self) -> dict[str, Any]:
        return {"pile": self.pile, "turn": self.turn, "winner": self.winner}


@dataclass(frozen=True, slots=True)
class NimSetup:
    players: int = 2
    seats: tuple[str, ...] = (HUMAN, HUMAN)
    pile: int = PILE


@dataclass(frozen=True, slots=True)
class NimHeader:
    players: int
    first: int
    seats: tuple[str, ...] | None
    pile: int = PILE

    @property
    def game(self) -> str:
        return NAME

    def initial_state(self) -> NimState:
        return NimState(self.players, self.pile, self.first)

    def to_json(self) -> dict[str, Any]:
        return {"game": NAME, "players": self.players, "first": self.first, "pile": self.pile,
                "seats": list(self.seats or ())}  # fmt: skip


@dataclass(frozen=True, slots=True)
class NimUi(GameUi):
    """The seam's UI state and what Nim adds: the count a seat will take, a message."""

    mode: str
    state: NimState | None
    count: int
    kinds: tuple[str, ...]
    shell: ShellView  #: the unit shell's part, as in every game

    def to_json(self) -> dict[str, Any]:
        return {**GameUi.to_json(self), "count": self.count}

    @classmethod
    def from_json(cls, obj: dict[str, Any], state: NimState | None) -> NimUi:
        return cls(obj["mode"], state, int(obj["count"]), tuple(obj["kinds"]),
                   ShellView.from_json(obj))  # fmt: skip


class NimController(GameController):
    """Set-up (the game question), roll-off (shown a second), play; the rest (the end
    screen too) is the unit's (:mod:`firmware.unit.shell`, :mod:`firmware.unit.end_screen`)."""

    def __init__(self, seats: int, timing: Timing, defaults: NimSetup, *,
                 preset: NimSetup | None = None, now: float = 0.0) -> None:  # fmt: skip
        self.defaults, self.preset = defaults, preset
        self.mode = "setup"
        self.state: NimState | None = None
        self.kinds: tuple[str, ...] = ()
        self.count = 1
        self.shell = Shell(timing, now)
        self._start: tuple[NimSetup, int] | None = None
        #: the one timer: the roll-off shown, then the game starts
        self.timers: dict[str, float] = {}

    @property
    def finished(self) -> bool:
        return self.mode == "play" and self.state is not None and self.state.game_over

    def ui(self) -> NimUi:
        return NimUi(self.mode, self.state, self.count, self.kinds, self.shell.view())

    def next_deadline(self) -> float | None:
        return self.shell.next_deadline(self.timers.values())

    def due(self, now: float) -> bool:
        return self.shell.due(now, self.timers.values())

    def start_setup(self, now: float) -> list[Command]:
        self.mode, self.state = "setup", None
        return [RollOff(self.preset)] if self.preset is not None else []

    def show_rolloff(self, rounds: Sequence[dict[int, int]], first: int, setup: Any,
                     now: float) -> None:  # fmt: skip
        self.mode, self._start = "rolloff", (setup, first)
        self.timers["rolloff"] = now + 1.0

    def begin(self, state: Any, kinds: Sequence[str], now: float) -> list[Command]:
        self.mode, self.state, self.kinds, self.count = "play", state, tuple(kinds), 1
        return self._ask_bot()

    def handle(self, event: Event, now: float) -> list[Command]:
        if self.shell.takes(event, now) or not isinstance(event, ButtonDown):
            return []
        st = self.state
        screen = "over" if self.finished else self.mode
        does = CONTROLS.get((screen, event.button))
        if does == "game":
            return [ChooseGame(next_game(NAME))]
        if does == "play":
            return [RollOff(self.defaults)]
        if st is None or (does in ("more", "take") and event.seat != st.turn):
            return []
        if does == "more":
            self.count = self.count % min(MAX_TAKE, st.pile) + 1
        elif does == "take":
            return [Commit(Take(self.count))]
        return []

    def tick(self, now: float) -> list[Command]:
        timer = self.shell.take_due(now, self.timers, self.mode == "play", lambda t: (RANK, t))
        if timer == "rolloff" and self.mode == "rolloff" and self._start is not None:
            setup, first = self._start
            return [StartGame(setup, first)]
        return []

    def committed(self, action: Any, state: Any, now: float) -> list[Command]:
        self.state, self.count = state, 1
        return self._ask_bot()

    def hinted(self, seat: int, action: Any, now: float) -> list[Command]:
        return []  # Nim asks for no hint

    def _ask_bot(self) -> list[Command]:
        st = self.state
        if st is None or st.game_over or self.is_human(st.turn):
            return []
        return [AskBot(st.turn)]


class PerfectBot:
    """Leaves a multiple of four when it can."""

    def decide(self, state: NimState) -> Take:
        return Take(state.pile % (MAX_TAKE + 1) or 1)


def legend(screen: str) -> tuple[tuple[str, str], ...]:
    return tuple((button.name, does) for (where, button), does in CONTROLS.items()
                 if where == screen)  # fmt: skip


class Nim(Game):
    """Nim on the seam's defaults (a line per action in a demo), with one set-up
    option: the pile's size."""

    name = NAME
    title = "Nim"
    seats = range(2, 3)
    levels = ("perfect",)
    controls: Mapping[Any, Any] = CONTROLS
    selfplay_games = 100
    options = (Option("pile", int, PILE, "stones", range(1, 31)),)
    slow_work: frozenset[str] = frozenset()

    @staticmethod
    def render(view: Any) -> Image.Image:
        """Its own look: the screens' menu widgets, inverted."""
        return ImageChops.invert(render_seat(view).convert("L")).convert("1")

    @staticmethod
    def render_pages(view: Any) -> None:
        return None

    def header(self, setup: NimSetup, first: int) -> NimHeader:
        return NimHeader(setup.players, first, setup.seats, setup.pile)

    def header_from_json(self, obj: Any) -> NimHeader:
        if set(obj) != {"game", "players", "first", "pile", "seats"}:
            raise MalformedActionError(f"nim header: keys {sorted(obj)}")
        return NimHeader(obj["players"], obj["first"], tuple(obj["seats"]), obj["pile"])

    def state_from_json(self, obj: Any) -> NimState:
        return NimState(2, obj["pile"], obj["turn"], obj["winner"])

    def action_from_json(self, obj: Any) -> Take:
        if not isinstance(obj, dict) or obj.get("action") != "take":
            raise MalformedActionError(f"nim: not an action: {obj!r}")
        return Take(obj["count"])

    def action_to_json(self, action: Take) -> dict[str, Any]:
        return {"action": "take", "count": action.count}

    def action_text(self, action: Take) -> str:
        return f"take {action.count}"

    def result(self, state: NimState) -> tuple[int, ...]:
        return () if state.winner is None else (state.winner,)

    def header_text(self, header: NimHeader) -> str:
        return f"{header.players} players, a pile of {header.pile}, seat {header.first + 1} started"

    def table_picture(self, state: NimState) -> None:
        return None

    def describe(self, state: NimState) -> list[str]:
        return [f"pile {state.pile}, seat {state.turn + 1} to take"]

    def setup_for(self, seats: Sequence[str]) -> NimSetup:
        return NimSetup(len(seats), tuple(seats))

    def default_setup(self, seats: int) -> NimSetup:
        return NimSetup()

    def random_setup(self, rng: random.Random) -> NimSetup:
        return self.setup_for(self.levels * 2)

    def setup_options(self, setup: NimSetup) -> dict[str, Any]:
        return {"pile": setup.pile}

    def with_options(self, setup: NimSetup, values: Mapping[str, Any]) -> NimSetup:
        return replace(setup, pile=values.get("pile", setup.pile))

    def controller(self, seats: int, timing: Timing, defaults: NimSetup, *,
                   preset: NimSetup | None = None, now: float = 0.0) -> NimController:  # fmt: skip
        return NimController(seats, timing, defaults, preset=preset, now=now)

    def ui_from_json(self, obj: dict[str, Any], state: NimState | None) -> NimUi:
        return NimUi.from_json(obj, state)

    def seat_view(self, ui: NimUi, seat: int) -> SeatView:
        over = shell_view(ui.shell, seat, lambda: self.title)
        if over is not None:
            return over
        if ui.mode == "setup":
            titles, value = game_question(NAME) or ((self.title,), 0)
            return MenuView("GAME", titles, value, legend("setup"))
        st = ui.state
        if ui.mode != "play" or st is None:
            return MenuView("NIM", ("who starts?",), 0, ())
        if seat >= st.players:
            return NotPlayingView()
        if st.game_over:
            keys = unit_legend(UNIT_CONTROLS[END])  # the unit's end screen, as in every game
            return MenuView("NIM", (f"seat {st.winner + 1} won",), 0, keys)
        mine = seat == st.turn
        lines = (f"pile {st.pile}", f"take {ui.count}" if mine else f"seat {st.turn + 1} takes")
        keys = legend("play") if mine else ()
        if mine and ui.kinds[seat] != HUMAN:
            keys = unit_legend(THINKING)  # the unit's, as in every game
        return MenuView("NIM", lines, 1 if mine else 0, keys)

    def make_bot(self, kind: str, seat: int, rng: random.Random,
                 table: Sequence[str]) -> PerfectBot:  # fmt: skip
        return PerfectBot()

    def presses_for(self, ui: NimUi, seat: int, action: Take) -> tuple[Button, ...] | None:
        """CHIP steps the count to take (1 up to 3, round again), YES takes it."""
        st = ui.state
        if ui.mode != "play" or st is None or st.game_over or seat != st.turn:
            return None
        steps = (action.count - ui.count) % min(MAX_TAKE, st.pile)
        return (Button.CHIP,) * steps + (Button.YES,)

    def interject(self, bot: Any, state: Any, seat: int) -> Any:
        return None

    def cue(self, before: Any, action: Any, after: Any) -> None:
        return None

    def review(self, header: Any, lines: Sequence[str], humans: list[int]) -> dict[int, str]:
        return {}

    def review_game(self, header: Any, actions: Sequence[Any]) -> None:
        return None  # Nim has no review


NIM = Nim()
