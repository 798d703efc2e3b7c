"""The window: pixel-exact OLED panels, keyboard and mouse input, screenshots."""

from __future__ import annotations

import random
from pathlib import Path

import pygame
import pytest
from PIL import Image, ImageDraw

from hal.clock import VirtualClock
from hal.events import Button, ButtonDown, ButtonUp, ShakeStarted
from sim.hal import SimHal
from sim.window import SEAT_KEYS, SHAKE_KEY, SimWindow, TableView

pytestmark = pytest.mark.usefixtures("display")


def noise(seed: int) -> Image.Image:
    rng = random.Random(seed)
    image = Image.frombytes("1", (128, 64), bytes(rng.randrange(256) for _ in range(1024)))
    ImageDraw.Draw(image).text((3, 3), f"seat {seed}", fill=1)
    return image


def key(kind: int, code: int) -> pygame.event.Event:
    return pygame.event.Event(kind, key=code, mod=0, unicode="", scancode=0)


@pytest.mark.parametrize(
    ("seats", "scale", "oled"), [(4, 3, "white"), (3, 2, "blue"), (2, 1, "white")]
)
def test_each_panel_shows_the_frame_pixel_exact(seats: int, scale: int, oled: str) -> None:
    hal = SimHal(clock=VirtualClock(), seats=seats)
    window = SimWindow(hal, scale=scale, oled=oled)
    for seat, display in enumerate(hal.displays):
        display.show(noise(seat))
    hal.displays[-1].dim(True)
    window.draw(TableView(status="test", turn=0, dice=(1, 2, 6), switch="green", chip_on=1))
    assert window.screen.get_size() == window.layout.size
    for seat, display in enumerate(hal.displays):
        assert window.read_panel(seat).tobytes() == display.frame.tobytes()
        rect = window.layout.panels[seat].oled
        assert rect.size == (128 * scale, 64 * scale)


def test_an_asleep_panel_is_dark_and_redraws_on_change(hal: SimHal) -> None:
    window = SimWindow(hal, scale=2)
    hal.displays[0].show(noise(0))
    window.draw()
    assert not window.needs_redraw()
    hal.displays[0].sleep()
    assert window.needs_redraw()
    window.draw()
    assert window.read_panel(0).getbbox() is None


def test_read_panel_notices_a_smudged_panel(hal: SimHal) -> None:
    window = SimWindow(hal, scale=3)
    window.draw()
    rect = window.layout.panels[1].oled
    window.screen.fill((200, 200, 200), pygame.Rect(rect.x + 1, rect.y, 1, 1))
    with pytest.raises(ValueError, match="pixel-exact"):
        window.read_panel(1)


def test_keys_press_and_release_every_seat_button(hal: SimHal, clock: VirtualClock) -> None:
    window = SimWindow(hal, scale=1)
    for seat, keys in enumerate(SEAT_KEYS):
        for button, code in keys.items():
            window.handle(key(pygame.KEYDOWN, code))
            clock.advance(0.1)
            window.handle(key(pygame.KEYUP, code))
            clock.advance(0.1)
            events = hal.events.drain()
            assert [(type(e), e.seat, e.button) for e in events] == [
                (ButtonDown, seat, button),
                (ButtonUp, seat, button),
            ]


def test_clicking_a_button_presses_it(hal: SimHal, clock: VirtualClock) -> None:
    window = SimWindow(hal, scale=2)
    window.draw()
    where = window.layout.panels[2].buttons[Button.CHIP].center
    assert window.button_at(where) == (2, Button.CHIP)
    window.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=where, button=1))
    assert hal.seats[2].is_pressed(Button.CHIP) and window.needs_redraw()
    clock.advance(0.2)
    window.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(0, 0), button=1))
    assert [type(e) for e in hal.events.drain()] == [ButtonDown, ButtonUp]
    window.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(1, 1), button=1))
    assert hal.events.drain() == []


def test_space_and_mouse_wiggles_shake(hal: SimHal, clock: VirtualClock) -> None:
    window = SimWindow(hal, scale=2)
    window.handle(key(pygame.KEYDOWN, SHAKE_KEY))
    clock.advance(0.3)
    hal.poll()
    assert [type(e) for e in hal.events.drain()] == [ShakeStarted]
    window.handle(key(pygame.KEYUP, SHAKE_KEY))
    clock.advance(1.0)
    hal.poll()
    hal.events.drain()
    centre = window.layout.shaker.center
    for i in range(10):
        clock.advance(0.02)
        rel = (20, 0) if i % 2 else (-20, 0)
        window.handle(
            pygame.event.Event(pygame.MOUSEMOTION, pos=centre, rel=rel, buttons=(0, 0, 0))
        )
    assert [type(e) for e in hal.events.drain()] == [ShakeStarted]


def test_focus_loss_releases_held_keys(hal: SimHal, clock: VirtualClock) -> None:
    window = SimWindow(hal, scale=1)
    window.handle(key(pygame.KEYDOWN, SEAT_KEYS[0][Button.YES]))
    window.handle(pygame.event.Event(pygame.WINDOWFOCUSLOST))
    clock.advance(1)
    hal.poll()
    assert not hal.seats[0].is_pressed(Button.YES)


def test_screenshot_key_writes_a_png(hal: SimHal, tmp_path: Path) -> None:
    window = SimWindow(hal, scale=2, shots=tmp_path / "shots")
    hal.displays[0].show(noise(0))
    window.draw()
    window.handle(key(pygame.KEYDOWN, pygame.K_F12))
    window.handle(key(pygame.KEYDOWN, pygame.K_p))
    shots = sorted((tmp_path / "shots").glob("*.png"))
    assert len(shots) == 2 and window.last_shot == shots[-1]
    with Image.open(shots[0]) as image:
        assert image.size == window.layout.size


def test_escape_and_close_quit(hal: SimHal) -> None:
    window = SimWindow(hal, scale=1)
    window.handle(key(pygame.KEYDOWN, pygame.K_ESCAPE))
    assert not window.running
    window = SimWindow(hal, scale=1)
    window.handle(pygame.event.Event(pygame.QUIT))
    assert not window.running


def test_a_long_status_is_wrapped_inside_the_table(monkeypatch: pytest.MonkeyPatch) -> None:
    hal = SimHal(clock=VirtualClock(), seats=2)
    window = SimWindow(hal, scale=2)
    drawn: list[tuple[str, pygame.Rect]] = []
    text = window._text

    def record(line: str, *args: object, **kwargs: object) -> pygame.Rect:
        rect = text(line, *args, **kwargs)  # type: ignore[arg-type]
        drawn.append((line, rect))
        return rect

    monkeypatch.setattr(window, "_text", record)
    status = ("stopped: line 7: c9 is not one step from c8 in a direction the top counter "
              "allows (rule: direction), so the replay stops here")  # fmt: skip
    window.draw(TableView(status=status, dice_table=False, lines=("position x",)))
    table = window.layout.shaker
    first = next(i for i, (line, _) in enumerate(drawn) if status.startswith(line))
    shown = drawn[first : first + 1]
    for line, rect in drawn[first + 1 :]:
        if not status.startswith(" ".join([*(x for x, _ in shown), line])):
            break
        shown.append((line, rect))
    assert " ".join(line for line, _ in shown) == status  # every word, in order
    assert all(table.left <= r.left and r.right <= table.right for _, r in shown)
    below = next(r for line, r in drawn if line == "position x")
    assert below.top >= max(r.bottom for _, r in shown)  # the position under it
