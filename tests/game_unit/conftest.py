"""Fixtures for the unit tests: the real Pi backend on MockFactory + the fake OLED bus,
virtual time, and a :class:`Table` that plays by driving pins."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from PIL import Image

from firmware.games.switch16.config import Switch16Timing
from firmware.games.switch16.engine import SWITCH_DIE, Face
from firmware.games.switch16.screens import render_seat
from firmware.games.switch16.seat_views import seat_view
from firmware.games.switch16.setup import GameSetup
from firmware.unit import Timing, Unit
from hal.config import REFERENCE_CONFIG, UnitConfig, load_config
from hal.events import Button
from hal.testing import MockPi, mock_pi_hal

YES, NO, CHIP = Button.YES, Button.NO, Button.CHIP
TIMING = Timing(bot_thinking=0.3, games=(Switch16Timing(tumble=0.3),))


class ScriptedRng(random.Random):
    """A seeded rng whose ``random()`` first returns scripted values (dice for roll_dice)."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.script: list[float] = []

    def random(self) -> float:
        return self.script.pop(0) if self.script else super().random()

    def next_roll(self, dice: tuple[int, ...], switch: Face | str = Face.BLANK) -> None:
        """Make the next roll come out as ``dice`` and ``switch``."""
        self.script += [(d - 0.5) / 6 for d in dice]
        self.script.append((SWITCH_DIE.index(Face(switch)) + 0.5) / 6)


def same(a: Image.Image, b: Image.Image) -> bool:
    return a.size == b.size and a.convert("1").tobytes() == b.convert("1").tobytes()


@dataclass
class Table:
    """A unit on the mocked Pi, played through its pins on virtual time."""

    pi: MockPi
    unit: Unit
    dir: Path

    @property
    def state(self):
        return self.unit.state

    def press(self, seat: int, button: Button | str, hold: float = 0.05) -> None:
        """Press and release a seat's button (pins: pressed is low)."""
        self.pi.press(seat, button)
        self.unit.run_for(hold)
        self.pi.release(seat, button)
        self.unit.run_for(0.05)

    def long_press(self, seat: int, button: Button | str) -> None:
        self.press(seat, button, hold=self.pi.config.timing.long_press_s + 0.1)

    def shake(self, edges: int = 12, period: float = 0.03) -> None:
        """A pulse train on the shaker input (then quiet, so the shake stops)."""
        for _ in range(edges):
            self.pi.shaker_edge()
            self.unit.run_for(period)

    def run_until(self, predicate: Callable[[], bool], seconds: float = 60.0) -> None:
        assert self.unit.run_until(predicate, seconds), "timed out (virtual time)"

    def after_action(self, seconds: float = 30.0) -> None:
        """Run until one more action is committed."""
        n = self.unit.actions
        self.run_until(lambda: self.unit.actions > n, seconds)

    def glass_shows_view(self, seat: int) -> bool:
        """The panel shows exactly the screens renderer's image for the seat's view."""
        return same(self.pi.glass(seat), render_seat(seat_view(self.unit.controller.ui(), seat)))

    def journal(self) -> list[dict]:
        path = self.dir / "current.jsonl"
        return [json.loads(line) for line in path.read_text().splitlines()]

    def actions(self) -> list[dict]:
        return self.journal()[1:]


def write_journal(directory: Path, header: dict, *actions: dict) -> Path:
    path = directory / "current.jsonl"
    lines = [json.dumps(header), *(json.dumps(a) for a in actions)]
    path.write_text("".join(line + "\n" for line in lines))
    return path


def header(players: int = 2, first: int = 0, seats: list[str] | None = None, **extra: object):
    out: dict = {"switch16": 1, "players": players, "first": first, "rules": "pressman-2003"}
    out["seats"] = seats or ["human"] * players
    return out | extra


@contextmanager
def open_table(
    directory: Path,
    *,
    setup: GameSetup | None = None,
    rng: random.Random | None = None,
    timing: Timing = TIMING,
    config: UnitConfig | None = None,
    **unit_kwargs: object,
) -> Iterator[Table]:
    """A started unit on a fresh mocked Pi; leaving the block "pulls the plug"
    (the HAL closes, the journal is left as it is)."""
    with mock_pi_hal(config or load_config(REFERENCE_CONFIG)) as pi:
        unit = Unit(pi.hal, directory, setup=setup, rng=rng or ScriptedRng(1), timing=timing,
                    **unit_kwargs)  # type: ignore[arg-type]  # fmt: skip
        unit.start()
        yield Table(pi, unit, directory)


@pytest.fixture(autouse=True)
def _no_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SWITCH16_HAL", raising=False)
    monkeypatch.delenv("SWITCH16_CONFIG", raising=False)


@pytest.fixture(autouse=True)
def ram(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The test's own stand-in for /dev/shm, where the journal mirrors unsaved games."""
    path = tmp_path_factory.mktemp("shm")
    monkeypatch.setattr("firmware.unit.spill.RAM", path)
    return path


@pytest.fixture
def two_humans(tmp_path: Path) -> Iterator[Table]:
    """Seat 0 and seat 1 human, seat 0 starts, scripted dice (``table.unit.rng``)."""
    write_journal(tmp_path, header())
    with open_table(tmp_path) as table:
        yield table
