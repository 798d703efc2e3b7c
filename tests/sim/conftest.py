"""The simulator's tests run headless: SDL dummy video and audio, set before pygame loads."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame
import pytest

from hal.clock import VirtualClock
from sim.hal import SimHal


@pytest.fixture
def clock() -> VirtualClock:
    return VirtualClock(100.0)


@pytest.fixture
def hal(clock: VirtualClock) -> SimHal:
    return SimHal(clock=clock)


@pytest.fixture
def display():
    """An initialised (dummy) pygame display, shut down after the test."""
    pygame.display.init()
    pygame.font.init()
    yield
    pygame.display.quit()
