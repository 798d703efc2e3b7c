"""Every game's end screen is the unit's: its legend offers a rematch (YES) and a new game
(NO), and both work in the loop on the mocked Pi: a rematch journals a new game of the
same set-up (only who starts may differ), NO goes back to the set-up menu. The finished
game is one the unit resumed after a power cut, so the rematch plays the set-up the
journal's header names (no preset skips the menu)."""

from __future__ import annotations

import json
from pathlib import Path

from firmware.games.game import Game
from firmware.unit import Unit
from firmware.unit.controls import CONTROLS, END, legend
from firmware.unit.ui_state import Mode
from hal.events import Button
from hal.testing import MockPi

from .conftest import bot_setup, glass_shows_views, unit_on_mock_pi
from .test_unit import kept_game


def press(pi: MockPi, unit: Unit, seat: int, button: Button) -> None:
    pi.press(seat, button)
    unit.run_for(0.05)
    pi.release(seat, button)
    unit.run_for(0.05)


def header(path: Path) -> dict[str, object]:
    """A transcript's header line, who starts left out."""
    return without_first(path.read_text().splitlines()[0])


def without_first(line: str) -> dict[str, object]:
    return {key: value for key, value in json.loads(line).items() if key != "first"}


def test_the_end_screen_offers_a_rematch_and_a_new_game_and_both_work(
    name: str, game: Game, tmp_path: Path
) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    with unit_on_mock_pi(first, game=name, setup=bot_setup(game)) as (pi, unit):
        assert unit.run_until(lambda: unit.finished, 3600)
    lines = kept_game(first)
    second.mkdir()
    (second / "current.jsonl").write_text("".join(line + "\n" for line in lines[:-1]))
    played = without_first(lines[0])
    with unit_on_mock_pi(second) as (pi, unit):  # resumed one action before the end
        assert unit.game.name == name and unit.state is not None
        assert unit.run_until(lambda: unit.finished, 3600)
        assert unit.run_until(lambda: glass_shows_views(pi, unit), 5)
        ui = unit.controller.ui()
        for seat in range(unit.state.players):  # (a seat out of the game shows so)
            shown = repr(game.seat_view(ui, seat))
            assert all(label in shown for _, label in legend(CONTROLS[END])), (seat, shown)
        press(pi, unit, 0, Button.CHIP)  # no key: it only wakes the displays
        assert unit.finished
        final = unit.state
        press(pi, unit, 0, Button.YES)  # a bots' table: any seat answers
        began = lambda: unit.controller.ui().mode == Mode.PLAY and unit.state is not final  # noqa: E731
        assert unit.run_until(began, 60), "the rematch (after a roll-off, or none) began"
        assert unit.run_until(lambda: glass_shows_views(pi, unit), 5)
        assert unit.run_until(lambda: unit.finished, 3600)
        press(pi, unit, 0, Button.CHIP)
        press(pi, unit, 0, Button.NO)
        assert unit.run_until(lambda: unit.controller.ui().mode == Mode.SETUP, 5)
        assert unit.state is None and unit.run_until(lambda: glass_shows_views(pi, unit), 5)
    resumed, rematch = (header(path) for path in sorted((second / "games").glob("*.jsonl")))
    assert resumed == rematch == played, "the rematch played the same set-up"
