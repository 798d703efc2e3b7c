"""The one public entry a host composes the unit through (the simulator, any backend).

A host brings a :class:`~hal.interfaces.Hal`; from here it builds the :class:`Unit`
from the settings (:func:`make_unit`), serves its serial link (:func:`serve_link`),
reads what a window shows besides the panels (:func:`ui_state`, a game's turn log)
and replays a transcript into the views the unit showed (:func:`load_replay`).
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
from firmware.games.command_line import given_options
from firmware.games.game import Game, GameController, count_text
from firmware.games.game_ui import GameUi
from firmware.games.options import Option
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
    from PIL import Image

    from firmware.link.server import LinkServer as LinkServer  # a host's annotations

__all__ = [
    "CHANCE",
    "DEFAULT_GAME",
    "HUMAN",
    "Mode",
    "Replay",
    "ReplayError",
    "SeatView",
    "Step",
    "Timing",
    "TranscriptError",
    "Unit",
    "UnitSettings",
    "action_text",
    "describe_position",
    "game_bot_level",
    "game_demo_levels",
    "game_dice_table",
    "game_levels",
    "game_names",
    "game_option",
    "game_options",
    "game_picture",
    "game_players",
    "game_players_text",
    "game_setup",
    "game_title",
    "link_url",
    "load_replay",
    "load_unit_config",
    "make_unit",
    "nonempty",
    "on_transition",
    "package_version",
    "positive_float",
    "positive_int",
    "render_view",
    "seat_index",
    "seat_kinds",
    "seat_name",
    "seat_number",
    "serve_link",
    "shown_roll",
    "table_status",
    "tumbling",
    "ui_state",
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


def ui_state(unit: Unit) -> GameUi:
    """The public UI state every display of ``unit`` is drawn from now (mode, state,
    seat kinds...: a :class:`GameUi`): its game's own (``unit.game``)."""
    return unit.controller.ui()


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


def describe_position(game: str, state: Any) -> list[str]:
    """Game ``game``'s position in words (a window's table for a game it does not draw)."""
    return get_game(game).describe(state)


def render_view(game: str, view: Any) -> Any:
    """A seat view of game ``game`` as its 128x64 image (the game's own screens)."""
    return get_game(game).render(view)


def game_setup(game: str, seats: tuple[str, ...], options: Mapping[str, Any] | None = None) -> Any:
    """A set-up of game ``game`` for these seat kinds with ``options`` (read by
    :func:`game_options`; the others its defaults); ValueError names what is wrong."""
    g = get_game(game)
    return g.with_options(g.setup_for(seats), options or {})


def game_options(game: str, words: Sequence[str],
                 shorthands: Mapping[str, str | None]) -> dict[str, Any]:  # fmt: skip
    """Game ``game``'s set-up options from ``--option KEY=VALUE`` words and shorthand
    flags (:func:`firmware.games.options.given_options`); ValueError names the option."""
    return given_options(get_game(game), words, shorthands)


def game_option(game: str, name: str) -> Option | None:
    """Game ``game``'s set-up option ``name`` (its values, default and label), if it has one."""
    return next((o for o in get_game(game).options if o.name == name), None)


def game_dice_table(game: str) -> bool:
    """The simulator's centre shows game ``game``'s positions as dice and the chip."""
    return get_game(game).dice_table


def game_bot_level(game: str) -> str:
    """The level of a seat named a bot without one in game ``game``."""
    return get_game(game).bot_level


def game_demo_levels(game: str) -> tuple[str, ...]:
    """The levels an all-bot demo of game ``game`` seats, in seat order and repeated."""
    return get_game(game).demo_levels


def action_text(game: str, action: Any) -> str:
    """An action of game ``game`` as a log line shows it."""
    return get_game(game).action_text(action)


def game_levels(game: str) -> tuple[str, ...]:
    """Game ``game``'s bot levels, weakest first."""
    return get_game(game).levels


def table_status(game: str, state: Any, *, rolling: bool = False, shown: Any = None) -> str:
    """Game ``game``'s status line for ``state`` under a window's table (``rolling``:
    the dice tumble; ``shown``: :func:`shown_roll`)."""
    return get_game(game).table_status(state, rolling=rolling, shown=shown)


def game_picture(game: str, state: Any) -> Image.Image | None:
    """The whole position of game ``game`` as a picture for a big screen, if it has one."""
    return get_game(game).table_picture(state)


def game_players(game: str) -> range:
    """How many seats may play game ``game``."""
    return get_game(game).seats


def game_players_text(game: str) -> str:
    """How many seats may play game ``game``, in words ("2", "2 to 4")."""
    return count_text(get_game(game).seats)


def game_title(game: str) -> str:
    """Game ``game``'s title, as its set-up menu shows it."""
    return get_game(game).title


def seat_kinds(ui: GameUi) -> tuple[str, ...]:
    """The seat kinds of the game shown, or of the one a roll-off is starting."""
    return ui.seat_kinds()


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
        steps.append(Step(number, state, _views(game, ctl, header.players), shown_roll(ui)))
    return Replay(path, tuple(kinds), tuple(steps), result.error, game.name)


def shown_roll(ui: GameUi) -> Any:
    """The roll a game's UI state keeps on the displays after the turn it ended (a game
    shown as dice, its ``dice_table``: its seat, dice, switch and outcome; a game
    without dice has none)."""
    return ui.roll_shown


def tumbling(ui: GameUi) -> bool:
    """Dice tumble on a display of a game's UI state (Switch 16's roll animation)."""
    return ui.tumble is not None


def _views(game: Game, ctl: GameController, seats: int) -> tuple[SeatView, ...]:
    ui = ctl.ui()
    return tuple(game.seat_view(ui, seat) for seat in range(seats))
