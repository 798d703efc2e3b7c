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
