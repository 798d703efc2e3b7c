"""The simulator window: draws the unit from above and turns input into HAL calls.

The OLEDs are drawn pixel-exact from the frames the unit sent to each
:class:`~sim.hal.SimDisplay` (scaled with nearest neighbour); :meth:`SimWindow.read_panel`
reads them back from the window so tests can prove it. The centre shows the last dice
and the chip, taken from a :class:`TableView` the app builds from the unit's public
state, for display only.
"""

from __future__ import annotations

import logging
import math
import textwrap
import time
from dataclasses import dataclass
from pathlib import Path

import pygame
from PIL import Image, ImageChops

from firmware.api import seat_name
from hal.events import Button
from sim.hal import SimHal
from sim.layout import OLED_H, OLED_W, Layout, PanelLayout, make_layout

log = logging.getLogger(__name__)

#: Keyboard keys of each seat's buttons (yes, no, chip).
SEAT_KEYS: tuple[dict[Button, int], ...] = (
    {Button.YES: pygame.K_z, Button.NO: pygame.K_x, Button.CHIP: pygame.K_c},
    {Button.YES: pygame.K_a, Button.NO: pygame.K_s, Button.CHIP: pygame.K_d},
    {Button.YES: pygame.K_q, Button.NO: pygame.K_w, Button.CHIP: pygame.K_e},
    {Button.YES: pygame.K_j, Button.NO: pygame.K_k, Button.CHIP: pygame.K_l},
)
Colour = tuple[int, int, int]

SHAKE_KEY = pygame.K_SPACE
SHOT_KEYS = (pygame.K_F12, pygame.K_p)
QUIT_KEY = pygame.K_ESCAPE

#: What the unit's buttons are called; what they do now, in each game, is the legend on the panel.
BUTTON_LABELS = {Button.YES: "yes", Button.NO: "no", Button.CHIP: "chip"}
BUTTON_COLOURS = {Button.YES: (46, 160, 90), Button.NO: (200, 64, 56), Button.CHIP: (232, 178, 40)}

#: OLED pixel colours when lit, by panel type; unlit pixels are OLED_OFF.
OLED_ON = {"white": (236, 242, 255), "blue": (92, 182, 255)}
OLED_OFF = (6, 8, 12)

BACKGROUND = (24, 27, 32)
CASE = (44, 49, 57)
CASE_EDGE = (70, 77, 88)
TURN_EDGE = (240, 200, 80)
TABLE = (22, 74, 52)
TABLE_EDGE = (40, 110, 80)
TEXT = (222, 226, 232)
MUTED = (150, 158, 170)
CHIP = (236, 170, 30)
DECK_COLOURS = {
    "red": (214, 64, 58),
    "blue": (66, 124, 226),
    "green": (54, 170, 90),
    "yellow": (236, 204, 52),
}
SWITCH_COLOURS = {
    "blank": (245, 245, 240),
    "green": (54, 170, 90),
    "red": (214, 64, 58),
    "block": (40, 40, 44),
}
PIPS = {
    1: ((0.5, 0.5),),
    2: ((0.25, 0.25), (0.75, 0.75)),
    3: ((0.25, 0.25), (0.5, 0.5), (0.75, 0.75)),
    4: ((0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)),
    5: ((0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)),
    6: ((0.25, 0.25), (0.75, 0.25), (0.25, 0.5), (0.75, 0.5), (0.25, 0.75), (0.75, 0.75)),
}


@dataclass(frozen=True, slots=True)
class TableView:
    """What the centre and the panel titles show (read from the unit, display only)."""

    status: str = ""
    turn: int | None = None
    dice: tuple[int, ...] = ()
    switch: str | None = None
    chip_holder: int | None = None
    chip_on: int | None = None  #: the seat whose deck the chip lies on
    decks: tuple[str, ...] = ()  #: deck colour per seat
    names: tuple[str, ...] = ()  #: "you", "bot (expert)" … per seat
    info: tuple[str, ...] = ()  #: lines for the top-right corner
    keys: tuple[str, ...] = ()  #: replaces the key legend (e.g. the replay's keys)
    #: the game is played with the dice and the chip (Switch 16); else the centre shows
    #: ``lines`` (the position in the game's words)
    dice_table: bool = True
    lines: tuple[str, ...] = ()
    #: the whole position as the game draws it for a big screen (its board), shown large
    picture: Image.Image | None = None


