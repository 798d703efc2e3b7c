"""The firmware's own config keys: [state] and the game timing, and each game's own
sections (Switch 16's [rules]), read from the same document as the hardware; every key
nobody reads is named."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware.games.switch16.engine import DEFAULT_PRESET
from firmware.settings import DEFAULT_STATE_DIR, TIMING_KEYS, Timing, loads_unit_config
from hal.config import REFERENCE_CONFIG, ConfigError, loads_config

REFERENCE = REFERENCE_CONFIG.read_text(encoding="utf-8")


def errors_of(extra: str) -> list[str]:
    with pytest.raises(ConfigError) as info:
        loads_unit_config(REFERENCE + extra)
    return info.value.errors


def test_reference_game_settings() -> None:
    game = loads_unit_config(REFERENCE).game
    assert game.options == {"switch16": {"rules": DEFAULT_PRESET, "points": False}}
    assert game.state_dir == DEFAULT_STATE_DIR == Path("/var/lib/switch16")
    assert game.timing == Timing()  # the defaults live in Timing alone


def test_timing_defaults_live_in_timing_only() -> None:
    text = REFERENCE.replace("[timing]", "[timing_unused]")
    with pytest.raises(ConfigError, match="timing_unused: unknown key"):
        loads_unit_config(text)
    bare = REFERENCE[: REFERENCE.index("[timing]")] + REFERENCE[REFERENCE.index("[rules]") :]
    assert loads_unit_config(bare).game.timing == Timing()
    assert {name for name, _, _ in TIMING_KEYS.values()} <= set(Timing.__dataclass_fields__)


def test_every_game_timing_key_is_named_for_the_maker() -> None:
    """The reference config and docs/PLAYING.md name every key (the values: Timing only)."""
    readme = (REFERENCE_CONFIG.parents[1] / "docs" / "PLAYING.md").read_text(encoding="utf-8")
    timing = readme[readme.index("**Game timing**") :].split("\n\n")[0]
    section = REFERENCE[REFERENCE.index("[timing]") : REFERENCE.index("[displays]")]
    for key in TIMING_KEYS:
        assert f"`{key}`" in timing and key in section, key


def test_game_keys_are_the_firmwares() -> None:
    """The HAL reads no game key: a bad preset passes the hardware loader alone."""
    text = REFERENCE.replace('preset = "pressman-2003"', 'preset = "pressman-2004"')
    assert loads_config(text).seats  # the hardware part is fine
    with pytest.raises(ConfigError, match=r"rules\.preset: unknown rules preset 'pressman-2004'"):
        loads_unit_config(text)


def test_unknown_keys_anywhere_are_named() -> None:
    assert errors_of("\n[lights]\nbright = 1\n") == ["lights: unknown key"]
    text = REFERENCE.replace("[timing]", "[timing]\nbot_thinkin_s = 2")
    with pytest.raises(ConfigError, match=r"timing\.bot_thinkin_s: unknown key"):
        loads_unit_config(text)
    text = REFERENCE.replace("[timing]", "[timing]\nbot_thinking_s = 999")
    with pytest.raises(ConfigError, match=r"timing\.bot_thinking_s: 999 is out of range"):
        loads_unit_config(text)


def test_a_games_own_section_sets_the_setup_the_unit_starts_from(tmp_path: Path) -> None:
    """Switch 16's ``[rules]`` is read by its package (``config``) as its options'
    values; the unit's set-up menu starts from them, another game's does not."""
    from firmware.games.registry import get_game
    from firmware.unit import Unit
    from hal.testing import mock_backend

    text = REFERENCE.replace('preset = "pressman-2003"', 'preset = "tablier"')
    settings = loads_unit_config(text.replace("points = false", "points = true"))
    assert settings.game.options == {"switch16": {"rules": "tablier", "points": True}}
    starts = {}
    for name in ("switch16", "swytch"):
        hal = mock_backend(settings.hardware)
        try:
            unit = Unit.from_settings(hal, settings.game, state_dir=tmp_path / name, game=name)
            starts[name] = unit.controller.defaults
        finally:
            hal.close()
    assert (starts["switch16"].preset, starts["switch16"].points) == ("tablier", True)
    assert starts["swytch"] == get_game("swytch").default_setup(len(settings.hardware.seats))


@pytest.mark.parametrize(("flags", "expected"), [
    ({}, ("tablier", False)), ({"rules": "pressman-2003", "points": True}, ("pressman-2003", True)),
])  # fmt: skip
def test_run_seats_start_from_the_games_section_and_its_flags(
    tmp_path: Path, flags: dict, expected: tuple
) -> None:
    """``switch16 run --seats``: the set-up of the game the unit starts with, from its
    own config section (``[rules]``), ``--rules`` and ``--points`` over it."""
    import argparse

    from firmware.commands.run import _unit_on
    from hal.testing import mock_backend

    settings = loads_unit_config(REFERENCE.replace('"pressman-2003"', '"tablier"'))
    given = {"rules": None, "points": False, **flags}
    args = argparse.Namespace(seats="human, expert", seed=1, state_dir=tmp_path, link=None,
                              **given)  # fmt: skip
    hal = mock_backend(settings.hardware)
    try:
        unit = _unit_on(hal, settings, args)
        assert not isinstance(unit, int)
        setup = unit.controller.preset
        assert (setup.seats, setup.preset, setup.points) == (("human", "expert"), *expected)
    finally:
        hal.close()


def test_run_seats_name_a_bad_rules_flag(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    import argparse

    from firmware.commands.run import _unit_on
    from hal.testing import mock_backend

    settings = loads_unit_config(REFERENCE)
    args = argparse.Namespace(seats="human,expert", rules="nope", points=False, seed=1,
                              state_dir=tmp_path, link=None)  # fmt: skip
    hal = mock_backend(settings.hardware)
    try:
        assert _unit_on(hal, settings, args) == 2
    finally:
        hal.close()
    assert "--seats: " in caplog.text and "'nope'" in caplog.text
