"""The main play screen of one seat (layout: header, big top card, roll panel, bar, prompt).

::

    +--------------------------------------------------+
    | RED (chip)                           YOUR TURN   |  header, inverted on your turn
    |  ##  ##   [3][5][1][6]   dice of the current roll |
    |  ##  ##   [B] BLOCK      switch face / "4 dice"   |
    | [#][#][#][#][#][#][#][ ]|[ ][ ]...   16 cards, tick at 8
    | [YES] risk  [NO] pass                             |  prompt
    +--------------------------------------------------+
"""

from __future__ import annotations

from firmware.engine.rules import CARDS

from . import text as tx
from .canvas import WIDTH, Canvas
from .views import PlayView

HEADER_H = 12
PANEL_X = 60  # right panel: x PANEL_X..127, rows below
ROW1_Y = 14
ROW2_Y = 29
BAR_Y = 45
BAR_H = 5
PROMPT_Y = 52
CELL = 8  # progress cell pitch (7 px cell + 1 px gap)
MILESTONE = 8
DIE = 12

_FACE_LABELS = {"blank": "blank", "green": "GREEN", "red": "RED", "block": "BLOCK"}
_FACE_MARKS = {"blank": "", "green": "G", "red": "R", "block": "B"}


def render_play(v: PlayView, c: Canvas) -> None:
    """Draw the play screen ``v`` on ``c``."""
    _header(v, c)
    _top_card(v, c)
    if v.banner:
        _banner(v.banner, c)
    elif v.odds is not None:
        _odds(v, c)
    else:
        _roll_panel(v, c)
    _progress(v, c)
    c.prompt(1, PROMPT_Y, v.prompt)


def _header(v: PlayView, c: Canvas) -> None:
    ink = 1
    if v.my_turn:
        c.box(0, 0, WIDTH - 1, HEADER_H - 1)
        ink = 0
    x = c.text(1, -2, v.colour.upper(), tx.TEXT, ink)
    if v.holds_chip:
        c.chip(x + 7, 5, 4, ink)
        x += 14
    right = "YOUR TURN" if v.my_turn else v.name
    if right:
        room = WIDTH - 4 - x
        c.text_right(WIDTH - 2, -2, tx.fit(right, tx.TEXT, room), tx.TEXT, ink)


def _top_card(v: PlayView, c: Canvas) -> None:
    number = str(min(v.top, CARDS))
    cx = 28
    if v.blocked:
        c.draw.rounded_rectangle((0, 13, 57, 43), 3, fill=1)
        c.text_centered(cx, 5, number, tx.BIG, 0)
        c.chip(51, 18, 5, 0)
    else:
        c.text_centered(cx, 5, number, tx.BIG)


def _roll_panel(v: PlayView, c: Canvas) -> None:
    x = PANEL_X
    if v.tumble is not None:
        count = v.rolling or len(v.dice) or v.dice_count
        for i in range(count):
            c.die(x + i * (DIE + 2), ROW1_Y + (v.tumble + i) % 3 - 1, _tumble_face(v.tumble, i))
    elif v.dice:
        for i, value in enumerate(v.dice):
            c.die(x + i * (DIE + 2), ROW1_Y, value)
    else:
        for i in range(v.rolling):
            c.die_outline(x + i * (DIE + 2), ROW1_Y)
    if v.switch is not None and v.tumble is None:
        _switch_face(x, ROW2_Y, v.switch, c)
    elif v.blocked:
        c.text(x, ROW2_Y - 3, "BLOCKED", tx.TEXT)
    else:
        c.text(x, ROW2_Y - 3, f"{v.dice_count} dice", tx.TEXT)


def _tumble_face(frame: int, i: int) -> int:
    return (frame * 5 + i * 7 + frame // 3) % 6 + 1


def _switch_face(x: int, y: int, face: str, c: Canvas) -> None:
    if face == "blank":
        c.draw.rounded_rectangle((x, y, x + DIE - 1, y + DIE - 1), 2, outline=1)
    else:
        c.draw.rounded_rectangle((x, y, x + DIE - 1, y + DIE - 1), 2, fill=1)
        c.text_centered(x + DIE // 2, y - 3, _FACE_MARKS[face], tx.TEXT, 0)
    c.text(x + DIE + 3, y - 3, _FACE_LABELS.get(face, face), tx.TEXT)


def _banner(lines: tuple[str, ...], c: Canvas) -> None:
    c.draw.rounded_rectangle((PANEL_X - 1, 13, WIDTH - 1, 42), 3, fill=1)
    room = WIDTH - PANEL_X - 4
    cx = (PANEL_X + WIDTH) // 2
    lines = lines[:2]
    if len(lines) == 1:
        size = tx.fit_size(lines[0], room)
        c.text_middle(cx, 28, tx.fit(lines[0], size, room), size, 0)
        return
    for y, line in zip((12, 26), lines, strict=True):
        size = tx.fit_size(line, room, (tx.TEXT, tx.SMALL))
        c.text_centered(cx, y, tx.fit(line, size, room), size, 0)


def _odds(v: PlayView, c: Canvas) -> None:
    o = v.odds
    assert o is not None
    x = PANEL_X + 2
    c.text(x, 11, f"risk ok {round(o.p_success * 100)}%", tx.SMALL)
    c.text(x, 21, f"~{o.expected_cards:.1f} cards", tx.SMALL)
    end = c.text(x, 31, "tip:", tx.SMALL)
    c.key(end + 3, 31, "RISK" if o.risk else "PASS", tx.SMALL)


def _progress(v: PlayView, c: Canvas) -> None:
    gone = max(0, min(v.top - 1, CARDS))
    fresh = range(gone - v.just_discarded, gone)
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
    c.draw.line((tick, y0 - 3, tick, y1 + 2), fill=1)
