"""``sim --headless``: bots play a game on a virtual clock in an invisible window.

Prints one line per turn, saves the transcript (the unit's journal of the game) and
PNG screenshots of the window: at the start, every few turns mid-game and at the end.
Every screenshot also checks that each OLED panel equals the frame the unit sent.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

import pygame

from firmware.api import (
    load_unit_config,
    make_unit,
    on_transition,
    seat_name,
)
from hal.clock import VirtualClock
from hal.signals import handling_signals
from sim.hal import SimHal
from sim.host import SimHost
from sim.options import preset_setup
from sim.window import SimWindow

#: Files a demo writes into its directory (besides shot-NN-*.png and journal/).
OUTPUTS = ("transcript.jsonl", "turns.txt")
#: Virtual seconds a demo may take before it gives up (a points match is long).
MAX_GAME_SECONDS = 24 * 3600.0


class Demo:
    """A headless bot game: unit + SimHal on a VirtualClock + an offscreen window."""

    def __init__(self, args: argparse.Namespace, out: TextIO | None = None) -> None:
        self.args = args
        self.print: Callable[[str], None] = lambda line: print(
            line, file=out or sys.stdout, flush=True
        )
        self.dir: Path = args.out
        self.dir.mkdir(parents=True, exist_ok=True)
        for old in [*self.dir.glob("shot-*.png"), *(self.dir / name for name in OUTPUTS)]:
            old.unlink(missing_ok=True)  # a previous demo's pictures must not mix in
        settings = load_unit_config(args.config)
        setup = preset_setup(args, all_bots=True)
        assert setup is not None
        self.setup = setup
        self.seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
        self.clock = VirtualClock()
        self.hal = SimHal(settings.hardware, clock=self.clock, seats=self.setup.players)
        self.window = SimWindow(self.hal, scale=args.scale or 2, oled=args.oled, shots=self.dir,
                                screen=None)  # fmt: skip
        self.game: str = args.game
        self.unit = make_unit(self.hal, settings, state_dir=self.dir / "journal",
                              seed=self.seed, setup=self.setup, unwatched=True,
                              game=self.game)  # fmt: skip
        self.unit.journal.archive()  # a demo interrupted earlier: keep it, start afresh
        self.host = SimHost(self.unit, self.window, seed=self.seed)
        self.log = self.unit.game.turn_log(tuple(f"bot {kind}" for kind in self.setup.seats))
        on_transition(self.unit, self._committed)
        self.shots: list[Path] = []
        self.lines: list[str] = []
        self._shot_due = "start"
        self.mismatches = 0
        #: Ctrl-C: the loop ends at its next step
        self.stop_requested = False

    def _committed(self, before: Any, action: Any, state: Any) -> None:
        """The game's log lines (:meth:`Game.turn_log`); a picture every
        ``--shots-every`` turns and where the log calls for one."""
        for line in self.log.step(before, action, state):
            self.lines.append(line)
            self.print(line)
            if self.log.turns and self.log.turns % self.args.shots_every == 0:
                self._shot_due = f"turn-{self.log.turns:03d}"
        picture = self.log.picture(before, state)
        if picture == "end" or (picture is not None and self._shot_due.startswith("start")):
            self._shot_due = picture

    def shot(self, name: str) -> Path:
        """Draw the window now, check every panel is pixel-exact, save a PNG."""
        self.host.redraw(force=True)
        for seat, display in enumerate(self.hal.displays):
            if self.window.read_panel(seat).tobytes() != display.frame.tobytes():
                self.mismatches += 1
                self.print(f"!!! {seat_name(seat)}: the window does not show the unit's frame")
        path = self.window.screenshot(self.dir / f"shot-{len(self.shots):02d}-{name}.png")
        self.shots.append(path)
        return path

    def _mid_game_moment(self) -> bool:
        """A good moment for a mid-game picture: dice on the table, a decision pending."""
        state = self.unit.state
        return state is not None and self.log.moment(state)

    def run(self) -> int:
        """Play to the end; returns the exit status."""
        setup = self.setup
        seats = ", ".join(f"{seat_name(s)} {kind}" for s, kind in enumerate(setup.seats))
        what = self.unit.game.setup_text(setup)
        self.print(f"sim demo: {setup.players} bots ({seats}), {what}, seed {self.seed}")
        unit, clock = self.unit, self.clock
        unit.start()
        end = clock.now() + MAX_GAME_SECONDS
        while not unit.finished and clock.now() < end:
            if self.stop_requested:  # stopped between two steps, never inside one
                raise KeyboardInterrupt
            deadline = unit.next_deadline()
            clock.set(max(clock.now(), min(end, deadline if deadline is not None else end)))
            self.host.handle_input()
            unit.step()
            due = self._shot_due
            if due and due != "end" and (due == "start-roll" or self._mid_game_moment()):
                self.shot(due)
                self._shot_due = ""
        if not unit.finished:
            self.print(f"sim demo: no winner after {MAX_GAME_SECONDS:.0f} virtual seconds")
            return 1
        unit.run_for(3.0)  # let the final banners show
        self.shot("end")
        transcript = self._save_transcript()
        (self.dir / "turns.txt").write_text("\n".join(self.lines) + "\n", encoding="utf-8")
        self.print(f"sim demo: {self.log.turns} turns, {unit.actions} actions, "
                   f"{clock.now():.0f} s of unit time")  # fmt: skip
        self.print(f"sim demo: transcript {transcript}")
        self.print(f"sim demo: screenshots {', '.join(p.name for p in self.shots)} in {self.dir}")
        return 0 if self.mismatches == 0 else 1

    def _save_transcript(self) -> Path:
        games = sorted((self.dir / "journal" / "games").glob("*.jsonl"))
        target = self.dir / "transcript.jsonl"
        shutil.copyfile(games[-1], target)
        return target

    def close(self) -> None:
        self.unit.close()


def run_demo(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Run the headless demo with SDL's dummy drivers."""
    if pygame.display.get_init():
        pygame.display.quit()
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ["SDL_AUDIODRIVER"] = "dummy"
    pygame.display.init()
    pygame.font.init()
    demo = Demo(args, out)

    def stop(signum: int, frame: object) -> None:
        demo.stop_requested = True

    try:
        with handling_signals(stop, (signal.SIGINT,)):
            return demo.run()
    finally:
        demo.close()
        pygame.display.quit()
