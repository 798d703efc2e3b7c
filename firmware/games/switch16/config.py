"""Switch 16's own unit.toml keys: its section ``[rules]``, the rules preset and the
points game the set-up menu starts from, as the values of the game's options ``rules``
and ``points`` (:mod:`firmware.settings` reads it through :func:`read_config`); and its
pace in ``[timing]`` beside the unit's delays (:data:`TIMING_KEYS` into
:class:`Switch16Timing`, read by :func:`firmware.settings.timing_keys`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from firmware.settings import check_seconds
from hal.toml_reader import Section

from .engine import RulesError, make_rules


@dataclass(frozen=True, slots=True)
class Switch16Timing:
    """Switch 16's own delays (the unit's :class:`~firmware.settings.Timing` holds them:
    ``timing.of(Switch16Timing)``)."""

    discard_window: float = 0.7  #: pause before each discard (the chip holder may block)
    refusal_window: float = 5.0  #: a named chip holder not answering accepts the switch
    tumble: float = 0.6  #: dice animation before a roll by button or by a bot
    tumble_frame: float = 0.12  #: animation frame period
    roll_show: float = 1.5  #: a roll that ended its turn stays up this long (a button skips it)

    def __post_init__(self) -> None:
        check_seconds(self, repeating=("tumble_frame",))


#: The unit reads these classes' defaults unless ``[timing]`` sets them.
TIMING = Switch16Timing
#: Switch 16's ``[timing]`` keys: key -> (:class:`Switch16Timing` field, lowest, highest s).
TIMING_KEYS: dict[str, tuple[str, float, float]] = {
    "discard_window_s": ("discard_window", 0, 60),
    "refusal_window_s": ("refusal_window", 0, 600),
    "tumble_s": ("tumble", 0, 10),
    "roll_show_s": ("roll_show", 0, 60),
}


def read_config(root: Section) -> dict[str, Any]:
    """``[rules]`` of a config document (``preset``, ``points``) as option values; a bad
    value goes to the document, named by its key, and is left out."""
    rules = root.table("rules", required=False)
    if rules is None:
        return {}
    values: dict[str, Any] = {}
    preset = rules.string("preset", None)
    if preset is not None:
        try:
            make_rules(preset)  # the one check of a preset's name
            values["rules"] = preset
        except RulesError as exc:
            rules.error("preset", str(exc))
    points = rules.boolean("points", None)
    if points is not None:
        values["points"] = bool(points)
    rules.finish()
    return values
