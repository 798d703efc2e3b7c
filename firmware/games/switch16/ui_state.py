"""Switch 16's UI state as one frozen value: what the displays show besides the engine state.

Switch 16's controller (:meth:`~firmware.games.game.GameController.ui`) takes it,
its :meth:`~firmware.games.game.Game.seat_view` draws from it, the link's ``ui`` op sends
:meth:`UiState.to_json` (docs/LINK.md) and a harness rebuilds it with
:meth:`UiState.from_json` over the position it replays.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from firmware.games.game_ui import GameUi
from firmware.unit.rolloff import RollOffShown
from firmware.unit.setup import Question
from firmware.unit.shell import NOTHING_UP, ShellView
from firmware.unit.ui_state import Mode

from .banners import RollShown
from .engine import State
from .setup import GameSetup, SetupMenu


@dataclass(frozen=True, slots=True)
class OpenMenu:
    """A seat's open menu: ``highlight`` indexes the game's choices
    (:func:`firmware.games.switch16.game_views.choices`)."""

    seat: int
    placing: bool  #: laying the chip (else the green / red menu of the turn)
    highlight: int


@dataclass(frozen=True, slots=True)
class SetupShown:
    """The set-up question on every display."""

    max_players: int
    setup: GameSetup
    index: int
    question: Question

    @classmethod
    def of(cls, menu: SetupMenu) -> SetupShown:
        return cls(menu.max_players, menu.setup, menu.index, menu.question)


@dataclass(frozen=True, slots=True)
class UiState(GameUi):
    """Everything a seat's view is drawn from: the engine ``state`` and the unit's UI."""

    mode: Mode
    state: State | None
    kinds: tuple[str, ...] = ()
    menus: tuple[OpenMenu, ...] = ()  #: by seat
    banners: tuple[tuple[int, tuple[str, ...]], ...] = ()  #: (seat, lines) by seat
    tumble: tuple[int, int] | None = None  #: (seat, animation frame) while dice tumble
    hints: tuple[int, ...] = ()  #: seats showing the odds hint
    roll_shown: RollShown | None = None
    shell: ShellView = NOTHING_UP
    setup: SetupShown | None = None  #: in mode setup
    rolloff: RollOffShown | None = None

    # ------------------------------------------------------------- per seat
    def menu(self, seat: int) -> OpenMenu | None:
        return next((m for m in self.menus if m.seat == seat), None)

    def banner(self, seat: int) -> tuple[str, ...]:
        return next((lines for s, lines in self.banners if s == seat), ())

    def extras(self, seat: int) -> list[str]:
        """What ``seat`` shows besides the engine state, in words (empty: plain play)."""
        parts = self.shell.extras(seat)
        m = self.menu(seat)
        parts += [f"menu={[m.placing, m.highlight]}"] if m is not None else []
        parts += [f"banner={list(b)}"] if (b := self.banner(seat)) else []
        if self.tumble is not None and self.tumble[0] == seat:
            parts.append(f"tumble={self.tumble[1]}")
        parts += ["odds"] if seat in self.hints else []
        if self.roll_shown is not None:
            parts.append(f"roll shown={self.roll_shown.outcome!r}")
        return parts

    def plain(self, seat: int) -> bool:
        """``seat`` shows nothing but the engine state (the game view of a bare
        :class:`~firmware.games.switch16.game_views.SeatUi`)."""
        st = self.state
        return (self.mode is Mode.PLAY and st is not None and seat < st.players
                and not self.extras(seat))  # fmt: skip

    def bare(self) -> UiState:
        """This game in play with nothing else up (the engine-only view)."""
        if self.state is None:
            return self
        return UiState.playing(self.state, self.kinds, self.shell.bare())

    @classmethod
    def playing(cls, state: State, kinds: tuple[str, ...],
                shell: ShellView = NOTHING_UP) -> UiState:  # fmt: skip
        """A game in play with nothing else up (but ``shell``)."""
        return cls(Mode.PLAY, state, kinds, shell=shell)

    # ----------------------------------------------------------------- JSON
    def to_json(self) -> dict[str, Any]:
        """The link's ``ui`` fields (docs/LINK.md); ``state`` is the engine's STATE JSON."""
        r, s, ro = self.roll_shown, self.setup, self.rolloff
        return {
            **GameUi.to_json(self),
            "menus": [[m.seat, m.placing, m.highlight] for m in self.menus],
            "banners": [[seat, list(lines)] for seat, lines in self.banners],
            "tumble": None if self.tumble is None else list(self.tumble),
            "hints": list(self.hints),
            "roll_shown": None if r is None else
            {"seat": r.seat, "dice": list(r.dice), "switch": r.switch, "outcome": r.outcome},
            "setup": None if s is None else
            {"players": s.max_players, "seats": list(s.setup.seats), "preset": s.setup.preset,
             "points": s.setup.points, "index": s.index, "title": s.question.title},
            "rolloff": None if ro is None else ro.to_json(),
        }  # fmt: skip

    @classmethod
    def from_json(cls, data: dict[str, Any], state: State | None) -> UiState:
        """The UI state of a :meth:`to_json` reply, over ``state`` (the position the
        receiver replayed itself; the reply's ``state`` is the unit's, to compare)."""
        r, s, ro = data.get("roll_shown"), data["setup"], data["rolloff"]
        setup = None
        if s is not None:
            menu = SetupMenu(GameSetup.of(s["seats"], s["preset"], s["points"]), s["players"])
            menu.index = int(s["index"])
            setup = SetupShown.of(menu)
        return cls(
            mode=Mode(data["mode"]),
            state=state,
            kinds=tuple(data["kinds"]),
            menus=tuple(OpenMenu(int(seat), bool(p), int(h)) for seat, p, h in data["menus"]),
            banners=tuple((int(seat), tuple(lines)) for seat, lines in data["banners"]),
            tumble=None if data["tumble"] is None else (int(data["tumble"][0]),
                                                        int(data["tumble"][1])),
            hints=tuple(int(seat) for seat in data["hints"]),
            roll_shown=None if r is None
            else RollShown(int(r["seat"]), tuple(r["dice"]), r["switch"], str(r["outcome"])),
            shell=ShellView.from_json(data),
            setup=setup,
            rolloff=None if ro is None else RollOffShown.from_json(ro),
        )  # fmt: skip
