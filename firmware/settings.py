"""The unit's settings: the hardware (:mod:`hal.config`) plus the game's own keys.

Kept out of :mod:`firmware.unit` so ``switch16 run`` can check the whole config and
show a splash before it imports the unit (seconds on a Pi Zero).

The firmware owns ``[state]``, ``[link]`` and the unit's delays in ``[timing]`` (the HAL
reads only the button timing there); each installed game its own sections and its own
``[timing]`` keys, read by its package's ``config`` module (Switch 16's ``[rules]`` and
its discard and refusal windows, dice tumble and roll show:
:mod:`firmware.games.switch16.config`), found without importing the game.
``switch16 run``, ``check-config``, ``selftest`` and the simulator all load through
:func:`load_unit_config`, which reads both parts from one document and names every key
nobody reads, so ``check-config`` rejects exactly the configs ``run`` would.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

from firmware.games.registry import game_parts
from hal.config import UnitConfig, hardware_config, read_config
from hal.toml_reader import ConfigDocument, Section, parse_document

T = TypeVar("T")

#: Where a unit keeps its journal and finished games unless ``[state] dir`` says otherwise.
DEFAULT_STATE_DIR = Path("/var/lib/switch16")
#: ``[timing]`` keys of the unit itself: key -> (:class:`Timing` field, lowest, highest
#: seconds). Each game declares its own beside them (:func:`timing_keys`).
TIMING_KEYS: dict[str, tuple[str, float, float]] = {
    "bot_thinking_s": ("bot_thinking", 0, 60),
    "dim_after_s": ("dim_after", 0, 86_400),
    "screensaver_after_s": ("screensaver_after", 0, 86_400),
    "rolloff_show_s": ("rolloff_show", 0, 60),
}
#: Who owns :data:`TIMING_KEYS` in :func:`timing_keys` (a game owns the rest).
UNIT = "unit"


def check_seconds(timing: object, repeating: tuple[str, ...] = ()) -> None:
    """A timing dataclass's delays: ``repeating`` ones > 0 (a period), the others >= 0;
    a ValueError names the first that is not."""
    for item in fields(timing):  # type: ignore[arg-type]
        value = getattr(timing, item.name)
        if not isinstance(value, (int, float)):
            continue
        if item.name in repeating and value <= 0:
            raise ValueError(f"timing {item.name} must be > 0 (it repeats), got {value}")
        if value < 0:
            raise ValueError(f"timing {item.name} must be >= 0, got {value}")


@dataclass(frozen=True, slots=True)
class Timing:
    """The unit's delays, and each game's own (:meth:`of`); 0 disables
    ``dim_after``/``screensaver_after``."""

    bot_thinking: float = 1.0  #: visible pause before a bot acts
    dim_after: float = 60.0  #: no input this long: dim the displays
    screensaver_after: float = 300.0  #: no input this long: screensaver
    rolloff_show: float = 2.5  #: how long the roll-off result stays up
    message_show: float = 4.0  #: how long a unit message stays up (some: until a press)
    saver_step: float = 2.0  #: screensaver: the content moves this often
    shift_every: float = 60.0  #: burn-in pixel shift period while playing
    #: The games' own timings (each of its game's class, see :meth:`of`), those that
    #: differ from their class's defaults.
    games: tuple[Any, ...] = ()

    def __deepcopy__(self, memo: dict[int, object]) -> Timing:
        """A frozen value: its copy is itself (a copied controller shares it)."""
        return self

    def __post_init__(self) -> None:
        check_seconds(self, repeating=("saver_step", "shift_every"))
        kinds = [type(own) for own in self.games]
        if len(set(kinds)) < len(kinds):
            raise ValueError(f"timing games: one timing per game, got {self.games}")
        # a game's defaults are what :meth:`of` gives anyway: equal timings compare equal
        object.__setattr__(self, "games", tuple(g for g in self.games if g != type(g)()))

    def of(self, kind: type[T]) -> T:
        """A game's own timing, of its class ``kind``: the one given, else its defaults."""
        for own in self.games:
            if type(own) is kind:
                return own
        return kind()


class TimingKey(NamedTuple):
    """One ``[timing]`` key: who reads it (:data:`UNIT` or a game), into which field of
    which timing class, and its range in seconds."""

    owner: str
    kind: type
    field: str
    low: float
    high: float

    @property
    def default(self) -> float:
        return float(getattr(self.kind(), self.field))


