"""The firmware's own config keys: [rules], [state] and the game timing, read from the
same document as the hardware; every key nobody reads is named."""

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
    assert game.preset == DEFAULT_PRESET and game.points is False
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
