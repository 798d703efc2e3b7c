"""The unit's settings: the hardware (:mod:`hal.config`) plus the game's own keys.

Kept out of :mod:`firmware.unit` so ``switch16 run`` can check the whole config and
show a splash before it imports the unit (seconds on a Pi Zero).

The firmware owns ``[state]``, ``[link]`` and the game timing in ``[timing]`` (the HAL
reads only the button timing there); each installed game its own sections, read by its
package's ``config`` module (Switch 16's ``[rules]``: :mod:`firmware.games.switch16.config`,
found without importing the game). ``switch16 run``, ``check-config``, ``selftest`` and
the simulator all load through :func:`load_unit_config`, which reads
both parts from one document and names every key nobody reads, so ``check-config``
rejects exactly the configs ``run`` would.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from firmware.games.registry import game_parts
from hal.config import UnitConfig, hardware_config, read_config
from hal.toml_reader import ConfigDocument, Section, parse_document

#: Where a unit keeps its journal and finished games unless ``[state] dir`` says otherwise.
DEFAULT_STATE_DIR = Path("/var/lib/switch16")
#: ``[timing]`` keys of the game: key -> (Timing field, lowest, highest seconds).
TIMING_KEYS: dict[str, tuple[str, float, float]] = {
    "discard_window_s": ("discard_window", 0, 60),
    "refusal_window_s": ("refusal_window", 0, 600),
    "bot_thinking_s": ("bot_thinking", 0, 60),
    "dim_after_s": ("dim_after", 0, 86_400),
    "screensaver_after_s": ("screensaver_after", 0, 86_400),
    "tumble_s": ("tumble", 0, 10),
    "rolloff_show_s": ("rolloff_show", 0, 60),
    "roll_show_s": ("roll_show", 0, 60),
}


@dataclass(frozen=True, slots=True)
class Timing:
    """Every delay the game loop uses; 0 disables ``dim_after``/``screensaver_after``."""

    discard_window: float = 0.7  #: pause before each discard (the chip holder may block)
    refusal_window: float = 5.0  #: a named chip holder not answering accepts the switch
    bot_thinking: float = 1.0  #: visible pause before a bot acts
    dim_after: float = 60.0  #: no input this long: dim the displays
    screensaver_after: float = 300.0  #: no input this long: screensaver
    tumble: float = 0.6  #: dice animation before a roll by button or by a bot
    tumble_frame: float = 0.12  #: animation frame period
    rolloff_show: float = 2.5  #: how long the roll-off result stays up
    roll_show: float = 1.5  #: a roll that ended its turn stays up this long (a button skips it)
    message_show: float = 4.0  #: how long a unit message stays up (some: until a press)
    saver_step: float = 2.0  #: screensaver: the content moves this often
    shift_every: float = 60.0  #: burn-in pixel shift period while playing

    def __deepcopy__(self, memo: dict[int, object]) -> Timing:
        """A frozen value: its copy is itself (a copied controller shares it)."""
        return self

    def __post_init__(self) -> None:
        for name in ("tumble_frame", "saver_step", "shift_every"):
            if getattr(self, name) <= 0:
                raise ValueError(
                    f"timing {name} must be > 0 (it repeats), got {getattr(self, name)}"
                )
        for name in ("discard_window", "refusal_window", "bot_thinking", "dim_after",
                     "screensaver_after", "tumble", "rolloff_show", "roll_show",
                     "message_show"):  # fmt: skip
            if getattr(self, name) < 0:
                raise ValueError(f"timing {name} must be >= 0, got {getattr(self, name)}")


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


def _timing(section: Section | None) -> Timing:
    if section is None:
        return Timing()
    default = Timing()
    values = {}
    for key, (name, low, high) in TIMING_KEYS.items():
        value = section.number(key, getattr(default, name), low, high)
        if value is not None:
            values[name] = value
    return Timing(**values)
