"""Switch 16's own unit.toml section, ``[rules]``: the rules preset and the points game
the set-up menu starts from, as the values of the game's options ``rules`` and
``points`` (:mod:`firmware.settings` reads it through :func:`read_config`)."""

from __future__ import annotations

from typing import Any

from hal.toml_reader import Section

from .engine import RulesError, make_rules


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
