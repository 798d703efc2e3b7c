"""The firmware's own config keys: [state] and the unit's timing, and each game's own
sections (Switch 16's [rules]) and [timing] keys, read from the same document as the
hardware; every key nobody reads is named."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware.games.switch16.config import Switch16Timing
from firmware.games.switch16.engine import DEFAULT_PRESET
from firmware.settings import (
    DEFAULT_STATE_DIR,
    TIMING_KEYS,
    Timing,
    loads_unit_config,
    timing_from,
    timing_keys,
)
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
    for spec in timing_keys().values():
        assert spec.field in spec.kind.__dataclass_fields__, spec


def test_every_timing_key_is_named_for_the_maker() -> None:
    """The reference config and docs/PLAYING.md name every key, the unit's and each
    game's (the values: the timing classes only)."""
    readme = (REFERENCE_CONFIG.parents[1] / "docs" / "PLAYING.md").read_text(encoding="utf-8")
    timing = readme[readme.index("**Game timing**") :].split("\n\n")[0]
    section = REFERENCE[REFERENCE.index("[timing]") : REFERENCE.index("[displays]")]
    keys = timing_keys()
    assert set(TIMING_KEYS) < set(keys)  # Switch 16 brings its own
    for key in keys:
        assert f"`{key}`" in timing and key in section, key


def test_the_unit_keeps_only_its_own_timing_and_a_game_brings_the_rest() -> None:
    """Switch 16's windows, tumble and roll show are its own keys, read into its own
    class; the unit's Timing holds the delays every game has."""
    keys = timing_keys()
    own = {"discard_window_s", "refusal_window_s", "tumble_s", "roll_show_s"}
    assert {k for k, spec in keys.items() if spec.owner == "switch16"} == own
    assert {spec.kind for k, spec in keys.items() if k in own} == {Switch16Timing}
    assert not own & set(TIMING_KEYS)
    assert not {"discard_window", "tumble", "roll_show"} & set(Timing.__dataclass_fields__)


def test_a_games_timing_key_in_the_config_reaches_its_controller(tmp_path: Path) -> None:
    """``[timing] discard_window_s`` (a maker's unit.toml keeps working) is read by
    Switch 16's declaration and reaches its controller; the unit's keys beside it too."""
    from firmware.unit import Unit
    from hal.testing import mock_backend

    text = REFERENCE.replace("[timing]", "[timing]\ndiscard_window_s = 1.25\nbot_thinking_s = 2")
    settings = loads_unit_config(text)
    timing = settings.game.timing
    assert timing.of(Switch16Timing) == Switch16Timing(discard_window=1.25)
    assert timing.bot_thinking == 2.0
    hal = mock_backend(settings.hardware)
    try:
        unit = Unit.from_settings(hal, settings.game, state_dir=tmp_path, game="switch16")
        assert unit.controller.pace.discard_window == 1.25  # type: ignore[attr-defined]
    finally:
        hal.close()


@pytest.mark.parametrize(("line", "error"), [
    ("discard_window_s = 99", "timing.discard_window_s: 99 is out of range 0–60"),
    ("tumble_s = -1", "timing.tumble_s: -1 is out of range 0–10"),
    ('roll_show_s = "long"', "timing.roll_show_s: expected a number, got a string ('long')"),
    ("discard_windw_s = 1", "timing.discard_windw_s: unknown key"),
])  # fmt: skip
def test_a_bad_game_timing_key_is_named(line: str, error: str) -> None:
    assert error in errors_of_timing(line)


def errors_of_timing(line: str) -> list[str]:
    with pytest.raises(ConfigError) as info:
        loads_unit_config(REFERENCE.replace("[timing]", f"[timing]\n{line}"))
    return info.value.errors


def test_check_config_names_a_bad_game_timing_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from firmware.cli import main

    path = tmp_path / "unit.toml"
    path.write_text(REFERENCE.replace("[timing]", "[timing]\nrefusal_window_s = 601"))
    assert main(["check-config", str(path)]) == 1
    assert "timing.refusal_window_s: 601 is out of range 0–600" in capsys.readouterr().err


def test_a_plugin_games_own_timing_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game declares its ``[timing]`` keys in its package's ``config`` module (found
    without importing the game); one that declares a key another already has is named."""
    import sys
    import types
    from dataclasses import dataclass

    import firmware.settings as settings

    @dataclass(frozen=True)
    class ToyTiming:
        pause: float = 0.5

    toy = types.ModuleType("toy_game_config")
    toy.TIMING = ToyTiming  # type: ignore[attr-defined]
    toy.TIMING_KEYS = {"toy_pause_s": ("pause", 0, 3)}  # type: ignore[attr-defined]
    toy.read_config = lambda root: {}  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "toy_game_config", toy)
    parts = {**settings.game_parts("config"), "toy": "toy_game_config"}
    monkeypatch.setattr(settings, "game_parts", lambda part: parts)
    timing = loads_unit_config(
        REFERENCE.replace("[timing]", "[timing]\ntoy_pause_s = 2")
    ).game.timing
    assert timing.of(ToyTiming) == ToyTiming(2.0)
    assert timing.of(Switch16Timing) == Switch16Timing()
    assert "timing.toy_pause_s: 4 is out of range 0–3" in errors_of_timing("toy_pause_s = 4")
    toy.TIMING_KEYS = {"tumble_s": ("pause", 0, 3)}  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match=r"\[timing\] tumble_s: declared by both switch16 and toy"):
        loads_unit_config(REFERENCE)


def test_timing_from_keys_as_a_harness_writes_them() -> None:
    timing = timing_from({"tumble_s": 0.05, "dim_after_s": 0})
    assert timing == Timing(dim_after=0, games=(Switch16Timing(tumble=0.05),))
    assert Timing(games=(Switch16Timing(),)) == Timing()  # a game's defaults: as if not given
    with pytest.raises(ConfigError, match=r"timing\.tumbel_s: unknown key"):
        timing_from({"tumbel_s": 0.05})


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
