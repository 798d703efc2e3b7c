"""The window hosting the real unit loop: a game played with scripted keys and mouse."""

from __future__ import annotations

from itertools import count
from pathlib import Path

import pygame
import pytest

from firmware.games.switch16.controller import Mode
from firmware.games.switch16.engine import Phase
from firmware.games.switch16.setup import GameSetup
from firmware.settings import GameSettings
from firmware.transcript import replay_file
from firmware.unit import Unit
from hal.clock import VirtualClock
from hal.config import load_config
from hal.events import Button
from sim.hal import SimHal
from sim.host import IDLE_WAIT, SimHost
from sim.window import SEAT_KEYS, SHAKE_KEY, SimWindow

pytestmark = pytest.mark.usefixtures("display")

KEYS = SEAT_KEYS[0]


class Player:
    """Seat 1 (index 0) played through pygame events posted to the window."""

    def __init__(self, host: SimHost, clock: VirtualClock) -> None:
        self.host = host
        self.clock = clock
        self.window = host.window
        self.turns = count()
        self.used: set[str] = set()

    def wait(self, seconds: float) -> None:
        end = self.clock.now() + seconds
        while (deadline := self.host.unit.next_deadline()) is not None and deadline < end:
            self.clock.set(max(deadline, self.clock.now()))
            self.host.pump()
        self.clock.set(end)
        self.host.pump()

    def post(self, *events: pygame.event.Event, gap: float = 0.05) -> None:
        for event in events:
            pygame.event.post(event)
            self.host.pump()
            self.wait(gap)

    def key(self, code: int, hold: float = 0.05) -> None:
        self.post(key_event(pygame.KEYDOWN, code), gap=hold)
        self.post(key_event(pygame.KEYUP, code))

    def click(self, seat: int, button: Button) -> None:
        pos = self.window.layout.panels[seat].buttons[button].center
        self.post(
            pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1),
            pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1),
        )

    def roll(self) -> None:
        """Roll in turn: the shake key, the roll key, a click, a mouse wiggle."""
        way = next(self.turns) % 4
        if way == 0:
            self.used.add("space")
            self.key(SHAKE_KEY, hold=0.6)
        elif way == 1:
            self.used.add("key")
            self.key(KEYS[Button.YES])
        elif way == 2:
            self.used.add("click")
            self.click(0, Button.YES)
        else:
            self.used.add("wiggle")
            centre = self.window.layout.shaker.center
            for i in range(16):
                rel = (25, 5) if i % 2 else (-25, -5)
                self.post(motion(centre, rel), gap=0.02)
        self.wait(1.0)

    def move(self) -> bool:
        """Make seat 1's move if the game waits for it; False when it does not."""
        st = self.host.unit.state
        ctl = self.host.unit.controller
        if st is None or ctl.mode is not Mode.PLAY or st.phase is Phase.OVER:
            return False
        if st.phase is Phase.ROLL and st.turn == 0 and ctl.tumble is None:
            self.roll()
        elif st.phase is Phase.DECIDE and st.turn == 0:
            self.key(KEYS[Button.YES if st.top_card(0) < 6 else Button.NO])
        elif st.phase in (Phase.BLOCK, Phase.GREEN, Phase.RED) and st.turn == 0:
            self.key(KEYS[Button.YES])
        elif st.phase is Phase.GREEN_REFUSAL and st.target == 0:
            self.key(KEYS[Button.NO])
        else:
            return False
        return True


def key_event(kind: int, code: int) -> pygame.event.Event:
    return pygame.event.Event(kind, key=code, mod=0, unicode="", scancode=0)


def motion(pos: tuple[int, int], rel: tuple[int, int]) -> pygame.event.Event:
    return pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=rel, buttons=(0, 0, 0))


def make_host(tmp_path: Path, setup: GameSetup | None, seed: int = 11, seats: int = 2):
    clock = VirtualClock()
    config = load_config(None)
    hal = SimHal(config, clock=clock, seats=seats)
    window = SimWindow(hal, scale=1, shots=tmp_path / "shots")
    unit = Unit.from_settings(
        hal, GameSettings(), state_dir=tmp_path / "state", seed=seed, setup=setup
    )
    return SimHost(unit, window, seed=seed), clock


def assert_panels_exact(host: SimHost) -> None:
    host.redraw(force=True)
    for seat, display in enumerate(host.window.hal.displays):
        assert host.window.read_panel(seat).tobytes() == display.frame.tobytes(), seat


def test_a_game_played_with_keys_and_mouse(tmp_path: Path) -> None:
    host, clock = make_host(tmp_path, GameSetup.of(["human", "expert"]))
    player = Player(host, clock)
    host.unit.start()
    for step in range(3000):
        if host.unit.finished:
            break
        if not player.move():
            deadline = host.unit.next_deadline()
            assert deadline is not None
            clock.set(max(deadline, clock.now()))
            host.pump()
        if step % 25 == 0:
            assert_panels_exact(host)
    assert host.unit.finished, host.unit.state
    assert player.used == {"space", "key", "click", "wiggle"}
    assert_panels_exact(host)
    frames = [d.frames for d in host.window.hal.displays]
    assert min(frames) > 10
    games = list((tmp_path / "state" / "games").glob("*.jsonl"))
    replayed = replay_file(games[0])
    assert replayed.ok and replayed.state is not None and replayed.state.game_over


def test_the_set_up_menu_runs_on_the_oleds(tmp_path: Path) -> None:
    host, clock = make_host(tmp_path, None, seats=4)
    player = Player(host, clock)
    host.unit.start()
    host.pump(force_draw=True)
    before = host.window.read_panel(2).tobytes()
    assert host.unit.controller.mode is Mode.SETUP and before != bytes(1024)
    player.key(SEAT_KEYS[2][Button.YES])
    assert host.window.read_panel(2).tobytes() != before
    assert_panels_exact(host)


def test_pump_only_redraws_when_something_changed(tmp_path: Path) -> None:
    host, clock = make_host(tmp_path, GameSetup.of(["human", "human"]))
    host.unit.start()
    host.pump(force_draw=True)
    draws = host.draws
    clock.advance(0.5)
    host.pump()
    assert host.draws == draws
    assert 0 < host.timeout() <= IDLE_WAIT
    pygame.event.post(key_event(pygame.KEYDOWN, KEYS[Button.YES]))
    host.pump()
    assert host.draws == draws + 1


def test_the_screenshot_key_saves_the_game(tmp_path: Path) -> None:
    host, _ = make_host(tmp_path, GameSetup.of(["human", "rulebook"]))
    host.unit.start()
    host.pump(force_draw=True)
    pygame.event.post(key_event(pygame.KEYDOWN, pygame.K_F12))
    host.pump()
    shots = list((tmp_path / "shots").glob("*.png"))
    assert len(shots) == 1
    assert pygame.image.load(str(shots[0])).get_size() == host.window.layout.size


def test_closing_the_window_stops_the_host(tmp_path: Path) -> None:
    host, _ = make_host(tmp_path, GameSetup.of(["human", "human"]))
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    host.run()
    assert not host.running
