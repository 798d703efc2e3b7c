"""Power cuts for real: ``switch16 run`` processes SIGKILLed at random moments.

Each round starts ``switch16 run`` (the Pi backend on gpiozero's mock pins, no
panels attached, four bot seats, fast timing) on one state directory and kills it:
half the rounds from outside after a random delay, half from inside at a journal
write (:mod:`tools.reliability.killpoint`: before or after the new journal's rename,
or halfway through a line). After every kill the state directory must hold only
legal journals (a torn last line allowed), the game seen after the previous kill must
be a prefix of the journal or archived game that follows, and no ``corrupt-*`` file
may appear. It goes on until ``--kills`` kills and at least ``--games`` archived games.

    python3 -m tools.reliability.powercut                 # long form: 300 kills
    python3 -m tools.reliability.powercut --kills 6 --games 0
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from firmware.transcript import replay_file

#: [timing] keys for fast bots (and no buzzer): a game takes seconds.
FAST_TIMING = {"bot_thinking_s": 0.02, "discard_window_s": 0.02, "roll_show_s": 0.02}
SEATS = "easy,rulebook,expert,rulebook"


@dataclass
class Outcome:
    kills: int = 0
    inside: int = 0
    archived: int = 0
    torn: int = 0
    problems: list[str] = field(default_factory=list)


def fast_config(directory: Path) -> Path:
    from hal.config import REFERENCE_CONFIG

    text = REFERENCE_CONFIG.read_text(encoding="utf-8")
    fast = "".join(f"\n{key} = {value}" for key, value in FAST_TIMING.items())
    text = text.split("[buzzer]")[0] + "[timing]" + fast + text.split("[timing]", 1)[1]
    path = directory / "unit.toml"
    path.write_text(text, encoding="utf-8")
    return path


def full_lines(path: Path) -> list[str]:
    """The complete lines of a journal (a torn last line left out)."""
    lines = path.read_text(encoding="utf-8").split("\n")
    return lines[:-1]


class Checker:
    """What must hold in the state directory after every kill."""

    def __init__(self, state: Path, outcome: Outcome) -> None:
        self.state, self.outcome = state, outcome
        self.previous: list[str] = []
        self.archived = 0

    def check(self, label: str) -> None:
        out = self.outcome
        corrupt = sorted(p.name for p in self.state.glob("corrupt-*"))
        if corrupt:
            out.problems.append(f"{label}: a kill left {corrupt}")
        games = sorted((self.state / "games").glob("*.jsonl"))
        for game in games[self.archived :]:
            result = replay_file(game)
            if not (result.ok and result.state is not None and result.state.game_over):
                out.problems.append(f"{label}: archived {game.name} does not replay: "
                                    f"{result.error}")  # fmt: skip
        current = self.state / "current.jsonl"
        lines: list[str] = []
        if current.exists():
            result = replay_file(current)
            if not result.ok and not result.torn:
                out.problems.append(f"{label}: current.jsonl is damaged: {result.error}")
            out.torn += result.torn
            lines = full_lines(current)
        continued = games[self.archived] if len(games) > self.archived else None
        follows = full_lines(continued) if continued is not None else lines
        if self.previous and follows[: len(self.previous)] != self.previous:
            out.problems.append(f"{label}: the journal before the kill is not a prefix of "
                                f"{continued.name if continued else 'current.jsonl'}")  # fmt: skip
        self.archived = len(games)
        out.archived = len(games)
        self.previous = lines


def run(kills: int, games: int, seed: int, max_delay: float, log: Path | None) -> Outcome:
    rng = random.Random(seed)
    outcome = Outcome()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        config, state = fast_config(root), root / "state"
        checker = Checker(state, outcome)
        env = {**os.environ, "GPIOZERO_PIN_FACTORY": "mock", "SWITCH16_HAL": "pi"}
        args = ["run", "--config", str(config), "--state-dir", str(state), "--seats", SEATS]
        sink = open(log or os.devnull, "ab")  # noqa: SIM115 - closed below
        try:
            while outcome.kills < kills or outcome.archived < games:
                inside = rng.random() < 0.5
                if inside:
                    cmd = [sys.executable, "-m", "tools.reliability.killpoint",
                           str(rng.randrange(1 << 30)), "--", *args]  # fmt: skip
                else:
                    cmd = [sys.executable, "-m", "firmware.cli", *args]
                proc = subprocess.Popen(cmd, env=env, stdout=sink, stderr=sink,
                                        cwd=Path(__file__).resolve().parents[2])  # fmt: skip
                try:
                    proc.wait(timeout=0.5 + rng.uniform(0, max_delay))
                except subprocess.TimeoutExpired:
                    proc.send_signal(signal.SIGKILL)
                    proc.wait()
                if proc.returncode not in (-signal.SIGKILL,):
                    outcome.problems.append(f"round {outcome.kills}: exited {proc.returncode}")
                outcome.kills += 1
                outcome.inside += inside and proc.returncode == -signal.SIGKILL
                checker.check(f"kill {outcome.kills}")
                if len(outcome.problems) > 20:
                    break
        finally:
            sink.close()
    return outcome


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=300)
    parser.add_argument("--games", type=int, default=10, help="archived games at least")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-delay", type=float, default=4.0, help="seconds before a kill")
    parser.add_argument("--log", type=Path, help="append the units' logs here")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    out = run(args.kills, args.games, args.seed, args.max_delay, args.log)
    for problem in out.problems[:10]:
        print(problem, file=sys.stderr)
    print(f"power cuts: {out.kills} kills ({out.inside} at a journal write), {out.archived} "
          f"games archived, {out.torn} torn lines dropped, {len(out.problems)} problems, "
          f"{time.perf_counter() - start:.0f} s")  # fmt: skip
    return 1 if out.problems else 0


if __name__ == "__main__":
    sys.exit(main())
