"""CPU of an idle simulator window (issue 10: target ≤ 0.2 % of a core).

Starts ``sim`` in a real X window (on the current ``DISPLAY``; with none it starts its
own ``Xvfb`` when installed), waits for it to settle, and reads the process's CPU time
from /proc over a quiet stretch: once at the set-up menu and once in a game waiting for
a human seat. Prints the median of the samples per situation.

    python3 benchmarks/sim_idle.py [--seconds 20] [--samples 3]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator

SITUATIONS = {
    "set-up menu": [],
    "game, waiting for a human": ["--players", "2", "--bots", "2", "--seed", "3"],
}


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@contextlib.contextmanager
def x_display() -> Iterator[str]:
    if os.environ.get("DISPLAY"):
        yield os.environ["DISPLAY"]
        return
    if shutil.which("Xvfb") is None:
        sys.exit("no DISPLAY and no Xvfb (apt-get install xvfb)")
    server = subprocess.Popen(["Xvfb", ":77", "-screen", "0", "1600x1000x24"],
                              stderr=subprocess.DEVNULL)  # fmt: skip
    time.sleep(1)
    try:
        yield ":77"
    finally:
        server.terminate()


def measure(display: str, args: list[str], seconds: float) -> float:
    """Percent of one core the window uses while nothing happens."""
    with tempfile.TemporaryDirectory() as state:
        env = {**os.environ, "DISPLAY": display, "SDL_AUDIODRIVER": "dummy"}
        proc = subprocess.Popen([sys.executable, "-m", "sim", "--state-dir", state, *args],
                                env=env, stdout=subprocess.DEVNULL)  # fmt: skip
        try:
            time.sleep(6)  # start-up, roll-off and the bot's first moves
            before = cpu_seconds(proc.pid)
            time.sleep(seconds)
            return (cpu_seconds(proc.pid) - before) / seconds * 100
        finally:
            proc.terminate()
            proc.wait()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--samples", type=int, default=3)
    opts = parser.parse_args()
    with x_display() as display:
        for name, args in SITUATIONS.items():
            samples = [measure(display, args, opts.seconds) for _ in range(opts.samples)]
            each = ", ".join(f"{s:.2f}" for s in samples)
            print(f"idle window, {name}: median {statistics.median(samples):.2f} % of a core "
                  f"({each}; {opts.seconds:.0f} s each)")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