def key_name(key: int) -> str:
    return pygame.key.name(key).upper()


class SimWindow:
    """Draws a :class:`SimHal` and feeds it keyboard and mouse input."""

    def __init__(
        self,
        hal: SimHal,
        *,
        scale: int = 3,
        oled: str = "white",
        shots: Path | str = "screenshots",
        screen: pygame.Surface | None = None,
        caption: str = "Switch 16 unit simulator",
    ) -> None:
        self.hal = hal
        self.layout: Layout = make_layout(len(hal.seats), scale)
        self.oled_on = OLED_ON[oled]
        self.shots = Path(shots)
        self.shot_count = 0
        self.last_shot: Path | None = None
        #: What the last screenshot key did (a file saved, or why none was), in the corner.
        self.shot_note = ""
        #: Drawing goes to ``screen`` at the layout's size; a real window shows it scaled
        #: to whatever size the window has (a tiling window manager resizes it).
        self.windowed = screen is None
        if screen is None:
            pygame.display.set_mode(self.layout.size, pygame.RESIZABLE)
            pygame.display.set_caption(caption)
            screen = pygame.Surface(self.layout.size)
        self.screen = screen
        self._shown = pygame.Rect((0, 0), self.layout.size)  # where the window shows it
        self.running = True
        self.keys = SEAT_KEYS[: len(hal.seats)]
        self._key_to_button = {
            key: (seat, button)
            for seat, keys in enumerate(self.keys)
            for button, key in keys.items()
        }
        self._held_keys: set[int] = set()
        self._mouse_button: tuple[int, Button] | None = None
        self._drawn: object = None
        self._board = False  #: the layout has room for a board picture
        self._fonts: dict[tuple[int, bool], pygame.font.Font] = {}

    # ------------------------------------------------------------------ input
    def handle(self, event: pygame.event.Event) -> None:
        """Turn one pygame event into HAL input (or a screenshot, or quitting)."""
        hal = self.hal
        if event.type in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED, pygame.VIDEOEXPOSE):
            self.present()  # the window's surface is new: never draw into the old one
        elif event.type == pygame.QUIT:
            self.running = False
        elif event.type == pygame.KEYDOWN:
            if event.key == QUIT_KEY:
                self.running = False
            elif event.key in SHOT_KEYS:
                self.screenshot_key()
            elif event.key == SHAKE_KEY:
                self._held_keys.add(event.key)
                hal.shake_hold(True)
            elif event.key in self._key_to_button and event.key not in self._held_keys:
                self._held_keys.add(event.key)
                hal.press(*self._key_to_button[event.key])
        elif event.type == pygame.KEYUP:
            self._release_key(event.key)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            hit = self.button_at(self.to_layout(event.pos))
            if hit is not None and self._mouse_button is None:
                self._mouse_button = hit
                hal.press(*hit)
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            if self._mouse_button is not None:
                hal.release(*self._mouse_button)
                self._mouse_button = None
        elif event.type == pygame.MOUSEMOTION:
            if self.layout.shaker.collidepoint(self.to_layout(event.pos)):
                hal.shake_motion(math.hypot(*event.rel) * self.layout.size[0] / self._shown.w)
        elif event.type == pygame.WINDOWFOCUSLOST:
            for key in list(self._held_keys):
                self._release_key(key)

    def _release_key(self, key: int) -> None:
        if key not in self._held_keys:
            return
        self._held_keys.discard(key)
        if key == SHAKE_KEY:
            self.hal.shake_hold(False)
        elif key in self._key_to_button:
            self.hal.release(*self._key_to_button[key])

    def button_at(self, pos: tuple[int, int]) -> tuple[int, Button] | None:
        """The (seat, button) whose circle contains window position ``pos``."""
        for panel in self.layout.panels:
            for button, rect in panel.buttons.items():
                if math.dist(pos, rect.center) <= rect.w / 2:
                    return panel.seat, button
        return None

    # ---------------------------------------------------------------- drawing
    def _signature(self, view: TableView | None) -> object:
        hal = self.hal
        return (
            view or TableView(),
            tuple(d.version for d in hal.displays),
            tuple(led.is_on for led in hal.leds if led is not None),
            tuple(s.is_pressed(b) for s in hal.seats for b in Button),
            hal.shaker.shaking,
            hal.shaker.held,
            hal.buzzer is not None and (hal.buzzer.playing, hal.buzzer.note),
            self.shot_note,
        )

    def needs_redraw(self, view: TableView | None = None) -> bool:
        """True when something visible changed since the last :meth:`draw`."""
        return self._signature(view) != self._drawn

    def draw(self, view: TableView | None = None) -> None:
        """Draw the whole window and present it."""
        view = view or TableView()
        self._drawn = self._signature(view)
        board = view.picture is not None
        if board != self._board:  # two seats sit beside a board, else face each other
            self._board = board
            self.layout = make_layout(len(self.hal.seats), self.layout.scale, board)
        self.screen.fill(BACKGROUND)
        layout = self.layout
        for rect, draw in ((layout.legend, self._draw_legend), (layout.info, self._draw_info),
                           (layout.centre, self._draw_centre)):  # fmt: skip
            self.screen.set_clip(rect)
            draw(view)
        self.screen.set_clip(None)
        for panel in layout.panels:  # last: nothing may cover an OLED
            self._draw_panel(panel, view)
        self.present()

    def present(self) -> None:
        """Show the drawing in the window, scaled to fit its current size (centred)."""
        if not self.windowed:
            return
        window = pygame.display.get_surface()
        if window is None:
            return
        size, target = self.screen.get_size(), window.get_size()
        factor = min(target[0] / size[0], target[1] / size[1])
        shown = pygame.Rect((0, 0), (max(1, round(size[0] * factor)),
                                     max(1, round(size[1] * factor))))  # fmt: skip
        shown.center = (target[0] // 2, target[1] // 2)
        self._shown = shown
        if shown.size == size:
            window.blit(self.screen, shown)
        else:
            window.fill(BACKGROUND)
            window.blit(pygame.transform.smoothscale(self.screen, shown.size), shown)
        pygame.display.flip()

    def to_layout(self, pos: tuple[int, int]) -> tuple[int, int]:
        """A window position in layout coordinates (the window may be scaled)."""
        shown, size = self._shown, self.layout.size
        return (round((pos[0] - shown.x) * size[0] / shown.w),
                round((pos[1] - shown.y) * size[1] / shown.h))  # fmt: skip

    def _font(self, px: int, bold: bool = False) -> pygame.font.Font:
        key = (px, bold)
        if key not in self._fonts:
            font = pygame.font.Font(None, max(9, round(px * 1.2)))
            font.set_bold(bold)
            self._fonts[key] = font
        return self._fonts[key]

    def _text(
        self,
        text: str,
        pos: tuple[int, int],
        px: int,
        colour: Colour = TEXT,
        anchor: str = "topleft",
        bold: bool = False,
    ) -> pygame.Rect:
        surface = self._font(px, bold).render(text, True, colour)
        rect = surface.get_rect(**{anchor: pos})
        self.screen.blit(surface, rect)
        return rect

    def _wrapped(self, text: str, pos: tuple[int, int], px: int, width: int) -> int:
        """``text`` centred below ``pos`` in lines no wider than ``width``; the y under it."""
        font = self._font(px)
        lines: list[str] = []
        for word in text.split():
            if lines and font.size(f"{lines[-1]} {word}")[0] <= width:
                lines[-1] = f"{lines[-1]} {word}"
            else:
                lines.append(word)
        x, y = pos
        for line in lines:
            y = self._text(line, (x, y), px, TEXT, "midtop").bottom
        return y

    def oled_surface(self, seat: int) -> pygame.Surface:
        """The seat's OLED as it looks: 1 bit → lit/unlit colours, dimmed by contrast."""
        display = self.hal.seats[seat].display
        frame = display.frame.convert("L")
        small = pygame.image.frombytes(frame.tobytes(), (OLED_W, OLED_H), "P")
        level = 0.35 + 0.65 * display.contrast / 255
        lit = (
            OLED_OFF
            if display.asleep
            else tuple(
                round(o + (c - o) * level) for c, o in zip(self.oled_on, OLED_OFF, strict=True)
            )
        )
        small.set_palette([OLED_OFF] * 255 + [lit])
        u = self.layout.scale
        return pygame.transform.scale(small, (OLED_W * u, OLED_H * u))

    def _draw_panel(self, panel: PanelLayout, view: TableView) -> None:
        u = self.layout.scale
        screen = self.screen
        seat = panel.seat
        turn = view.turn == seat
        pygame.draw.rect(screen, CASE, panel.frame, border_radius=4 * u)
        pygame.draw.rect(screen, TURN_EDGE if turn else CASE_EDGE, panel.frame,
                         width=max(2, u) if turn else 1, border_radius=4 * u)  # fmt: skip
        # Title: seat, who plays it, its deck and the chip.
        name = view.names[seat] if seat < len(view.names) else ""
        title = seat_name(seat).capitalize() + (f" · {name}" if name else "")
        x = panel.title.x + 4 * u
        cy = panel.title.centery
        led = self.hal.seats[seat].led
        if led is not None:
            pygame.draw.circle(screen, (255, 70, 60) if led.is_on else (70, 40, 40), (x + u, cy),
                               max(3, 2 * u))  # fmt: skip
            x += 5 * u
        self._text(title, (x, cy), 6 * u, TEXT, "midleft", bold=turn)
        right = panel.title.right - 4 * u
        if seat < len(view.decks):
            deck = view.decks[seat]
            label = self._text(f"{deck} deck", (right, cy), 5 * u, MUTED, "midright")
            swatch = pygame.Rect(0, 0, 4 * u, 4 * u)
            swatch.midright = (label.left - 2 * u, cy)
            pygame.draw.rect(screen, DECK_COLOURS.get(deck, MUTED), swatch, border_radius=u)
            right = swatch.left - 4 * u
        if view.chip_holder == seat:
            self._chip((right - 3 * u, cy), 3 * u, "")
            self._text("chip in hand", (right - 7 * u, cy), 5 * u, CHIP, "midright")
        elif view.chip_on == seat:
            self._chip((right - 3 * u, cy), 3 * u, "")
            self._text("deck blocked", (right - 7 * u, cy), 5 * u, CHIP, "midright")
        # The OLED behind its glass.
        pygame.draw.rect(screen, (10, 12, 16), panel.glass, border_radius=2 * u)
        screen.blit(self.oled_surface(seat), panel.oled)
        if self.hal.seats[seat].display.asleep:
            self._text("asleep", panel.glass.bottomright, 4 * u, MUTED, "bottomright")
        # Buttons with their keys.
        for button, circle in panel.buttons.items():
            pressed = self.hal.seats[seat].is_pressed(button)
            colour = BUTTON_COLOURS[button]
            centre = (circle.centerx, circle.centery + (u if pressed else 0))
            if not pressed:
                pygame.draw.circle(screen, (20, 22, 26), (circle.centerx, circle.centery + u),
                                   circle.w // 2)  # fmt: skip
            shade = tuple(c // 2 for c in colour) if pressed else colour
            pygame.draw.circle(screen, shade, centre, circle.w // 2)
            pygame.draw.circle(screen, (240, 240, 240), centre, circle.w // 2, width=1)
            cap = panel.keycaps[button]
            pygame.draw.rect(screen, (232, 232, 226), cap, border_radius=u)
            pygame.draw.rect(screen, (120, 120, 120), cap, width=1, border_radius=u)
            self._text(key_name(self.keys[seat][button]), cap.center, 7 * u, (20, 20, 20),
                       "center", bold=True)  # fmt: skip
            self._text(BUTTON_LABELS[button], (circle.centerx, circle.bottom + u), 5 * u, MUTED,
                       "midtop")  # fmt: skip

    def _draw_centre(self, view: TableView) -> None:
        u = self.layout.scale
        screen = self.screen
        shaker = self.layout.shaker
        shaking = self.hal.shaker.shaking
        pygame.draw.rect(screen, TABLE, shaker, border_radius=10 * u)
        pygame.draw.rect(screen, TURN_EDGE if shaking else TABLE_EDGE, shaker,
                         width=max(2, u), border_radius=10 * u)  # fmt: skip
        top = shaker.top + 4 * u
        if view.status:
            top = self._wrapped(view.status, (shaker.centerx, top), 7 * u, shaker.width - 8 * u)
        if view.picture is not None:
            self._draw_picture(view, top)
            return
        if not view.dice_table:
            for i, line in enumerate(view.lines):
                self._text(line, (shaker.centerx, top + (3 + 9 * i) * u), 6 * u, MUTED, "midtop")
            return
        # Dice: the numbered dice, then the switch die.
        size, gap = 15 * u, 4 * u
        faces: list[int | str] = list(view.dice)
        if view.switch is not None:
            faces.append(view.switch)
        total = len(faces) * size + max(0, len(faces) - 1) * gap
        x = shaker.centerx - total // 2
        y = shaker.centery - size // 2
        for i, face in enumerate(faces):
            jitter = (u * (1 if i % 2 else -1), -u * (i % 3)) if shaking else (0, 0)
            die = pygame.Rect(x + i * (size + gap) + jitter[0], y + jitter[1], size, size)
            self._die(die, face)
        if not faces:
            self._text("no dice rolled yet", shaker.center, 6 * u, MUTED, "center")
        if view.chip_holder is None and view.chip_on is None:
            self._chip((shaker.right - 14 * u, shaker.centery), 6 * u, "chip")
        hint = "shaking…" if shaking else "hold SPACE or wiggle the mouse here to shake"
        if view.keys:  # not playing here (a replay): nothing to shake
            return
        self._text(hint, (shaker.centerx, shaker.bottom - 3 * u), 5 * u,
                   TURN_EDGE if shaking else MUTED, "midbottom")  # fmt: skip

    def _draw_picture(self, view: TableView, top: int) -> None:
        """The game's picture as large as the table has room for, below ``top``, lit
        pixels on the table's green; ``lines`` under it."""
        assert view.picture is not None
        u, shaker = self.layout.scale, self.layout.shaker
        below = len(view.lines) * 9 * u + 2 * u
        room = pygame.Rect(shaker.x + 4 * u, top + 3 * u, shaker.w - 8 * u,
                           shaker.bottom - top - 6 * u - below)  # fmt: skip
        picture = view.picture.convert("L")
        small = pygame.image.frombytes(picture.tobytes(), picture.size, "P")
        small.set_palette([TABLE] * 255 + [TEXT])
        factor = min(room.w / picture.width, room.h / picture.height)
        size = (round(picture.width * factor), round(picture.height * factor))
        big = pygame.transform.smoothscale(small.convert(24), size)
        rect = big.get_rect(midtop=room.midtop)
        self.screen.blit(big, rect)
        for i, line in enumerate(view.lines):
            self._text(line, (shaker.centerx, rect.bottom + (2 + 9 * i) * u), 6 * u, MUTED,
                       "midtop")  # fmt: skip

    def _die(self, rect: pygame.Rect, face: int | str) -> None:
        u = self.layout.scale
        colour = (
            SWITCH_COLOURS.get(face, (250, 250, 246)) if isinstance(face, str) else (250, 250, 246)
        )
        pygame.draw.rect(self.screen, (12, 40, 28), rect.move(u, u), border_radius=3 * u)
        pygame.draw.rect(self.screen, colour, rect, border_radius=3 * u)
        if isinstance(face, int):
            for fx, fy in PIPS.get(face, ()):
                pos = (rect.x + round(fx * rect.w), rect.y + round(fy * rect.h))
                pygame.draw.circle(self.screen, (20, 20, 20), pos, max(2, round(1.4 * u)))
        elif face == "block":
            self._chip(rect.center, 4 * u, "")
        if isinstance(face, str):
            self._text(face, (rect.centerx, rect.bottom + u), 5 * u, TEXT, "midtop")

    def _chip(self, centre: tuple[int, int], radius: int, label: str) -> None:
        pygame.draw.circle(self.screen, (90, 60, 10), (centre[0] + 1, centre[1] + 1), radius)
        pygame.draw.circle(self.screen, CHIP, centre, radius)
        pygame.draw.circle(self.screen, (255, 230, 150), centre, radius * 2 // 3, width=1)
        if label:
            u = self.layout.scale
            self._text(label, (centre[0], centre[1] + radius + u), 5 * u, CHIP, "midtop")

    def _draw_legend(self, view: TableView) -> None:
        u = self.layout.scale
        box = self.layout.legend
        y = box.y
        self._text("Keys", (box.x, y), 7 * u, TEXT, bold=True)
        y += 8 * u
        if view.keys:
            for line in view.keys:
                self._text(line, (box.x, y), 6 * u, MUTED)
                y += 6 * u
            return
        for seat, keys in enumerate(self.keys):
            letters = " ".join(key_name(keys[b]) for b in Button)
            self._text(f"{seat_name(seat)}:  {letters}", (box.x, y), 6 * u, MUTED)
            y += 6 * u
        for line in ("(yes · no · chip: see the legend)", "SPACE hold / mouse wiggle: shake",
                     "click a button to press it", "F12 or P: screenshot · Esc: quit"):  # fmt: skip
            self._text(line, (box.x, y), 5 * u, MUTED)
            y += 5 * u

    def _draw_info(self, view: TableView) -> None:
        u = self.layout.scale
        box = self.layout.info
        y = box.y
        for i, line in enumerate(view.info):
            self._text(line, (box.right, y), 7 * u if i == 0 else 6 * u, TEXT if i == 0 else MUTED,
                       "topright", bold=i == 0)  # fmt: skip
            y += 8 * u if i == 0 else 6 * u
        if self.shot_note:
            y += 2 * u
            for line in textwrap.wrap(self.shot_note, 40):
                self._text(line, (box.right, y), 5 * u, TURN_EDGE, "topright")
                y += 5 * u
        buzzer = self.hal.buzzer
        if buzzer is not None and buzzer.playing:
            note = "" if buzzer.note is None else f" {buzzer.note}"
            self._text(f"buzzer{note}", (box.right, y + 2 * u), 6 * u, TURN_EDGE, "topright")

    # ---------------------------------------------------------- screenshots
    def screenshot_key(self) -> None:
        """The screenshot key: save one, and say in the window and the log where, or why
        it could not be saved (the game goes on)."""
        try:
            path = self.screenshot()
        except (OSError, pygame.error) as exc:
            self.shot_note = f"screenshot not saved: {exc}"
            log.error("sim: %s (the screenshot directory: --shots)", self.shot_note)
        else:
            self.shot_note = f"screenshot {path.name}"
            log.info("sim: screenshot saved to %s", path)

    def screenshot(self, path: Path | str | None = None) -> Path:
        """Save the window as a PNG (default: a new file in the screenshot directory)."""
        if path is None:
            self.shots.mkdir(parents=True, exist_ok=True)
            self.shot_count += 1
            stamp = time.strftime("%Y%m%d-%H%M%S")
            path = self.shots / f"sim-{stamp}-{self.shot_count:03d}.png"
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        pygame.image.save(self.screen, str(path))
        self.last_shot = path
        return path

    # ---------------------------------------------------------- pixel check
    def read_panel(self, seat: int) -> Image.Image:
        """Read seat ``seat``'s OLED back from the window as a mode "1" 128x64 frame.

        Raises ValueError when the panel is not an exact ``scale``-times enlargement of
        a 1-bit frame (a blurred, shifted or overdrawn panel).
        """
        rect = self.layout.panels[seat].oled
        raw = pygame.image.tobytes(self.screen.subsurface(rect), "RGB")
        big = Image.frombytes("RGB", rect.size, raw)
        small = big.resize((OLED_W, OLED_H), Image.Resampling.NEAREST, reducing_gap=None)
        if small.resize(rect.size, Image.Resampling.NEAREST).tobytes() != big.tobytes():
            raise ValueError(f"{seat_name(seat)}: the OLED panel is not pixel-exact")
        unlit = Image.new("RGB", small.size, OLED_OFF)
        lit = ImageChops.difference(small, unlit).convert("L")
        return lit.point(lambda v: 255 if v else 0).convert("1")
