"""Every game in the unit's loop on the mocked Pi (the real ``pi`` backend on gpiozero's
MockFactory, emulated panels): its bots play a game, every panel shows the game's render
of its view; the journal a power cut leaves mid-game resumes that position on a unit
started afresh, which plays on to the end; ``switch16 replay`` reads what it kept."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from firmware.cli import main
from firmware.games.game import Game
from firmware.transcript import replay_file
from firmware.unit.lookahead import Lookahead
from hal.events import Button

from .conftest import (
    bot_setup,
    given_options,
    glass_shows_views,
    seats_one_human,
    unit_on_mock_pi,
)


def kept_game(directory: Path) -> list[str]:
    """The transcript of the one game the unit archived in ``directory``."""
    (kept,) = (directory / "games").glob("*.jsonl")
    return kept.read_text().splitlines()


def test_a_game_its_power_cut_and_its_replay(
    name: str, game: Game, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    with unit_on_mock_pi(first, game=name, setup=bot_setup(game)) as (pi, unit):
        assert unit.run_until(lambda: unit.finished, 3600)
        assert unit.run_until(lambda: glass_shows_views(pi, unit), 5)
    lines = kept_game(first)
    cut = lines[: 1 + (len(lines) - 1) // 2]  # the journal as a power cut mid-game leaves it
    second.mkdir()
    (second / "current.jsonl").write_text("".join(line + "\n" for line in cut))
    with unit_on_mock_pi(second) as (pi, unit):  # a unit of any game, started afresh
        assert unit.game.name == name and unit.state is not None
        assert unit.run_until(lambda: glass_shows_views(pi, unit), 5)
        assert unit.run_until(lambda: unit.finished, 3600)
        final = unit.state
    assert kept_game(second)[: len(cut)] == cut  # it played on from where the cut left it
    (path,) = (second / "games").glob("*.jsonl")
    assert replay_file(str(path)).state == final
    assert main(["replay", "--json", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["state"] == final.to_json()


def test_a_press_is_on_its_seat_s_glass_before_the_game_handles_it(
    name: str, game: Game, tmp_path: Path
) -> None:
    """With the frames drawn ahead (as ``switch16 run`` sets the unit up), a person's
    press shows on its own panel before the game handles it: the frame foreseen for it,
    which is the frame the press shows (none foreseen wrong), in every game."""
    setup = game.with_options(game.setup_for(seats_one_human(game)), given_options(game))
    rng = random.Random(5)
    at_handle: list[bytes] = []
    changed = ahead = 0
    with unit_on_mock_pi(tmp_path, game=name, setup=setup, lookahead=Lookahead()) as (pi, unit):
        for _ in range(80):
            if unit.finished:
                break
            unit.run_for(0.3)  # the player reads the screen: the loop idles, drawing ahead
            controller = unit.controller
            handle = controller.handle

            def handled(event: Any, now: float, handle: Any = handle) -> Any:
                at_handle.append(pi.displays[0].ram_frame())
                return handle(event, now)

            controller.handle = handled  # type: ignore[method-assign]
            before = pi.displays[0].ram_frame()
            button = rng.choice(list(Button))
            pi.press(0, button)
            unit.step()
            controller.handle = handle  # type: ignore[method-assign]
            after = pi.displays[0].ram_frame()
            if after != before:
                changed += 1
                ahead += at_handle[0] != before  # changed as the game got the press
            at_handle.clear()
            pi.release(0, button)
            unit.run_for(0.05)
        assert unit.displays.foreseen_wrong == 0
        assert unit.run_until(lambda: glass_shows_views(pi, unit), 5)
    assert changed >= 5
    assert ahead == changed


def test_a_rematch_is_on_the_glass_before_the_unit_handles_it(
    name: str, game: Game, tmp_path: Path
) -> None:
    """The end screen's YES shows its rematch at once, in every game: its roll-off (the
    unit's dice foreseen on a copy, drawing nothing) or its first screen."""
    with unit_on_mock_pi(tmp_path, game=name, setup=bot_setup(game),
                         lookahead=Lookahead()) as (pi, unit):  # fmt: skip
        assert unit.run_until(lambda: unit.finished, 3600)
        unit.run_for(0.3)  # the loop idles: the rematch is drawn ahead
        before = pi.displays[0].ram_frame()
        pi.press(0, Button.YES)  # anyone answers the end at a table of bots
        unit.step()
        assert unit.displays.shown_ahead == 1
        assert unit.displays.foreseen_wrong == 0
        assert pi.displays[0].ram_frame() != before
        assert unit.run_until(lambda: glass_shows_views(pi, unit), 5)
        assert unit.run_until(lambda: unit.state is not None and not unit.finished, 30)
