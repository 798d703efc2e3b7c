"""The unit's start-up path stays light on a Pi Zero: no pygame, numpy or matplotlib
(issue 14). Checked in a fresh interpreter, as ``switch16 run`` starts."""

from __future__ import annotations

import json
import subprocess
import sys

HEAVY = {"pygame", "numpy", "matplotlib", "tqdm", "tomli_w"}
UNIT_PATH = """
import json, sys
from firmware import cli
parser = cli.build_parser()
from firmware.commands import run
from firmware.unit import Unit
from firmware.settings import load_unit_config
import firmware.games.switch16.bots, hal.pi, hal.backends, hal.mux
config = load_unit_config(None)
print(json.dumps(sorted({m.split(".")[0] for m in sys.modules})))
"""


def test_switch16_run_imports_nothing_heavy() -> None:
    done = subprocess.run([sys.executable, "-c", UNIT_PATH], capture_output=True, text=True,
                          check=True)  # fmt: skip
    loaded = set(json.loads(done.stdout))
    assert "firmware" in loaded and not loaded & HEAVY, loaded & HEAVY


ONE_COMMAND = """
import json, sys
from firmware import cli
try:
    cli.main([sys.argv[1], "--help"])
except SystemExit:  # --help exits once printed
    pass
print(json.dumps(sorted(sys.modules)))
"""


def _imported_by(command: str) -> set[str]:
    """The firmware modules ``switch16 COMMAND --help`` imports, in a fresh interpreter."""
    done = subprocess.run([sys.executable, "-c", ONE_COMMAND, command], capture_output=True,
                          text=True, check=True)  # fmt: skip
    loaded = json.loads(done.stdout.splitlines()[-1])
    return {m for m in loaded if m.startswith("firmware")}


def test_one_command_imports_only_what_it_needs() -> None:
    """``switch16 check-config`` imports its own module, not the other commands, the
    games' registry or any game (the parser listed and imported every game's commands)."""
    loaded = _imported_by("check-config")
    assert "firmware.commands.check_config" in loaded
    others = {m for m in loaded if m.startswith("firmware.commands.")} - {
        "firmware.commands.check_config"}  # fmt: skip
    assert not others and not {m for m in loaded if m.startswith("firmware.games")}, loaded
    odds = _imported_by("odds")  # a game's own command: found through the registry
    assert "firmware.games.switch16.commands.odds" in odds
    assert not {m for m in odds if m.startswith("firmware.commands.")}, odds