def timing_keys() -> dict[str, TimingKey]:
    """Every ``[timing]`` key the firmware reads: the unit's (:data:`TIMING_KEYS`) and
    each installed game's, which its package's ``config`` module declares as
    ``TIMING_KEYS`` (key -> field, lowest, highest) of its class ``TIMING`` (found
    without importing the game). A key declared twice is a game's mistake: ValueError."""
    keys = {key: TimingKey(UNIT, Timing, *spec) for key, spec in TIMING_KEYS.items()}
    for name, module_name in game_parts("config").items():
        module = importlib.import_module(module_name)
        for key, spec in getattr(module, "TIMING_KEYS", {}).items():
            if key in keys:
                raise ValueError(f"[timing] {key}: declared by both {keys[key].owner} and "
                                 f"{name} ({module_name})")  # fmt: skip
            keys[key] = TimingKey(name, module.TIMING, *spec)
    return keys


@dataclass(frozen=True, slots=True)
class GameSettings:
    """What the firmware reads from the config: each game's set-up defaults, state dir,
    timing."""

    #: Game name -> the values of its set-up options its own sections set (Switch 16's
    #: ``[rules]``: ``rules`` and ``points``); the set-up menu starts from them.
    options: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    state_dir: Path = DEFAULT_STATE_DIR
    timing: Timing = field(default_factory=Timing)


@dataclass(frozen=True, slots=True)
class LinkSettings:
    """``[link]``: the serial link (docs/LINK.md). Off without a ``port``."""

    port: str | None = None  #: any pyserial URL: /dev/serial0, /dev/ttyGS0, socket://…
    test_mode: bool = False  #: accept the test-rig commands (press, dice…): never on a real table


@dataclass(frozen=True, slots=True)
class UnitSettings:
    """A whole config file: the hardware for the HAL, the game settings for the firmware."""

    hardware: UnitConfig
    game: GameSettings
    link: LinkSettings = field(default_factory=LinkSettings)

    @property
    def source(self) -> Path | None:
        return self.hardware.source


def load_unit_config(path: str | os.PathLike[str] | None = None) -> UnitSettings:
    """Load and validate a whole unit config (see :func:`hal.config.find_config`)."""
    return read_settings(read_config(path))


def loads_unit_config(text: str, source: Path | None = None) -> UnitSettings:
    """Parse and validate a whole unit config given as TOML text."""
    return read_settings(parse_document(text, source))


def read_settings(doc: ConfigDocument) -> UnitSettings:
    """Both parts of ``doc``; a :class:`~hal.toml_reader.ConfigError` names every bad or
    unknown key."""
    hardware = hardware_config(doc)
    game = game_settings(doc.root)
    link = link_settings(doc.root)
    doc.check()
    assert hardware is not None
    return UnitSettings(hardware, game, link)


def link_settings(root: Section) -> LinkSettings:
    """``[link]`` of a config document (errors go to the document)."""
    section = root.table("link", required=False)
    if section is None:
        return LinkSettings()
    port = section.string("port", None)
    if port is not None and ("\0" in port or not port.strip()):
        section.error("port", f"{port!r} is not a port (a device path or a pyserial URL)")
        port = None
    test_mode = section.boolean("test_mode", False)
    section.finish()
    return LinkSettings(port or None, bool(test_mode))


def game_settings(root: Section) -> GameSettings:
    """The firmware's keys of a config document (errors go to the document)."""
    defaults = GameSettings()
    options = {name: _game_config(module, root) for name, module in game_parts("config").items()}
    state_dir = defaults.state_dir
    state = root.table("state", required=False)
    if state is not None:
        text = state.string("dir", str(state_dir))
        if text is not None and ("\0" in text or not text.strip()):
            state.error("dir", f"{text!r} is not a usable path (empty, or a NUL byte)")
        elif text:
            state_dir = Path(text)
        state.finish()
    return GameSettings(options, state_dir, _timing(root.table("timing", False)))


def _game_config(module: str, root: Section) -> dict[str, Any]:
    """A game's own sections of a config document, read by its ``config`` module's
    ``read_config(root)`` as its options' values (errors go to the document)."""
    values: dict[str, Any] = importlib.import_module(module).read_config(root)
    return values


def timing_from(values: Mapping[str, float]) -> Timing:
    """The timing of these ``[timing]`` keys and values (a harness's: every game's keys
    by name, as a config writes them), read as a config's; a
    :class:`~hal.toml_reader.ConfigError` names a bad or unknown key."""
    doc = ConfigDocument(Section({"timing": dict(values)}, "", []), None)
    timing = _timing(doc.root.table("timing"))
    doc.check()
    return timing


def _timing(section: Section | None) -> Timing:
    """``[timing]``: the unit's keys into :class:`Timing`, each game's into its own
    class (its :meth:`Timing.of`); a bad value is named by its key and left out."""
    if section is None:
        return Timing()
    values: dict[type, dict[str, float]] = {}
    for key, spec in timing_keys().items():
        value = section.number(key, spec.default, spec.low, spec.high)
        if value is not None:
            values.setdefault(spec.kind, {})[spec.field] = value
    unit = values.pop(Timing, {})
    return Timing(**unit, games=tuple(kind(**own) for kind, own in values.items()))
