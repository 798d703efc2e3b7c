"""The UI state is one frozen value (issue 24, item 2): the controller takes it, the views
draw from it, the link sends it as JSON and a harness rebuilds it; nothing outside
firmware/unit reads the unit's private names."""

from __future__ import annotations

import ast
import json
import random
from pathlib import Path

from firmware.games.switch16.controller import Controller
from firmware.games.switch16.engine import State
from firmware.games.switch16.setup import GameSetup
from firmware.games.switch16.ui_state import UiState
from firmware.settings import Timing
from firmware.unit.shell import ShellView
from firmware.unit.ui_state import Mode
from hal.events import Button, ButtonDown

from .conftest import TIMING, ScriptedRng, open_table
from .play import act

ROOT = Path(__file__).resolve().parents[2]


def _round_trip(ui: UiState) -> UiState:
    return UiState.from_json(json.loads(json.dumps(ui.to_json())), ui.state)


def test_the_setup_menu_round_trips_through_json() -> None:
    ctl = Controller(4, Timing(), GameSetup())
    seen = []
    for button in (Button.CHIP, Button.YES, Button.CHIP, Button.CHIP, Button.YES, Button.NO):
        ctl.handle(ButtonDown(0.0, 0, button), 0.0)
        ui = ctl.ui()
        assert ui.mode is Mode.SETUP and ui.setup is not None
        assert _round_trip(ui) == ui
        seen.append((ui.setup.index, ui.setup.question))
    assert len(set(seen)) > 3  # questions and answers changed


def test_every_moment_of_a_match_round_trips_through_json(tmp_path: Path) -> None:
    """A points match of a human and a bot, played by pins: the UI state after every
    step (roll-off, menus, banners, tumbling dice, a roll shown, hints, reviews, the
    points table) comes back equal from its JSON."""
    setup = GameSetup.of(["human", "easy"], points=True)
    policy = random.Random(5)
    kinds: set[str] = set()
    with open_table(tmp_path, setup=setup, rng=ScriptedRng(5), timing=TIMING) as table:
        ctl = table.unit.controller
        for _ in range(400):
            ui = ctl.ui()
            assert _round_trip(ui) == ui
            kinds.update(k for k in ("menus", "banners", "tumble", "roll_shown", "rolloff")
                         if getattr(ui, k))  # fmt: skip
            kinds.update(["reviews"] if ui.shell.reviews else [])
            if table.unit.finished:
                break
            act(table, policy)
            table.unit.run_for(0.1)
    assert {"menus", "banners", "roll_shown", "rolloff"} <= kinds


def test_a_frozen_value_a_hint_and_a_review() -> None:
    st = State.new(2)
    shell = ShellView(message=("SAVED", "ok"), reviews=((0, "no costly choice"),))
    ui = UiState(Mode.PLAY, st, ("human", "easy"), hints=(0,), shell=shell, tumble=(0, 3))
    assert _round_trip(ui) == ui
    assert ui.extras(1) == ["message=['SAVED', 'ok']"] and not ui.plain(1)
    assert UiState.playing(st, ("human", "easy")).plain(1)


def _unit_private_names() -> set[str]:
    """Private attributes and functions defined in firmware/unit."""
    names: set[str] = set()
    for path in (ROOT / "firmware" / "unit").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                names.add(node.attr)
            elif isinstance(node, ast.FunctionDef | ast.ClassDef):
                names.add(node.name)
    return {n for n in names if n.startswith("_") and not n.startswith("__")}


def _reads_of_private(path: Path, private: set[str]) -> list[str]:
    """``x._name`` (x not self/cls) and ``getattr(x, "_name")`` of a unit's private name
    the file does not define itself."""
    tree = ast.parse(path.read_text("utf-8"))
    stored = [n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)
              and isinstance(n.ctx, ast.Store)]  # fmt: skip
    defined = [n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.ClassDef)]
    own = {*stored, *defined}
    out = []
    for node in ast.walk(tree):
        name = None
        if isinstance(node, ast.Attribute) and not (
            isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")
        ):
            name = node.attr
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id in ("getattr", "hasattr") and len(node.args) > 1
              and isinstance(node.args[1], ast.Constant)):  # fmt: skip
            name = str(node.args[1].value)
        if name in private and name not in own:
            out.append(f"{path.relative_to(ROOT)}:{node.lineno} {ast.unparse(node)}")
    return out


def test_nothing_outside_the_unit_reads_its_private_names() -> None:
    """The link, its harness and the simulator read the unit through public names only
    (the link read ``_ahead`` with getattr)."""
    private = _unit_private_names()
    assert "_ahead" in private
    files = [*(ROOT / "firmware" / "link").rglob("*.py"), *(ROOT / "sim").rglob("*.py")]
    assert [bad for path in files for bad in _reads_of_private(path, private)] == []
