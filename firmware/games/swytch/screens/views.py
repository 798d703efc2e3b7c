"""Swytch view models: frozen values holding exactly what one seat's screen shows.

Built from the game state and the seat's picker by :mod:`.build`; drawn by
:mod:`.render`. Every view has ``shift``, the burn-in pixel offset.
"""

from __future__ import annotations

from dataclasses import dataclass

from firmware.screens import Prompt

from ..board import Board, Cell

Shift = tuple[int, int]


@dataclass(frozen=True, slots=True)
class LastTurn:
    """The opponent's last turn as shown to the other seat for a while (the controller
    times it): ``origin`` → ``destination`` (the same cell for a prepare or swytch),
    ``path`` the cells passed (destination last), ``lines`` what it did ("e7→e5",
    "attack", "lost")."""

    origin: Cell
    destination: Cell
    path: tuple[Cell, ...] = ()
    lines: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class BoardView:
    """A player's screen: the board seen from ``seat`` around a cursor, an overview or
    the choice under way, and the button legend.

    - ``cursor``: the highlighted stack or destination (the zoom follows it);
      ``origin``: the stack chosen; ``path``: the cells the highlighted move passes,
      its destination last.
    - ``tag``: who is on turn, as this seat calls it ("YOU", "NORTH"); ``my_turn``
      inverts it.
    - ``title``/``options``/``highlight``: the choice under way (the stack's options)
      in the side column; ``lines``: what the highlighted destination does ("move 2",
      "→e5", "attack", "won"). With neither, the side column shows the overview.
    - ``last``: the opponent's last turn, its cells marked until the seat acts;
      ``reading``: the seat has not pressed since, so the board and the side column
      show the turn itself (no cursor).
    - ``corner``: the zoom window's top-left corner on the board image, where the
      seat's window followed what it looks at (:func:`.render.follow`); None: centred
      on the cursor (:func:`.render.window`).
    """

    board: Board
    seat: int
    tag: str
    my_turn: bool = False
    cursor: Cell | None = None
    origin: Cell | None = None
    path: tuple[Cell, ...] = ()
    targets: tuple[Cell, ...] = ()
    title: str = ""
    options: tuple[str, ...] = ()
    highlight: int = 0
    lines: tuple[str, ...] = ()
    last: LastTurn | None = None
    reading: bool = False
    legend: Prompt = ()
    shift: Shift = (0, 0)
    corner: tuple[int, int] | None = None


@dataclass(frozen=True, slots=True)
class OnlookerView:
    """Seats 3-4 during a Swytch game: the whole board (South at the left), who is on
    turn and each side's counters; no cursor. ``last`` marks the last turn."""

    board: Board
    to_move: int
    labels: tuple[str, str] = ("SOUTH", "NORTH")
    last: LastTurn | None = None
    shift: Shift = (0, 0)


@dataclass(frozen=True, slots=True)
class EndView:
    """The game is over: ``winner`` (None: a draw) and ``reason`` ("no counters left",
    "third repetition", "100 turns without a capture"), each side's counters left, and
    for a human side the short review of its play."""

    seat: int
    winner: int | None
    reason: str
    counters: tuple[int, int]
    labels: tuple[str, str] = ("SOUTH", "NORTH")
    legend: Prompt = ()
    shift: Shift = (0, 0)
    #: the short review of this seat's play ("": none)
    review: str = ""


SwytchView = BoardView | OnlookerView | EndView
