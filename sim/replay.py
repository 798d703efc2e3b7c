"""``sim --replay FILE``: watch a transcript (a bug report, a finished game, a journal).

Every seat's panel shows what the unit showed right after each line: the views come from
the unit's own controller, fed the transcript's actions one by one
(:func:`firmware.api.load_replay`), and the screens renderer. Keys: Right / Left step
one line, PgDn / PgUp ten, Home / End the first / last line, SPACE plays and pauses at
``--speed`` lines a second (a roll that ended its turn stays up as long as on the unit),
G then digits and Enter jumps to a line, P or F12 saves a screenshot, Esc quits. A line
that is malformed or illegal ends the replay there; the table says which line and why.
``--headless`` writes the window at ``--lines`` to PNG files instead.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import time
from pathlib import Path

import pygame

from firmware.api import (
    Replay,
    ReplayError,
    Step,
    get_game,
    load_replay,
    load_unit_config,
)
from hal.clock import VirtualClock
from sim.display import NO_DISPLAY, NoDisplayError, check_visible_driver, display_available
from sim.hal import SimHal
from sim.idle import InputWaiter
from sim.options import parse_lines
from sim.tableview import game_table_view
from sim.window import SimWindow

#: The key legend while watching a replay.
KEYS = ("Right / Left: next / previous line", "PgDn / PgUp: ten lines",
        "Home / End: first / last line", "SPACE: play / pause",
        "G, a number, Enter: go to line", "P: screenshot · Esc: quit")  # fmt: skip


class ReplayScreen:
    """A :class:`~sim.window.SimWindow` showing one :class:`Replay` step at a time."""

    def __init__(self, replay: Replay, args: argparse.Namespace, screen: object = None) -> None:
        self.replay = replay
        settings = load_unit_config(args.config)
        self.hal = SimHal(settings.hardware, clock=VirtualClock(), seats=len(replay.kinds))
        #: How long the unit keeps a roll that ended its turn up, with the config's timing.
        self.roll_show = get_game(replay.game).roll_shown_for(settings.game.timing)
        self.window = SimWindow(self.hal, scale=args.scale or 2, oled=args.oled,
                                shots=args.shots, screen=screen,  # type: ignore[arg-type]
                                caption=f"Switch 16 replay: {replay.path}")  # fmt: skip
        self.index = 0
        self.typed: str | None = None  # digits typed after G

    @property
    def step(self) -> Step:
        return self.replay.steps[self.index]

    def go(self, line: int) -> None:
        """Show the game after ``line`` (clamped to the lines that replayed)."""
        steps = self.replay.steps
        self.index = max(0, min(len(steps) - 1, line - 1))

    def draw(self) -> None:
        step = self.step
        for seat, view in enumerate(step.views):
            self.hal.seats[seat].display.show(get_game(self.replay.game).render(view))
        table = game_table_view(self.replay.game, step.state, self.replay.kinds,
                                shown=step.shown)  # fmt: skip
        status = self.status()
        info = ("replay", Path(self.replay.path).name, *table.info)
        self.window.draw(dataclasses.replace(table, status=status, info=info, keys=KEYS))

    def status(self) -> str:
        """The table's line: where we are, the line typed after G, or why it stopped."""
        if self.typed is not None:
            return f"go to line: {self.typed}_"
        if self.replay.error is not None and self.step.line == self.replay.last_line:
            return f"stopped: {self.replay.error}"
        return f"line {self.step.line} of {self.replay.last_line}"

    def key(self, key: int) -> bool:
        """One key press; False to quit."""
        if self.typed is not None:
            if pygame.K_0 <= key <= pygame.K_9:
                self.typed += chr(key)
            elif key == pygame.K_BACKSPACE:
                self.typed = self.typed[:-1]
            else:
                if key == pygame.K_RETURN and self.typed:
                    self.go(int(self.typed))
                self.typed = None
            return True
        moves = {pygame.K_RIGHT: 1, pygame.K_LEFT: -1, pygame.K_PAGEDOWN: 10,
                 pygame.K_PAGEUP: -10}  # fmt: skip
        if key in moves:
            self.go(self.step.line + moves[key])
        elif key == pygame.K_HOME:
            self.go(1)
        elif key == pygame.K_END:
            self.go(self.replay.last_line)
        elif key == pygame.K_g:
            self.typed = ""
        elif key in (pygame.K_p, pygame.K_F12):
            self.window.screenshot()
        elif key == pygame.K_ESCAPE:
            return False
        return True


def run_headless(replay: Replay, args: argparse.Namespace) -> int:
    """Write the window at ``--lines`` to ``--out``/line-NNNN.png; 1 when the transcript
    has a bad line (as ``switch16 replay``), after the frames up to it."""
    if pygame.display.get_init():
        pygame.display.quit()
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ["SDL_AUDIODRIVER"] = "dummy"
    pygame.display.init()
    pygame.font.init()
    try:
        lines = parse_lines(args.lines, replay.last_line)
        screen = ReplayScreen(replay, args)
        out: Path = args.out
        out.mkdir(parents=True, exist_ok=True)
        for old in out.glob("line-*.png"):
            old.unlink()
        for line in lines:
            screen.go(line)
            screen.draw()
            path = screen.window.screenshot(out / f"line-{line:04d}.png")
            print(f"sim replay: line {line}: {path}")
    finally:
        pygame.display.quit()
    if replay.error is not None:
        print(f"sim replay: {replay.path} stops at {replay.error}", file=sys.stderr)
        return 1
    return 0


def run_window(replay: Replay, args: argparse.Namespace) -> int:
    """Watch in a window until Esc or the window is closed."""
    pygame.display.init()
    check_visible_driver()
    pygame.font.init()
    screen = ReplayScreen(replay, args)
    playing, period, last = False, 1.0 / max(args.speed, 0.01), time.monotonic()
    waiter = InputWaiter()
    try:
        screen.draw()
        while True:
            # a roll that ended its turn stays as long as the unit kept it up
            hold = max(period, screen.roll_show) if screen.step.shown else period
            timeout = max(0.0, last + hold - time.monotonic()) if playing else 3600.0
            for event in waiter.wait(timeout):
                if event.type == pygame.QUIT:
                    return 0
                if event.type in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED):
                    screen.window.present()
                elif event.type == pygame.KEYDOWN:
                    if event.key == pygame.K_SPACE:
                        playing, last = not playing, time.monotonic()
                    elif not screen.key(event.key):
                        return 0
                    screen.draw()
            if playing and time.monotonic() >= last + hold:
                last = time.monotonic()
                if screen.step.line >= replay.last_line:
                    playing = False
                else:
                    screen.go(screen.step.line + 1)
                screen.draw()
    finally:
        pygame.display.quit()


def main(args: argparse.Namespace) -> int:
    """``sim --replay FILE``: a window, or PNGs with ``--headless`` (also without a display)."""
    try:
        replay = load_replay(args.replay)
        if args.headless:
            return run_headless(replay, args)
        if not display_available():
            raise NoDisplayError("no DISPLAY or WAYLAND_DISPLAY")
        try:
            return run_window(replay, args)
        except pygame.error as exc:  # the window could not be opened
            raise NoDisplayError(str(exc)) from exc
    except (ReplayError, ValueError) as exc:
        print(f"sim: {exc}", file=sys.stderr)
        return 2
    except NoDisplayError as exc:
        print(NO_DISPLAY.replace("running the headless bot demo", "writing the replay's "
                                 "frames instead"), f"({exc})", flush=True)  # fmt: skip
        return run_headless(replay, args)
