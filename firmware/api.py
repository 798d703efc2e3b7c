"""The one public entry a host composes the unit through (the simulator, any backend).

A host brings a :class:`~hal.interfaces.Hal`; from here it builds the :class:`Unit`
from the settings (:func:`make_unit`), serves its serial link (:func:`serve_link`),
asks the game seam what a window shows besides the panels (:func:`get_game`: a game's
levels, title, position in words or a picture; ``unit.controller.ui()``: the
:class:`GameUi` every display is drawn from) and replays a transcript into the views
the unit showed (:func:`load_replay`).
The names below are the whole surface: a host imports nothing else from ``firmware``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from firmware import package_version
from firmware.argtypes import link_url, nonempty, positive_float, positive_int, writable_dir
from firmware.games.command_line import add_option_arguments, flag_words, given_options
from firmware.games.game import Game, GameController, count_text
from firmware.games.game_ui import GameUi
from firmware.games.registry import DEFAULT_GAME, game_names, get_game
from firmware.kernel.players import CHANCE, HUMAN
from firmware.kernel.seats import seat_index, seat_name, seat_number
from firmware.screens import SeatView
from firmware.settings import Timing, UnitSettings, load_unit_config
from firmware.transcript import TranscriptError, line_writer, replay_file
from firmware.unit import Unit
from firmware.unit.setup import saved_kinds
from firmware.unit.ui_state import Mode
from hal.interfaces import Hal

if TYPE_CHECKING:
    from firmware.link.server import LinkServer as LinkServer  # a host's annotations

__all__ = [
    "CHANCE",
    "DEFAULT_GAME",
    "HUMAN",
    "Game",
    "GameUi",
    "Mode",
    "Replay",
    "ReplayError",
    "SeatView",
    "Step",
    "Timing",
    "TranscriptError",
    "Unit",
    "UnitSettings",
    "add_option_arguments",
    "count_text",
    "flag_words",
    "game_names",
    "game_options",
    "get_game",
    "link_url",
    "load_replay",
    "load_unit_config",
    "make_unit",
    "nonempty",
    "on_transition",
    "package_version",
    "positive_float",
    "positive_int",
    "seat_index",
    "seat_name",
    "seat_number",
    "serve_link",
    "writable_dir",
]


# --------------------------------------------------------------------- the unit
def make_unit(
    hal: Hal,
    settings: UnitSettings,
    *,
    state_dir: str | os.PathLike[str] | None = None,
    seed: int | None = None,
    setup: Any = None,
    unwatched: bool = False,
    game: str = DEFAULT_GAME,
) -> Unit:
    """The unit on ``hal`` with the config's timing, rules defaults and journal.

    ``seed`` seeds the dice and bots (None: unpredictable); ``game`` the registered game
    it starts with; ``setup`` (a set-up of that game) skips the set-up menu;
    ``unwatched`` (nobody looks at the panels: a demo, a test rig) turns dimming and the
    screensaver off, since a swallowed wake-up press would confuse a script.
    """
    options = settings.game
    if unwatched:
        options = replace(options, timing=replace(options.timing, dim_after=0,
                                                  screensaver_after=0))  # fmt: skip
    return Unit.from_settings(hal, options, state_dir=state_dir, seed=seed, setup=setup,
                              game=game)  # fmt: skip


def on_transition(unit: Unit, hook: Callable[[Any, Any, Any], None]) -> None:
    """Call ``hook(before, action, after)`` for every action ``unit`` commits from now
    (the state before an action is the last one's result, or its game's start)."""
    before: list[Any] = [unit.state]

    def committed(action: Any, after: Any) -> None:
        prior = before[0]
        if prior is None or prior.game_over:  # a new game began
            header = unit.journal.open_game[0]
            assert header is not None, "an action was committed without a game"
            prior = header.initial_state()
        before[0] = after
        hook(prior, action, after)

    unit.on_commit.append(committed)


def game_options(game: str, words: Sequence[str], flags: Mapping[str, str]) -> dict[str, Any]:
    """Game ``game``'s set-up options from ``--option KEY=VALUE`` words and the games'
    flags (:func:`flag_words`, :func:`firmware.games.command_line.given_options`);
    ValueError names the option."""
    return given_options(get_game(game), words, flags)


def serve_link(
    unit: Unit, url: str, *, config_source: Path | None = None, test_mode: bool = True
) -> tuple[LinkServer, Exception | None]:
    """Serve ``unit``'s serial link on ``url``; if it cannot open now, the error too
    (the link then tries again on its own)."""
    from firmware.link.server import LinkServer  # lazy: pyserial, only with a link

    link = LinkServer(unit, url, test_mode=test_mode, config_source=config_source)
    try:
        link.open()
    except Exception as exc:  # serial.SerialException, OSError, ValueError (a bad URL)
        link.close()
        link.schedule_reopen()
        return link, exc
    return link, None


# ------------------------------------------------------------------- a replay
@dataclass(frozen=True, slots=True)
class Step:
    """The game after one transcript line (line 1 is the header: the start)."""

    line: int
    state: Any  #: the game's position (each game's own)
    views: tuple[SeatView, ...]
    #: The roll this line ended its turn with, as the unit kept it on the displays.
    shown: Any = None


@dataclass(frozen=True, slots=True)
class Replay:
    """A transcript replayed line by line, ready to show."""

    path: str
    kinds: tuple[str, ...]
    steps: tuple[Step, ...]
    error: TranscriptError | None
    game: str = DEFAULT_GAME  #: the registered game it plays

    @property
    def last_line(self) -> int:
        return self.steps[-1].line


class ReplayError(ValueError):
    """The transcript cannot be shown at all (unreadable, or a bad header)."""


def load_replay(path: str) -> Replay:
    """Replay ``path`` through its game's own UI controller: every seat's view after
    every good line, as the unit showed it (its end screen's review included)."""
    result = replay_file(path)
    if result.header is None:
        raise ReplayError(f"{path}: {result.error}")
    header = result.header
    game = get_game(header.game)
    kinds = saved_kinds(header, game.levels)
    ctl = game.controller(header.players, Timing(), game.setup_for(kinds))
    played: list[str] = []
    # as the unit's end screen: the game's review of the lines played
    ctl.shell.reviewer = lambda seats: game.review(header, played, seats)
    state = header.initial_state()
    ctl.begin(state, kinds, 0.0)
    steps = [Step(1, state, _views(game, ctl, header.players))]
    write = line_writer(header)
    for number, action in enumerate(result.actions, start=2):
        state = state.apply(action)
        played.append(write(action))
        ctl.committed(action, state, float(number))
        ui = ctl.ui()
        steps.append(Step(number, state, _views(game, ctl, header.players), ui.roll_shown))
    return Replay(path, tuple(kinds), tuple(steps), result.error, game.name)


def _views(game: Game, ctl: GameController, seats: int) -> tuple[SeatView, ...]:
    ui = ctl.ui()
    return tuple(game.seat_view(ui, seat) for seat in range(seats))
