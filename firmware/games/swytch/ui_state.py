"""Swytch's UI state on the unit as one frozen value: what every display is drawn from
(:func:`.seat_views.seat_view`) and what the link's ``ui`` op sends (:meth:`SwytchUi.to_json`;
a harness rebuilds it with :meth:`SwytchUi.from_json` over the position it replayed)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from firmware.games.game_ui import GameUi
from firmware.unit.rolloff import RollOffShown
from firmware.unit.setup import Question
from firmware.unit.shell import NOTHING_UP, ShellView
from firmware.unit.ui_state import Mode

from .board import MAX_RANKS, Cell
from .picker import Picker, Stage
from .screens.views import LastTurn
from .setup import SwytchSetup, SwytchSetupMenu
from .state import State


@dataclass(frozen=True, slots=True)
class SwytchUi(GameUi):
    """Everything a Swytch seat's view is drawn from (:meth:`SwytchController.ui`)."""

    mode: Mode
    state: State | None
    kinds: tuple[str, ...] = ()
    #: the seat on turn's picker (a human's; None for a bot or at the end)
    picker: Picker | None = None
    #: the opponent's last turn (marked on the board of the seat on turn until it
    #: acts), and the seat that still reads it in full
    last: LastTurn | None = None
    last_for: int | None = None
    shell: ShellView = NOTHING_UP
    question: Question | None = None  #: in mode setup
    question_index: int = 0
    rolloff: RollOffShown | None = None
    #: the set-up the menu shows (in mode setup)
    setup: SwytchSetup | None = None
    #: (seat, its zoom window's corner) of each player (:func:`.screens.render.follow`)
    corners: tuple[tuple[int, tuple[int, int]], ...] = ()

    def corner(self, seat: int) -> tuple[int, int] | None:
        """Where ``seat``'s zoom window is (None: centred on what its view looks at)."""
        return next((corner for s, corner in self.corners if s == seat), None)

    def to_json(self) -> dict[str, Any]:
        """The link's ``ui`` fields for Swytch; ``state`` is the position's JSON."""
        p, last, s = self.picker, self.last, self.setup
        return {
            **GameUi.to_json(self),
            "picker": None if p is None else
            {"stage": p.stage.value, "stack": p.stack, "option": p.option, "target": p.target,
             "hint": p.hint_requested, "hinted": p.hinted_now},
            "last": None if last is None else
            {"origin": last.origin.name, "destination": last.destination.name,
             "path": [c.name for c in last.path], "lines": list(last.lines)},
            "last_for": self.last_for,
            "setup": None if s is None else
            {"seats": list(s.seats), "ranks": s.ranks, "index": self.question_index},
            "rolloff": None if self.rolloff is None else self.rolloff.to_json(),
            "corners": [[seat, list(corner)] for seat, corner in self.corners],
        }  # fmt: skip

    @classmethod
    def from_json(cls, data: dict[str, Any], state: State | None) -> SwytchUi:
        """The UI state of a :meth:`to_json` reply over ``state`` (the position the
        receiver replayed itself)."""
        p, last, s, ro = data["picker"], data["last"], data["setup"], data["rolloff"]
        ranks = MAX_RANKS if state is None else state.ranks

        def cell(name: str) -> Cell:
            return Cell.parse(name, ranks)

        picker = None
        if p is not None and state is not None:
            picker = replace(Picker.new(state, state.to_move), stage=Stage(p["stage"]),
                             stack=int(p["stack"]), option=int(p["option"]),
                             target=int(p["target"]), hint_requested=bool(p["hint"]),
                             hinted_now=bool(p.get("hinted", False)))  # fmt: skip
        menu = None
        if s is not None:
            menu = SwytchSetupMenu(SwytchSetup(tuple(s["seats"]), int(s["ranks"])))
            menu.index = int(s["index"])
        return cls(
            mode=Mode(data["mode"]), state=state, kinds=tuple(data["kinds"]), picker=picker,
            last=None if last is None else LastTurn(
                cell(last["origin"]), cell(last["destination"]),
                tuple(map(cell, last["path"])), tuple(last["lines"])),
            last_for=data["last_for"], shell=ShellView.from_json(data),
            question=None if menu is None else menu.question,
            question_index=0 if menu is None else menu.index,
            rolloff=None if ro is None else RollOffShown.from_json(ro),
            setup=None if menu is None else menu.setup,
            corners=tuple((int(seat), (int(x), int(y)))
                          for seat, (x, y) in data.get("corners", [])),
        )  # fmt: skip
