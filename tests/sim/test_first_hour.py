"""The simulator as a newcomer meets it (issue 10): resizing, no X server, repeated and
interrupted demos, a quiet terminal."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pygame
import pytest

from sim.app import NO_DISPLAY
from sim.hal import SimHal
from sim.window import SimWindow
from tests.conftest import demo_dir

ROOT = Path(__file__).resolve().parents[2]


def sim(*args: str, env: dict[str, str] | None = None, cwd: Path) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "sim", *args], cwd=cwd, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip


def test_the_window_survives_a_resize_from_outside(display: None) -> None:
    window = SimWindow(SimHal(seats=2), scale=2)
    window.draw()
    pygame.display.set_mode((300, 200), pygame.RESIZABLE)  # what a window manager does
    window.handle(pygame.event.Event(pygame.VIDEORESIZE, size=(300, 200), w=300, h=200))
    window.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_z, mod=0, unicode="z"))
    window.draw()
    surface = pygame.display.get_surface()
    assert surface.get_size() == (300, 200)
    assert surface.get_at((150, 100))[:3] != (0, 0, 0)  # the table is drawn, scaled down
    # a click lands on the button drawn under it, whatever the window's size
    seat, button = 0, next(iter(window.layout.panels[0].buttons))
    centre = window.layout.panels[seat].buttons[button].center
    shown = window._shown
    pos = (shown.x + centre[0] * shown.w // window.layout.size[0],
           shown.y + centre[1] * shown.h // window.layout.size[1])  # fmt: skip
    assert window.button_at(window.to_layout(pos)) == (seat, button)


def test_display_set_but_no_x_server_falls_back_to_the_demo(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SDL_")}
    env |= {"DISPLAY": ":97", "SDL_AUDIODRIVER": "dummy"}
    proc = sim("--players", "2", "--seed", "4", "--state-dir", str(tmp_path / "s"), env=env,
               cwd=tmp_path)  # fmt: skip
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    assert out.splitlines()[0] == NO_DISPLAY
    assert (demo_dir() / "transcript.jsonl").exists()


def test_a_second_demo_does_not_mix_its_pictures_with_the_first(tmp_path: Path) -> None:
    for seed in ("5", "6"):
        out, err = sim("--headless", "--seed", seed, "--shots-every", "3", cwd=tmp_path
                       ).communicate(timeout=300)  # fmt: skip
    listed = out.strip().splitlines()[-1].split("screenshots ", 1)[1].split(" in ")[0]
    assert sorted(p.name for p in demo_dir().glob("shot-*.png")) == sorted(
        listed.split(", "))  # fmt: skip
    assert "pygame" not in out + err  # no banner, no audio noise in headless mode


def test_ctrl_c_stops_the_demo_without_a_traceback(tmp_path: Path) -> None:
    proc = sim("--headless", "--seed", "7", "--players", "4", "--points", cwd=tmp_path)
    assert proc.stdout is not None
    # the demo is under way (its Ctrl-C handler in place: the loop stops between steps)
    assert proc.stdout.readline().startswith("sim demo:")
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and "Traceback" not in err, err


def test_sim_without_pygame_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A wheel installed without the sim extra: a clear message, not a traceback."""
    import importlib.util

    from sim import app

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "pygame" else real(name, *a)
    )
    assert app.main(["--headless"]) == 2
    assert "pygame is not installed" in capsys.readouterr().err
