"""The main play screen of one seat, laid out on the panel's 8-pixel pages.

::

    page 0    | RED (chip)                        YOUR TURN |  header, inverted on your turn
    pages 1-2 |  ##  ##   [3][5][1][6]    dice of the current roll
    pages 3-4 |  ##  ##   [B] BLOCK       switch face / "4 dice"
    page 5    | [#][#][#][#][#][#][#][ ]|[ ][ ]...  16 cards, tick at 8
    pages 6-7 | [YES] risk  [NO] pass                        prompt

An SSD1306 is written in pages (8 rows by 1 column a byte), and the unit sends only
the changed bytes of each page (:mod:`hal.oled`). So every element sits in as few
pages as its height allows and shares them with nothing that changes at other times:
a press that changes the prompt sends pages 6-7 only, a new roll the dice's two
pages of the right panel.

Each element (a *part*: header, top card, right panel, progress bar, prompt) is drawn
once per distinct content and kept (:func:`functools.lru_cache`) with its bytes in the
panel's RAM order; a frame pastes its five parts, or joins their bytes
(:func:`play_pages`: what the unit sends, with no frame image to draw or pack). Parts
never draw outside their band, so a frame is exactly what drawing the parts one over
the other would give.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image

from firmware.screens import text as tx
from firmware.screens.canvas import HEIGHT, WIDTH, Canvas, TextBox
from firmware.screens.views import Prompt
from hal.frame import pack_frame

from ..engine.rules import CARDS
from .views import OddsHint, PlayView

PAGE = 8
HEADER_SIZE = tx.TEXT  #: header font: 7-pixel capitals in rows 0-6, row 7 clear
HEADER_Y = -3
PANEL_X = 59  # right panel: x PANEL_X..127, pages 1-4
CARD_W = 58  # top card: x 0..CARD_W-1, pages 1-4
ROW1_Y = 10  # dice: rows 10-21 (pages 1-2)
ROW2_Y = 26  # switch face / dice count: rows 26-37 (pages 3-4)
BAR_Y = 42  # progress cells: rows 42-46, the fresh ones 40-47 (page 5)
BAR_H = 5
PROMPT_Y = 49  # keys rows 50-59, descenders to 61 (pages 6-7)
CELL = 8  # progress cell pitch (7 px cell + 1 px gap)
MILESTONE = 8
DIE = 12

#: The bands (x0, y0, x1, y1), exclusive ends: every part draws inside its own.
HEADER_BAND = (0, 0, WIDTH, PAGE)
CARD_BAND = (0, PAGE, CARD_W, 5 * PAGE)
PANEL_BAND = (CARD_W, PAGE, WIDTH, 5 * PAGE)
BAR_BAND = (0, 5 * PAGE, WIDTH, 6 * PAGE)
PROMPT_BAND = (0, 6 * PAGE, WIDTH, 8 * PAGE)

_FACE_LABELS = {"blank": "blank", "green": "GREEN", "red": "RED", "block": "BLOCK"}
_FACE_MARKS = {"blank": "", "green": "G", "red": "R", "block": "B"}

#: A drawn part: its band's pixels, the texts drawn in it (frame coordinates) and its
#: pixels in panel RAM order (:func:`hal.frame.pack_frame` of the band: page-major, a
#: byte a column, the band's top row in bit 0).
Part = tuple[Image.Image, tuple[TextBox, ...], bytes]
Band = tuple[int, int, int, int]


def render_play(v: PlayView, c: Canvas) -> None:
    """Draw the play screen ``v`` on ``c`` (a fresh canvas) from its cached parts."""
    paste = c.image.paste
    for band, (image, texts, _) in play_parts(v):
        paste(image, band[:2])
        c.texts.extend(texts)


def play_pages(v: PlayView) -> bytes:
    """The play screen ``v`` in panel RAM order, unrotated: ``pack_frame`` of its image,
    joined from its parts' bytes (no frame image drawn or packed)."""
    frame = bytearray(WIDTH * HEIGHT // PAGE)
    for (x0, y0, x1, _), (_, _, pages) in play_parts(v):
        w = x1 - x0
        for i in range(len(pages) // w):
            start = (y0 // PAGE + i) * WIDTH + x0
            frame[start : start + w] = pages[i * w : (i + 1) * w]
    return bytes(frame)


def play_parts(v: PlayView) -> tuple[tuple[Band, Part], ...]:
    """The play screen's five parts, each with its band."""
    return (
        (HEADER_BAND, header_part(v.colour, v.holds_chip, v.my_turn, _header_right(v))),
        (CARD_BAND, card_part(v.top, v.blocked)),
        (
            PANEL_BAND,
            menu_part(v.options, v.highlight)
            if v.options
            else panel_part(
                v.banner, v.odds, v.tumble, v.dice, v.rolling, v.dice_count, v.switch, v.blocked
            ),
        ),
        (BAR_BAND, bar_part(v.top, v.just_discarded)),
        (PROMPT_BAND, prompt_part(v.prompt)),
    )


def _part(c: Canvas, band: Band) -> Part:
    image = c.image.crop(band)
    return image, tuple(c.texts), pack_frame(image)


def _header_right(v: PlayView) -> str:
    """A menu's title, else "YOUR TURN", else the seat's name (in capitals: no
    descender to cut at the page's edge)."""
    return v.title or ("YOUR TURN" if v.my_turn else v.name.upper())


@lru_cache(maxsize=64)
def header_part(colour: str, holds_chip: bool, my_turn: bool, right: str) -> Part:
    """The colour (and chip) at the left, ``right`` at the right; inverted on your turn."""
    c = Canvas()
    ink = 1
    if my_turn:
        c.box(0, 0, WIDTH - 1, PAGE - 1)
        ink = 0
    x = c.text(1, HEADER_Y, colour.upper(), HEADER_SIZE, ink)
    if holds_chip:
        c.chip(x + 7, 3, 3, ink)
        x += 12
    if right:
        room = WIDTH - 4 - x
        c.text_right(WIDTH - 2, HEADER_Y, tx.fit(right, HEADER_SIZE, room), HEADER_SIZE, ink)
    return _part(c, HEADER_BAND)


@lru_cache(maxsize=64)
def card_part(top: int, blocked: bool) -> Part:
    c = Canvas()
    number = str(min(top, CARDS))
    cx = 28
    if blocked:
        c.draw.rounded_rectangle((0, PAGE, CARD_W - 1, 5 * PAGE - 1), 3, fill=1)
        c.text_centered(cx, 1, number, tx.BIG, 0)
        c.chip(51, 15, 5, 0)
    else:
        c.text_centered(cx, 1, number, tx.BIG)
    return _part(c, CARD_BAND)


def panel_part(
    banner: tuple[str, ...],
    odds: OddsHint | None,
    tumble: int | None,
    dice: tuple[int, ...],
    rolling: int,
    dice_count: int,
    switch: str | None,
    blocked: bool,
) -> Part:
    """The right panel: a banner, else the odds hint, else the roll. Each kind keeps
    its own cache, so the many rolls never push the few banners out."""
    if banner:
        return banner_part(banner)
    if odds is not None:
        return odds_part(odds)
    return roll_part(tumble, dice, rolling, dice_count, switch, blocked)


@lru_cache(maxsize=128)
def banner_part(banner: tuple[str, ...]) -> Part:
    c = Canvas()
    _banner(banner, c)
    return _part(c, PANEL_BAND)


@lru_cache(maxsize=128)
def odds_part(odds: OddsHint) -> Part:
    c = Canvas()
    _odds(odds, c)
    return _part(c, PANEL_BAND)


@lru_cache(maxsize=512)
def roll_part(
    tumble: int | None,
    dice: tuple[int, ...],
    rolling: int,
    dice_count: int,
    switch: str | None,
    blocked: bool,
) -> Part:
    """The roll panel, joined from its dice row and its label row, each cached by what
    it shows: every seat's panel pairs the same few dice rows with its own label, so a
    new roll draws its dice once, not once per seat and label."""
    if tumble is not None:
        top = dice_row(tumble, (), rolling or len(dice) or dice_count)
    else:
        top = dice_row(None, dice, 0 if dice else rolling)
    if switch is not None and tumble is None:
        bottom = label_row(switch, False, 0)
    else:
        bottom = label_row(None, blocked, 0 if blocked else dice_count)
    return _joined(PANEL_BAND, (top, bottom))


#: The roll panel's rows: the dice (pages 1-2), the switch face or dice count (pages 3-4).
DICE_BAND = (CARD_W, PAGE, WIDTH, 3 * PAGE)
LABEL_BAND = (CARD_W, 3 * PAGE, WIDTH, 5 * PAGE)


@lru_cache(maxsize=256)
def dice_row(tumble: int | None, dice: tuple[int, ...], count: int) -> Part:
    """Tumbling (``count`` dice at animation frame ``tumble``), rolled ``dice``, else
    ``count`` dice still to roll (outlines)."""
    c = Canvas()
    x = PANEL_X
    if tumble is not None:
        for i in range(count):
            c.die(x + i * (DIE + 2), ROW1_Y + (tumble + i) % 3 - 1, _tumble_face(tumble, i))
    elif dice:
        for i, value in enumerate(dice):
            c.die(x + i * (DIE + 2), ROW1_Y, value)
    else:
        for i in range(count):
            c.die_outline(x + i * (DIE + 2), ROW1_Y)
    return _part(c, DICE_BAND)


@lru_cache(maxsize=32)
def label_row(switch: str | None, blocked: bool, dice_count: int) -> Part:
    """The switch face rolled, else BLOCKED, else how many dice the seat rolls."""
    c = Canvas()
    if switch is not None:
        _switch_face(PANEL_X, ROW2_Y, switch, c)
    elif blocked:
        c.text(PANEL_X, ROW2_Y - 2, "BLOCKED", tx.TEXT)
    else:
        c.text(PANEL_X, ROW2_Y - 2, f"{dice_count} dice", tx.TEXT)
    return _part(c, LABEL_BAND)


def _joined(band: Band, rows: tuple[Part, ...]) -> Part:
    """One part of ``band`` from parts of its full width stacked top to bottom."""
    image = Image.new("1", (band[2] - band[0], band[3] - band[1]))
    y = 0
    for row, _, _ in rows:
        image.paste(row, (0, y))
        y += row.height
    texts = tuple(t for _, row_texts, _ in rows for t in row_texts)
    return image, texts, b"".join(pages for _, _, pages in rows)


def _tumble_face(frame: int, i: int) -> int:
    return (frame * 5 + i * 7 + frame // 3) % 6 + 1


def _switch_face(x: int, y: int, face: str, c: Canvas) -> None:
    if face == "blank":
        c.draw.rounded_rectangle((x, y, x + DIE - 1, y + DIE - 1), 2, outline=1)
    else:
        c.draw.rounded_rectangle((x, y, x + DIE - 1, y + DIE - 1), 2, fill=1)
        c.text_centered(x + DIE // 2, y - 2, _FACE_MARKS[face], tx.TEXT, 0)
    c.text(x + DIE + 3, y - 2, _FACE_LABELS.get(face, face), tx.TEXT)


def _banner(lines: tuple[str, ...], c: Canvas) -> None:
    c.draw.rounded_rectangle((PANEL_X, PAGE + 1, WIDTH - 1, 5 * PAGE - 2), 3, fill=1)
    room = WIDTH - PANEL_X - 4
    cx = (PANEL_X + WIDTH) // 2
    lines = lines[:2]
    if len(lines) == 1:
        size = tx.fit_size(lines[0], room)
        c.text_middle(cx, 24, tx.fit(lines[0], size, room), size, 0)
        return
    for y, line in zip((8, 22), lines, strict=True):
        size = tx.fit_size(line, room, (tx.TEXT, tx.SMALL))
        c.text_centered(cx, y, tx.fit(line, size, room), size, 0)


def _odds(o: OddsHint, c: Canvas) -> None:
    x = PANEL_X + 3
    c.text(x, 8, f"risk ok {round(o.p_success * 100)}%", tx.SMALL)
    c.text(x, 18, f"~{o.expected_cards:.1f} cards", tx.SMALL)
    end = c.text(x, 28, "tip:", tx.SMALL)
    c.key(end + 3, 28, "RISK" if o.risk else "PASS", tx.SMALL)


MENU_ROW = 10  # option rows 9-18, 19-28, 29-38 (pages 1-4)
MENU_ROWS = 3


@lru_cache(maxsize=256)
def menu_part(options: tuple[str, ...], highlight: int) -> Part:
    """A game menu in the right panel: up to three options, the highlighted one
    inverted, small arrows at the right edge when the list goes on."""
    c = Canvas()
    n = len(options)
    hi = min(max(highlight, 0), n - 1)
    first = min(max(hi - MENU_ROWS + 1, 0), max(n - MENU_ROWS, 0))
    x0, x1 = PANEL_X, WIDTH - 6
    for row, i in enumerate(range(first, min(first + MENU_ROWS, n))):
        y = PAGE + 1 + row * MENU_ROW
        label = tx.fit(options[i], tx.SMALL, x1 - x0 - 5)
        if i == hi:
            c.draw.rounded_rectangle((x0, y, x1, y + MENU_ROW - 1), 2, fill=1)
            c.text(x0 + 3, y - 1, label, tx.SMALL, 0)
        else:
            c.text(x0 + 3, y - 1, label, tx.SMALL)
    x = WIDTH - 3
    if first > 0:
        y = PAGE + 2
        c.draw.polygon(((x - 2, y + 3), (x + 2, y + 3), (x, y)), fill=1)
    if first + MENU_ROWS < n:
        y = 5 * PAGE - 3
        c.draw.polygon(((x - 2, y - 3), (x + 2, y - 3), (x, y)), fill=1)
    return _part(c, PANEL_BAND)


@lru_cache(maxsize=128)
def bar_part(top: int, just_discarded: int) -> Part:
    c = Canvas()
    gone = max(0, min(top - 1, CARDS))
    fresh = range(gone - just_discarded, gone)
    y0, y1 = BAR_Y, BAR_Y + BAR_H - 1
    for i in range(CARDS):
        x0 = i * CELL
        x1 = x0 + CELL - 2
        if i in fresh:
            c.box(x0, y0 - 2, x1, y1 + 1)
        elif i < gone:
            c.box(x0, y0, x1, y1)
        else:
            c.box(x0, y0, x1, y1, None)
    tick = MILESTONE * CELL - 1
    c.draw.line((tick, 5 * PAGE, tick, 6 * PAGE - 1), fill=1)
    return _part(c, BAR_BAND)


@lru_cache(maxsize=128)
def prompt_part(prompt: Prompt) -> Part:
    c = Canvas()
    c.prompt(1, PROMPT_Y, prompt)
    return _part(c, PROMPT_BAND)
