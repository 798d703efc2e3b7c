"""The game seam: what the unit, its journal and its tools need from a game.

Modelled on OpenSpiel's ``Game``/``State``: a :class:`Game` names itself, says how many
seats it is played by, makes its set-up's initial state (through a :class:`GameHeader`,
line 1 of a transcript), reads and writes its actions (the transcript notation) and
tells a result; its states (:class:`GameState`) are immutable values that ``apply`` an
action and say who may act. On top, what a unit needs: the UI controller (buttons and
time -> commands; :class:`GameController`), the seat views drawn from it, the controls
table, the bots and their levels, the set-up.

A game class subclasses :class:`Game` to take its defaults (python-chess's variants)
and overrides only what is its own: set-up options (:attr:`Game.options`,
:meth:`Game.setup_options`, :meth:`Game.with_options`; default none), entry by presses
(:meth:`Game.presses_for`; default none), the simulator's bot levels and centre
(:attr:`Game.bot_level`, :attr:`Game.demo_levels`, :attr:`Game.dice_table`), a demo's
log (:meth:`Game.turn_log`, :meth:`Game.setup_text`), self-play's seats, figures and
speed (:attr:`Game.selfplay_seats`, :meth:`Game.selfplay_stats`, :meth:`Game.play_out`,
:meth:`Game.out_of_turn`; the runner is the seam's, :mod:`.selfplay`), chance
(:meth:`Game.draw_chance`; default drawn from the state's outcomes), sound cues
(:attr:`Game.tunes`, :meth:`Game.cue`; default only the unit's own) and its own timing
(its package's ``config`` module declares its ``[timing]`` keys and their class, which
the controller gets from the unit's timing: ``timing.of(ItsTiming)``,
:func:`firmware.settings.timing_keys`), the scenarios of ``switch16 hil``'s suite
(:meth:`Game.hil_scenarios`; default a whole game by presses) and the simulator's status
line (:meth:`Game.table_status`; default the last line of :meth:`Game.describe`), who
starts a rematch (:meth:`Game.rematch_starter`; default a roll-off) and the set-up a
resumed game was played with (:meth:`Game.setup_of`; default read by its options). The
tools ask these, never a game's name (tests/kit/test_game_names.py).

Values that are the game's own (actions, set-ups) are ``Any`` here: only the game's own
modules look inside them. Its UI states are :class:`~.game_ui.GameUi`: what the tools
read of them is declared there. A game is registered in :mod:`.registry`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from fractions import Fraction
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from firmware.kernel import players
from firmware.kernel.players import CHANCE, TERMINAL

from .action_log import ActionLog, TurnLogger
from .game_ui import GameUi
from .hil_scenarios import Scenario, default_scenarios
from .options import Option

if TYPE_CHECKING:
    from PIL import Image

    from firmware.screens import SeatView
    from firmware.settings import Timing
    from firmware.unit.commands import Command
    from firmware.unit.shell import Shell
    from hal.events import Button, Event
    from hal.interfaces import Tune


def count_text(counts: range) -> str:
    """How many seats a game takes, in words: "2" or "2 to 4"."""
    if len(counts) == 1:
        return str(counts.start)
    return f"{counts.start} to {counts.stop - 1}"


#: :attr:`Game.slow_work`'s name for the end-of-game review (:meth:`Game.review`).
REVIEW = "review"


class GameState(Protocol):
    """One position: immutable; ``apply`` returns the next one, or raises
    :class:`~firmware.kernel.errors.IllegalActionError` (the loop drops such an action)
    naming what is wrong, the state unchanged."""

    @property
    def players(self) -> int: ...

    @property
    def game_over(self) -> bool: ...

    def legal_actions(self) -> Sequence[Any]: ...

    def apply(self, action: Any) -> Any: ...

    def current_player(self) -> int:
        """Who acts now, as OpenSpiel names it: a seat, ``CHANCE`` (the next action is a
        chance outcome) or ``TERMINAL``."""
        ...

    def chance_outcomes(self) -> Sequence[tuple[Any, float | Fraction]]:
        """Every chance outcome due now with its probability (empty when a seat acts)."""
        ...

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


class Replay(Protocol):
    """A game's own replay of a transcript's action lines from its initial state (a
    faster one than state by state: :meth:`Game.fast_replay`)."""

    def run(self, lines: Iterator[str], append: Callable[[Any], None]) -> None:
        """Apply each line in turn and ``append`` its action; at a bad line raise (an
        :class:`~firmware.kernel.errors.EngineError` or a ValueError saying why),
        :attr:`state` the one before it. Called again with the lines after a skipped one."""
        ...

    @property
    def state(self) -> Any:
        """The position after the lines applied so far."""
        ...


class GameController(Protocol):
    """The unit's UI state machine for one game: events and time in, commands out.

    What the unit does the same in every game (idle dimming, the screensaver, the
    burn-in shift, messages, the end screen's reviews) is its :attr:`shell`'s
    (:mod:`firmware.unit.shell`): the controller hands the shell every event and its
    timers first (:meth:`~firmware.unit.shell.Shell.take_due`), and its UI state carries
    the shell's view (:attr:`firmware.games.game_ui.GameUi.shell`). A press once the
    game is :attr:`finished` never reaches it: the end screen is the unit's
    (:mod:`firmware.unit.end_screen`)."""

    state: Any
    #: Who plays each seat of the game shown ("human" or a bot level).
    kinds: tuple[str, ...]
    #: The set-up the menu starts from; a set-up that skips the menu (or None).
    defaults: Any
    preset: Any
    #: The unit shell's state (:class:`~firmware.unit.shell.Shell`).
    shell: Shell

    @property
    def finished(self) -> bool:
        """A game on the displays was played to its end (its end screen is up)."""
        ...

    def ui(self) -> GameUi: ...

    def next_deadline(self) -> float | None: ...

    def due(self, now: float) -> bool: ...

    def start_setup(self, now: float) -> list[Command]: ...

    def show_rolloff(self, rounds: Sequence[dict[int, int]], first: int, setup: Any,
                     now: float) -> None: ...  # fmt: skip

    def begin(self, state: Any, kinds: Sequence[str], now: float) -> list[Command]: ...

    def handle(self, event: Event, now: float) -> list[Command]: ...

    def tick(self, now: float) -> list[Command]: ...

    def committed(self, action: Any, state: Any, now: float) -> list[Command]: ...

    def hinted(self, seat: int, action: Any, now: float) -> list[Command]:
        """The unit's answer to the controller's ``AskHint``: the strongest bot's action
        for ``seat`` (a controller that never asks ignores it)."""
        ...

    def is_human(self, seat: int) -> bool:
        """Whether a person plays ``seat`` of the game shown (a controller that subclasses
        this one gets it)."""
        return players.is_human(self.kinds, seat)


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
    #: Games ``switch16 selfplay`` plays when not told (about a minute or two of CPU
    #: here with the strongest bots).
    selfplay_games: int
    #: The set-up's options (:mod:`.options`), read by the link's ``newgame``, ``.hil``
    #: scripts, ``sim --option`` and ``switch16 selfplay``; a game without any: ().
    options: tuple[Option, ...] = ()

    @property
    def bot_level(self) -> str:
        """The level of a seat named a bot without one (``sim --bots 2``): the strongest
        unless the game says."""
        return self.levels[-1]

    @property
    def demo_levels(self) -> tuple[str, ...]:
        """The levels an all-bot demo seats, in seat order and repeated (``sim
        --headless``): strongest first unless the game says."""
        return self.levels[::-1]

    #: The simulator's centre shows a position as the dice on the table and the chip (it
    #: reads the Switch 16 engine's ``State``); else (the default) as the game's
    #: :meth:`describe` lines and :meth:`table_picture`.
    dice_table: bool = False
    #: The game's own sound cues, name -> tune (:mod:`firmware.unit.sounds`: notes within
    #: its ``LOWEST``-``HIGHEST``, each under ``LONGEST`` seconds); :meth:`cue` names them.
    #: Empty by default: the game plays only the unit's cues.
    tunes: Mapping[str, Tune] = MappingProxyType({})
    #: The unit's work for this game that is slow on a Zero, done beside the loop by
    #: its worker (:mod:`firmware.unit.thinking`): bot levels (their moves; a hint is
    #: the strongest level's) and :data:`REVIEW`. The rest runs in the loop.
    slow_work: frozenset[str] = frozenset()
    #: A hold's frames are drawn as cheaply as a press's (:mod:`firmware.unit.lookahead`
    #: draws them ahead too). False by default: a hold may start long work in the loop
    #: (Switch 16's odds), which a press arriving meanwhile would wait for.
    holds_drawn_ahead: bool = False

    # -- the game (OpenSpiel's Game/State)
    def header(self, setup: Any, first: int) -> GameHeader:
        """A new game of ``setup`` (its set-up options) with ``first`` to start."""
        ...

    def header_from_json(self, obj: Any) -> GameHeader:
        """Read a parsed header line; a ValueError names the bad key."""
        ...

    def state_from_json(self, obj: Any) -> Any:
        """The position a state's full JSON object describes (like a FEN); a ValueError
        or :class:`~firmware.games.switch16.engine.errors.EngineError` names what is wrong."""
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

    def table_picture(self, state: Any) -> Image.Image | None:
        """The whole position as a 1-bit picture for a big screen (the simulator's
        table shows it large), or None (none, or the game's :attr:`dice_table`)."""
        ...

    def table_status(self, state: Any, *, rolling: bool = False, shown: Any = None) -> str:
        """The simulator's status line under its table for ``state``: who is to do what
        (``rolling``: the unit's dice tumble; ``shown``: a roll the displays still show
        after the turn it ended, the UI state's ``roll_shown``). By default the last line
        of :meth:`describe`."""
        return self.describe(state)[-1]

    @property
    def selfplay_seats(self) -> tuple[str, ...]:
        """The bots ``switch16 selfplay`` seats when not told: the strongest level at
        the fewest seats unless the game says."""
        return (self.levels[-1],) * self.seats.start

    def selfplay_stats(self) -> GameStats | None:
        """A fresh tally of this game's own self-play figures (``switch16 selfplay``
        adds them beside the win rates), or None (the default): only wins, draws and
        the games' lengths in actions."""
        return None

    def play_out(self, state: Any, bots: Sequence[Bot],
                 rng: random.Random) -> Iterator[tuple[Any, Any]]:  # fmt: skip
        """Play from ``state`` to the end, ``bots[s]`` at seat ``s`` and chance drawn from
        ``rng`` (self-play): each step as (action, position after it). By default each
        step asks who acts: a bot at a seat :meth:`out_of_turn` names
        (:meth:`interject`), else the ``current_player()``: chance's draw
        (:meth:`draw_chance`) or the seat's bot's decision; ``apply`` makes each
        position. A game may step its own way, alike (Switch 16's self-play speed: who
        acts read once a step, one private copy of ``state`` changed in place): read a
        position at once, never keep it."""
        interject, out_of_turn, draw = self.interject, self.out_of_turn, self.draw_chance
        while (player := state.current_player()) != TERMINAL:
            action = next((a for seat in out_of_turn(state)
                           if (a := interject(bots[seat], state, seat)) is not None),
                          None)  # fmt: skip
            if action is None:
                if player == CHANCE:
                    action = draw(state, rng)
                elif player < 0:
                    raise RuntimeError(f"{self.name}: nobody to act in an unfinished game "
                                       f"({player})")  # fmt: skip
                else:
                    action = bots[player].decide(state)
            state = state.apply(action)
            yield action, state

    def turn_log(self, names: tuple[str, ...]) -> TurnLogger:
        """The log a headless demo prints as it plays (``names``: who plays each seat),
        and the pictures it takes: by default one line per action."""
        return ActionLog(self.action_text)

    def setup_text(self, setup: Any) -> str:
        """A set-up in a few words for a demo's first line: the game's title unless it says."""
        return self.title

    def fast_replay(self, initial: Any) -> Replay | None:
        """A replay of a transcript's action lines from ``initial`` faster than state by
        state (Switch 16's in place), or None (the default): the transcript layer reads
        each line by :meth:`action_from_json` and applies it."""
        return None

    # -- the unit
    def setup_for(self, seats: Sequence[str]) -> Any:
        """A set-up (default options) for these seat kinds ("human" or bot levels)."""
        ...

    def default_setup(self, seats: int) -> Any:
        """The set-up the menu starts from on a unit with ``seats`` displays."""
        ...

    def random_setup(self, rng: random.Random) -> Any:
        """A table of bots only, its seats, levels and options drawn from ``rng`` (the
        reliability campaigns play one after another)."""
        ...

    def setup_options(self, setup: Any) -> dict[str, Any]:
        """The values of :attr:`options` that ``setup`` plays (none by default)."""
        return {}

    def with_options(self, setup: Any, values: Mapping[str, Any]) -> Any:
        """``setup`` with these option values (checked by :attr:`options`' spec); a
        ValueError names a value the set-up refuses. A game without options: ``setup``."""
        return setup

    def setup_with(self, seats: Sequence[str], options: Mapping[str, Any] | None = None) -> Any:
        """A set-up for these seat kinds (:meth:`setup_for`) with these option values
        (:meth:`with_options`; the others the defaults); ValueError names what is wrong."""
        return self.with_options(self.setup_for(seats), options or {})

    def setup_of(self, header: Any, seats: Sequence[str]) -> Any:
        """The set-up ``header``'s game was played with, ``seats`` seated: what a rematch
        of a game the unit resumed plays again. By default the set-up for ``seats``
        with each of :attr:`options` the header's JSON names (as Nim's and Swytch's do)."""
        written = header.to_json()
        values = {o.name: written[o.name] for o in self.options if o.name in written}
        return self.setup_with(seats, values)

    def rematch_starter(self, state: Any) -> int | None:
        """Who starts a rematch of the game finished in ``state`` (the end screen's
        YES); None (the default): a roll-off decides, as for a new game."""
        return None

    def controller(self, seats: int, timing: Timing, defaults: Any, *, preset: Any = None,
                   now: float = 0.0) -> GameController: ...  # fmt: skip

    def ui_from_json(self, obj: dict[str, Any], state: Any) -> GameUi:
        """The controller's UI state that :meth:`GameUi.to_json` wrote (the link's ``ui``
        reply), over ``state`` (the position the reader replayed itself)."""
        ...

    def seat_view(self, ui: Any, seat: int) -> SeatView | Any:
        """What ``seat``'s display shows for the controller's UI state (a unit's
        :data:`~firmware.screens.SeatView` or the game's own view: :attr:`render` draws it)."""
        ...

    #: A view -> the seat's 128x64 mode-"1" image (the game's own screens).
    render: Callable[[Any], Image.Image]
    #: A view -> its frame as panel bytes without drawing an image, where the game's
    #: screens keep them (its play screen); else None.
    render_pages: Callable[[Any], bytes | None]

    def waiting_seat(self, state: Any) -> int | None:
        """The seat the table waits for: its LED lights, its display is drawn first, it
        shakes when chance acts (the loop rolls only for it); None while nobody is
        awaited (the end). Who acts is the state's ``current_player()``: by default this
        is that seat, and no one while chance acts."""
        player: int = state.current_player()
        return player if player >= 0 else None

    def draw_chance(self, state: Any, rng: random.Random) -> Any:
        """The chance outcome due in ``state`` (its ``current_player()`` is CHANCE), drawn
        with ``rng`` from ``state.chance_outcomes()``: the loop's dice (a test mode's forced
        outcome comes first), self-play's. A game may draw faster, alike."""
        actions, weights = zip(*state.chance_outcomes(), strict=True)
        return rng.choices(actions, weights=[float(w) for w in weights])[0]

    def chance_from_dice(self, obj: dict[str, Any]) -> Any:
        """The chance outcome of the link's ``dice`` op's ``{"dice": [...], "switch":
        face}`` (a test rig's forced roll); a ValueError starts with the field it
        refuses. A game without dice refuses every one (the default)."""
        raise ValueError(f"dice: {self.title} rolls no dice (force its chance with the chance op)")

    def make_bot(self, kind: str, seat: int, rng: random.Random,
                 table: Sequence[str]) -> Bot: ...  # fmt: skip

    def presses_for(self, ui: Any, seat: int, action: Any) -> tuple[Button, ...] | None:
        """The buttons ``seat`` presses, from the controller's UI state ``ui``, to enter
        ``action`` (a test rig's by-press player: ``switch16 hil``); None: not from this
        state, or this game is not entered that way (the default)."""
        return None

    def hil_scenarios(self) -> Sequence[Scenario]:
        """What ``switch16 hil``'s built-in suite plays of this game (:mod:`.hil_scenarios`:
        whole games by presses, the game's own situations): by default one whole game
        against the weakest bot, if the game is entered by presses (:meth:`presses_for`)."""
        if type(self).presses_for is Game.presses_for:
            return []
        return default_scenarios(self.name, self.title, self.seats, self.levels)

    def interject(self, bot: Bot, state: Any, seat: int) -> Any | None:
        """The move out of turn of ``bot`` at ``seat``, one of :meth:`out_of_turn`
        (Switch 16's chip), or None (it lets the moment pass)."""
        ...

    def out_of_turn(self, state: Any) -> tuple[int, ...]:
        """The seats that may move out of turn now, before the ``current_player()``
        (Switch 16's chip holder), in the order a bot there is asked to
        :meth:`interject`; none by default."""
        return ()

    def cue(self, before: Any, action: Any, after: Any) -> str | None:
        """The buzzer's cue for an action, if any: one of the game's :attr:`tunes` or of
        the unit's own (:class:`~firmware.unit.sounds.Cue`: the game won)."""
        ...

    def roll_shown_for(self, timing: Timing) -> float:
        """How long the game keeps a roll that ended its turn up (its UI state's
        ``roll_shown``) with ``timing``: a replay in the simulator holds it as long. 0
        (the default): the game shows none."""
        return 0.0

    def review(self, header: Any, lines: Sequence[str], humans: list[int]) -> dict[int, str]:
        """The end screen's short review per human seat (may be empty)."""
        ...

    def review_game(self, header: Any, actions: Sequence[Any]) -> GameReview | None:
        """``switch16 review``'s review of a game (an unfinished one so far); None: this
        game has no review."""
        ...


class Chart(NamedTuple):
    """A bar chart of self-play figures (``switch16 selfplay --plots``): ``bars`` maps
    each bar's label to its height."""

    name: str  #: the PNG's file name without ".png"
    title: str
    xlabel: str
    ylabel: str
    bars: Mapping[int | str, float]
    width: float = 0.8  #: of a bar (1.0: a histogram's, touching)


class GameStats(Protocol):
    """A game's own figures of a self-play run (:meth:`Game.selfplay_stats`), taken
    action by action: Switch 16's rolls, switch faces that mattered, discards per turn.
    Picklable: each process of a run keeps one, merged in a fixed order."""

    #: What a game's length counts ("turns"): the run's lengths are in it.
    length_unit: str

    def tally(self, state: Any, steps: Iterable[tuple[Any, Any]]) -> tuple[int, Any]:
        """Play a game from ``state`` by its ``steps`` (:meth:`Game.play_out`'s) to the
        end, each into the figures as it is played (a position read at once:
        ``play_out`` may change it in place next): its number of actions and its last
        position. Self-play's one loop over a game's steps where a game has figures."""
        ...

    def end(self, state: Any) -> int:
        """The game ended in ``state``: its length in :attr:`length_unit`."""
        ...

    def merge(self, other: Any) -> None:
        """Add another run's figures (of the same game) to these."""
        ...

    def to_json(self, games: int) -> dict[str, Any]:
        """The figures over ``games`` games, keys beside the runner's in its JSON."""
        ...

    def lines(self, games: int) -> list[str]:
        """The figures as lines of the run's table."""
        ...

    def charts(self) -> list[Chart]:
        """Charts of the figures beside the runner's win rates and lengths."""
        ...


class GameReview(Protocol):
    """A reviewed game: each decision valued against the game's strongest bot."""

    header: Any
    #: Each seat's value after each transcript line (index 0: the start).
    curve: list[tuple[float, ...]]

    @property
    def value_name(self) -> str:
        """What the values are (a chart's axis)."""
        ...

    @property
    def value_range(self) -> tuple[float, float] | None:
        """The values' range, when fixed."""
        ...

    def seat_decisions(self, seat: int) -> Sequence[Any]:
        """The seat's decisions: each with ``line``, ``text``, ``chosen`` and ``loss``."""
        ...

    def mistakes(self, seat: int, count: int = 3) -> Sequence[Any]:
        """The seat's costliest decisions, worst first."""
        ...

    def loss_text(self, decision: Any) -> str:
        """A decision's loss in words ("-9%")."""
        ...

    def to_json(self) -> dict[str, Any]: ...

    def report(self, path: str = "") -> str:
        """The text report."""
        ...
