"""Draw Swytch views as 1-bit 128×64 frames (pure: same view, same bytes).

A player's screen::

    x 0..84        x 86..127
    | zoomed board | YOU       |  the turn tag (inverted on your turn)
    |  around the  | overview  |  or the stack's options / what the move does
    |  cursor      |           |
    | [CHIP] next [YES] choose |  legend, rows 52..63

The zoom draws every stack as a glyph in its hex cell: filled = yours, outlined =
the opponent's; a hexagon for hex stacks, a disc for round ones; the height as a
digit; for hex stacks a triangle that points the way the top counter points (as this
seat sees the board), solid for its normal side, hollow for the angled side.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from PIL import Image, ImageChops, ImageDraw

from firmware.screens import text as tx
from firmware.screens.canvas import HEIGHT, WIDTH, Canvas, shifted

from ..board import FILES, Board, Cell, Shape, Stack
from ..geometry import raised, seen_from
from .views import BoardView, EndView, LastTurn, OnlookerView, SwytchView

# ------------------------------------------------------------------ the zoom
HALF_W, HALF_H, SLANT = 14, 8, 7  #: a cell's hexagon: half width, half height, slant
PITCH_X, PITCH_Y = HALF_W + SLANT, 2 * HALF_H  #: tessellating flat-top cells
GLYPH = (12, 6, 5)  #: a hex stack's hexagon inside its cell: half width, half height, slant
DISC = (9, 6)  #: a round stack's disc: half width, half height
MARGIN = 2
ZOOM_W, ZOOM_H = 85, 52  #: the zoom window: x 0..84, y 0..51
SIDE_X = ZOOM_W + 1  #: the side column: x 86..127
LEGEND_Y = HEIGHT - 12


def board_size(ranks: int) -> tuple[int, int]:
    """The whole board drawn at zoom scale (pixels)."""
    return (
        (FILES - 1) * PITCH_X + 2 * HALF_W + 2 * MARGIN + 1,
        ranks * PITCH_Y + HALF_H + 2 * MARGIN + 1,
    )


def centre(cell: Cell, seat: int, ranks: int) -> tuple[int, int]:
    """``cell``'s centre on the board image seen from ``seat`` (near rank at the bottom)."""
    x, y = seen_from(cell, seat, ranks)
    _, height = board_size(ranks)
    cy = height - 1 - MARGIN - HALF_H - y * PITCH_Y - (HALF_H if raised(cell, seat) else 0)
    return MARGIN + HALF_W + x * PITCH_X, cy


def _hexagon(cx: int, cy: int, hw: int, hh: int, slant: int) -> list[tuple[int, int]]:
    return [
        (cx - hw, cy),
        (cx - hw + slant, cy - hh),
        (cx + hw - slant, cy - hh),
        (cx + hw, cy),
        (cx + hw - slant, cy + hh),
        (cx - hw + slant, cy + hh),
    ]


def _glyph(d: ImageDraw.ImageDraw, cx: int, cy: int, stack: Stack, mine: bool, seat: int) -> None:
    """One stack in its cell (see the module's docstring)."""
    ink = 0 if mine else 1
    fill = 1 if mine else 0
    if stack.shape is Shape.ROUND:
        rx, ry = DISC
        d.ellipse((cx - rx, cy - ry, cx + rx, cy + ry), fill=fill, outline=1)
        if not mine:
            d.ellipse((cx - rx + 1, cy - ry + 1, cx + rx - 1, cy + ry - 1), outline=1)
        _digit(d, cx, cy, stack.height, ink)
        return
    hw, hh, slant = GLYPH
    d.polygon(_hexagon(cx, cy, hw, hh, slant), fill=fill, outline=1)
    if not mine:
        d.polygon(_hexagon(cx, cy, hw - 1, hh - 1, slant), outline=1)
    _digit(d, cx - 4, cy, stack.height, ink)
    top = stack.top
    points_up = top.up != (seat == 1)  # North sees the board turned round
    x0, x1 = cx + 1, cx + 7
    if points_up:
        tri = [(x0, cy + 3), (x1, cy + 3), ((x0 + x1) // 2, cy - 3)]
    else:
        tri = [(x0, cy - 3), (x1, cy - 3), ((x0 + x1) // 2, cy + 3)]
    if top.angled:
        d.polygon(tri, fill=fill, outline=ink)
    else:
        d.polygon(tri, fill=ink, outline=ink)


def _digit(d: ImageDraw.ImageDraw, cx: int, cy: int, n: int, ink: int) -> None:
    text = str(n)
    size = tx.TEXT if n < 10 else tx.SMALL
    left, top, right, bottom = tx.bbox(text, size)
    x = cx - (left + right) // 2
    y = cy - (top + bottom) // 2
    d.bitmap((x + left, y + top), tx.stamp(text, size), fill=ink)


@lru_cache(maxsize=64)
def board_image(board: Board, seat: int) -> Image.Image:
    """The whole board at zoom scale, seen from ``seat``: glyphs and empty-cell dots.

    A board a move away from the last one drawn for the seat is that image with the
    cells that changed drawn again (a cell's drawing stays inside its hexagon): a move
    costs a few cells, not the whole board (about 1 ms here, a Zero's 25-60)."""
    last = _last_drawn.get((seat, board.ranks))
    if last is not None and last[0] is not board:
        before, image = last
        now, then = board.cells(), before.cells()
        changed = [cell for cell in now.keys() | then.keys() if now.get(cell) != then.get(cell)]
        if len(changed) <= REDRAWN_AT_MOST:
            image = image.copy()
            d = ImageDraw.Draw(image)
            for cell in changed:
                cx, cy = centre(cell, seat, board.ranks)
                d.polygon(_hexagon(cx, cy, HALF_W, HALF_H, SLANT), fill=0, outline=0)
                _cell(d, cx, cy, now.get(cell), seat)
            _last_drawn[(seat, board.ranks)] = (board, image)
            return image
    image = Image.new("1", board_size(board.ranks), 0)
    d = ImageDraw.Draw(image)
    stacks = board.cells()
    for c in range(FILES):
        for r in range(board.ranks):
            cell = Cell(c, r)
            cx, cy = centre(cell, seat, board.ranks)
            _cell(d, cx, cy, stacks.get(cell), seat)
    _last_drawn[(seat, board.ranks)] = (board, image)
    return image


#: Cells a move changes at most before a board is drawn whole instead.
REDRAWN_AT_MOST = 12
#: The last board image drawn for (seat, ranks): the next one starts from it.
_last_drawn: dict[tuple[int, int], tuple[Board, Image.Image]] = {}


def _cell(d: ImageDraw.ImageDraw, cx: int, cy: int, stack: Stack | None, seat: int) -> None:
    """One cell: its stack's glyph, or the dots of an empty cell."""
    if stack is None:
        d.point([(cx, cy), (cx - HALF_W + 1, cy), (cx + HALF_W - 1, cy)], fill=1)
        d.point([(cx - 6, cy - HALF_H + 1), (cx + 6, cy - HALF_H + 1)], fill=1)
        d.point([(cx - 6, cy + HALF_H - 1), (cx + 6, cy + HALF_H - 1)], fill=1)
    else:
        _glyph(d, cx, cy, stack, stack.owner == seat, seat)


@lru_cache(maxsize=64)
def glyph_mask(board: Board, seat: int, box: tuple[int, int, int, int]) -> Image.Image:
    """Where :func:`board_image` has glyphs (their whole outline, filled) in ``box`` of
    it (the zoom window): the glyphs that reach into the box, drawn there."""
    x0, y0, x1, y1 = box
    image = Image.new("1", (x1 - x0, y1 - y0), 0)
    d = ImageDraw.Draw(image)
    reach = max(GLYPH[0], DISC[0]), max(GLYPH[1], DISC[1])
    for cell, stack in board:
        cx, cy = centre(cell, seat, board.ranks)
        if cx + reach[0] < x0 or cx - reach[0] >= x1 or cy + reach[1] < y0 or cy - reach[1] >= y1:
            continue
        cx, cy = cx - x0, cy - y0
        if stack.shape is Shape.ROUND:
            rx, ry = DISC
            d.ellipse((cx - rx, cy - ry, cx + rx, cy + ry), fill=1)
        else:
            d.polygon(_hexagon(cx, cy, *GLYPH), fill=1)
    return image


def _cursor(
    image: Image.Image, board: Board, seat: int, cell: Cell, at: tuple[int, int]
) -> Image.Image:
    """The cursor: its whole cell lit, what is in it drawn dark on it (an own stack keeps
    its lit face inside a dark edge): the brightest thing on the board, like no stack.
    ``image`` is the board's part from ``at`` (the zoom window)."""
    cx, cy = _centre_in(cell, seat, board.ranks, at)
    mask = Image.new("1", image.size, 0)
    ImageDraw.Draw(mask).polygon(_hexagon(cx, cy, HALF_W + 1, HALF_H + 1, SLANT), fill=1)
    out = ImageChops.logical_xor(image, mask)
    stack = board.at(cell)
    if stack is not None and stack.owner == seat:  # its face as drawn, edged dark
        face = Image.new("1", image.size, 0)
        edge = ImageDraw.Draw(face)
        if stack.shape is Shape.ROUND:
            rx, ry = DISC
            edge.ellipse((cx - rx, cy - ry, cx + rx, cy + ry), fill=1)
        else:
            edge.polygon(_hexagon(cx, cy, *GLYPH), fill=1)
        out.paste(image, (0, 0), face)
        d = ImageDraw.Draw(out)
        if stack.shape is Shape.ROUND:
            d.ellipse((cx - DISC[0], cy - DISC[1], cx + DISC[0], cy + DISC[1]), outline=0)
        else:
            d.polygon(_hexagon(cx, cy, *GLYPH), outline=0)
    return out


def _ring_dots() -> tuple[tuple[int, int], ...]:
    """A dotted ring's dots around a cell's centre (every other pixel of its hexagon)."""
    points = _hexagon(0, 0, HALF_W, HALF_H, SLANT)
    dots = []
    for (x0, y0), (x1, y1) in zip(points, points[1:] + points[:1], strict=True):
        steps = max(abs(x1 - x0), abs(y1 - y0))
        dots += [(x0 + (x1 - x0) * i // steps, y0 + (y1 - y0) * i // steps)
                 for i in range(0, steps, 2)]  # fmt: skip
    return tuple(dots)


_RING = _ring_dots()


def _dotted(d: ImageDraw.ImageDraw, cx: int, cy: int) -> None:
    """A chosen or left cell: one dotted ring."""
    d.point([(cx + x, cy + y) for x, y in _RING], fill=1)


def _centre_in(cell: Cell, seat: int, ranks: int, at: tuple[int, int]) -> tuple[int, int]:
    """``cell``'s centre in the board's part from ``at``."""
    cx, cy = centre(cell, seat, ranks)
    return cx - at[0], cy - at[1]


def _marked(
    board: Board,
    seat: int,
    at: tuple[int, int],
    cursor: Cell | None,
    origin: Cell | None,
    path: tuple[Cell, ...],
    targets: tuple[Cell, ...] = (),
    marks: tuple[Cell, ...] = (),
) -> Image.Image:
    """The zoom window (its corner ``at`` on the board image) with the move under way
    (``origin`` along ``path``), the cursor, the destinations on offer (``targets``)
    and ``marks`` (the opponent's last turn). Drawn in the window alone: the same
    pixels as on the whole board, a fifth of the board's area."""
    box = (at[0], at[1], at[0] + ZOOM_W, at[1] + ZOOM_H)
    image = board_image(board, seat).crop(box)
    d = ImageDraw.Draw(image)
    ranks = board.ranks
    if path and origin is not None:  # a line from centre to centre, hidden by glyphs
        line = Image.new("1", image.size, 0)
        centres = [_centre_in(c, seat, ranks, at) for c in (origin, *path)]
        ImageDraw.Draw(line).line(centres, fill=1, width=1)
        line = ImageChops.subtract(line, glyph_mask(board, seat, box))
        image = ImageChops.logical_or(image, line)
        d = ImageDraw.Draw(image)
    for cell in targets:  # a bar at the cell's left and right corners
        cx, cy = _centre_in(cell, seat, ranks, at)
        for x in (cx - HALF_W, cx + HALF_W):
            d.line((x, cy - 2, x, cy + 2), fill=1)
    for mark in dict.fromkeys((origin, *marks)):
        if mark is not None and mark != cursor:
            _dotted(d, *_centre_in(mark, seat, ranks, at))
    if cursor is not None:
        image = _cursor(image, board, seat, cursor, at)
    return image


def window(
    board: Board, seat: int, focus: Cell | None, origin: Cell | None = None
) -> tuple[int, int]:
    """The zoom window's top-left corner on the board image: centred on ``focus`` (on
    the middle between it and ``origin`` when both fit; with no focus, on the seat's
    near half), kept inside the board."""
    width, height = board_size(board.ranks)
    if focus is None:
        fx, fy = width // 2, height * 3 // 4
    else:
        fx, fy = centre(focus, seat, board.ranks)
        if origin is not None:
            ox, oy = centre(origin, seat, board.ranks)
            if abs(ox - fx) <= ZOOM_W - 2 * HALF_W and abs(oy - fy) <= ZOOM_H - 2 * HALF_H:
                fx, fy = (fx + ox) // 2, (fy + oy) // 2
    x = min(max(fx - ZOOM_W // 2, 0), width - ZOOM_W)
    y = min(max(fy - ZOOM_H // 2, 0), height - ZOOM_H)
    return x, y


def follow(
    board: Board, seat: int, corner: tuple[int, int] | None, focus: Cell | None,
    origin: Cell | None = None,
) -> tuple[int, int]:  # fmt: skip
    """The zoom window's corner after ``corner`` (where the seat's window was; None:
    nowhere yet) for a board that looks at ``focus`` (and ``origin``): it stays while
    they lie whole inside it (the origin only when the two fit together), else
    :func:`window` centres it anew. A cursor stepping within the window, or a move
    made inside it, moves no other pixel of the board."""
    if corner is None:
        return window(board, seat, focus, origin)
    if focus is None:
        return corner
    cells = [focus]
    if origin is not None:
        (fx, fy), (ox, oy) = centre(focus, seat, board.ranks), centre(origin, seat, board.ranks)
        if abs(ox - fx) <= ZOOM_W - 2 * HALF_W and abs(oy - fy) <= ZOOM_H - 2 * HALF_H:
            cells.append(origin)
    x, y = corner
    for cell in cells:
        cx, cy = centre(cell, seat, board.ranks)
        if not (
            x + HALF_W < cx < x + ZOOM_W - 1 - HALF_W and y + HALF_H < cy < y + ZOOM_H - 1 - HALF_H
        ):
            return window(board, seat, focus, origin)
    return corner


# -------------------------------------------------------------- side column
OVER_X, OVER_PX = SIDE_X + 1, 5  #: overview: left edge, file pitch


def _overview(c: Canvas, board: Board, seat: int, view: tuple[int, int], top: int,
              marks: tuple[Cell, ...] = ()) -> None:  # fmt: skip
    """Every cell as a small blob (filled: yours, hollow: the opponent's), ``marks``
    (the opponent's last turn) underlined, and the zoom window as a frame."""
    pitch = 4 if board.ranks <= 9 else 3
    rows = board.ranks * pitch + pitch // 2 + 1
    bottom = top + rows

    def at(cell: Cell) -> tuple[int, int]:
        x, y = seen_from(cell, seat, board.ranks)
        half = pitch // 2 if raised(cell, seat) else 0
        return OVER_X + x * OVER_PX, bottom - (y + 1) * pitch - half

    for cell, stack in board:
        x, y = at(cell)
        if stack.owner == seat:
            c.box(x, y, x + 3, y + pitch - 2)
        else:
            c.box(x, y, x + 3, y + pitch - 2, None)
    for cell in marks:
        x, y = at(cell)
        c.draw.line((x, y + pitch - 1, x + 3, y + pitch - 1), fill=1)
    height = board_size(board.ranks)[1]
    wx, wy = view
    fx0 = OVER_X - 1 + wx * OVER_PX // PITCH_X
    fx1 = OVER_X - 1 + (wx + ZOOM_W) * OVER_PX // PITCH_X
    fy0 = top + wy * rows // height
    fy1 = top + (wy + ZOOM_H) * rows // height
    c.draw.rectangle((fx0, fy0, min(fx1, WIDTH - 1), min(fy1, LEGEND_Y - 1)), outline=1)


def _tag(c: Canvas, text: str, inverted: bool) -> None:
    room = WIDTH - SIDE_X - 3
    label = tx.fit(text, tx.SMALL, room)
    c.box(SIDE_X, 0, WIDTH - 1, 9, 1 if inverted else None)
    c.text_middle((SIDE_X + WIDTH) // 2, 5, label, tx.SMALL, 0 if inverted else 1)


OPTION_ROW = 10
OPTION_ROWS = 4


def _options(c: Canvas, options: tuple[str, ...], highlight: int, top: int) -> None:
    """The stack's options, the highlighted one inverted, scrolled to keep it shown."""
    n = len(options)
    hi = min(max(highlight, 0), n - 1)
    first = min(max(hi - OPTION_ROWS + 1, 0), max(n - OPTION_ROWS, 0))
    for row, i in enumerate(range(first, min(first + OPTION_ROWS, n))):
        y = top + row * OPTION_ROW
        label = tx.fit(options[i], tx.SMALL, WIDTH - SIDE_X - 4)
        if i == hi:
            c.draw.rounded_rectangle((SIDE_X, y, WIDTH - 1, y + OPTION_ROW - 1), 2, fill=1)
            c.text(SIDE_X + 2, y - 1, label, tx.SMALL, 0)
        else:
            c.text(SIDE_X + 2, y - 1, label, tx.SMALL)


def _lines(c: Canvas, lines: tuple[str, ...], top: int) -> None:
    for i, line in enumerate(lines[: (LEGEND_Y - top) // 10]):
        c.text(SIDE_X + 2, top + i * 10 - 1, tx.fit(line, tx.SMALL, WIDTH - SIDE_X - 3), tx.SMALL)


def render_board(v: BoardView, c: Canvas) -> None:
    """A player's screen (see the module's docstring)."""
    board, seat = v.board, v.seat
    cursor, origin, path = v.cursor, v.origin, v.path
    last = v.last
    marks = () if last is None else (last.origin, last.destination)
    if last is not None and v.reading and cursor is None:
        cursor, origin, path = last.destination, last.origin, last.path
    elif last is not None and not path:
        origin, path = last.origin, last.path  # its line, under the cursor
    corner = v.corner if v.corner is not None else window(board, seat, v.cursor, v.origin)
    c.image.paste(_marked(board, seat, corner, cursor, origin, path, v.targets, marks), (0, 0))
    c.draw.line((ZOOM_W, 0, ZOOM_W, LEGEND_Y - 2), fill=1)
    _tag(c, v.title or v.tag, v.my_turn)
    if v.options:
        _options(c, v.options, v.highlight, 11)
    elif v.lines:
        _lines(c, v.lines, 12)
    elif last is not None and v.reading and v.cursor is None:
        _lines(c, last.lines, 12)
    else:
        _overview(c, board, seat, corner, 11, marks)
    c.legend(v.legend, LEGEND_Y)


# ---------------------------------------------------------------- onlookers
def render_onlooker(v: OnlookerView, c: Canvas) -> None:
    """The whole board turned a quarter (South at the left, file a at the top): every
    stack as a small glyph (filled: South, outlined: North; a disc for round stacks)
    with its height; a bar along the edge of the side on turn; ``last`` framed."""
    board = v.board
    pitch_x = min(13, (WIDTH - 6) * 2 // (2 * board.ranks + 1))
    pitch_y = HEIGHT // FILES
    top = 1  # the burn-in shift moves the frame a pixel up: keep file a's frame on the glass

    def corner(cell: Cell) -> tuple[int, int]:
        return 3 + cell.r * pitch_x + (pitch_x // 2 if cell.c % 2 else 0), top + cell.c * pitch_y

    bar = 0 if v.to_move == 0 else WIDTH - 2
    c.box(bar, 0, bar + 1, HEIGHT - 1)
    empty = []  # a dot in each empty cell (drawn at once: cells do not overlap)
    for cell in (Cell(f, r) for f in range(FILES) for r in range(board.ranks)):
        x, y = corner(cell)
        stack = board.at(cell)
        if stack is None:
            empty.append((x + pitch_x // 2 - 1, y + 3))
            continue
        south = stack.owner == 0
        box = (x, y, x + pitch_x - 2, y + pitch_y - 2)
        if stack.shape is Shape.ROUND:
            c.draw.ellipse(box, fill=1 if south else 0, outline=1)
        else:
            c.draw.rectangle(box, fill=1 if south else 0, outline=1)
        _tiny(c, x + (pitch_x - 1) // 2, y + 1, stack.height, 0 if south else 1)
    c.draw.point(empty, fill=1)
    if v.last is not None:
        for cell in {v.last.origin, v.last.destination}:
            x, y = corner(cell)
            c.draw.rectangle((x - 1, y - 1, x + pitch_x - 1, y + pitch_y - 1), outline=1)


#: 3×5 digits for the onlooker's small glyphs (rows top to bottom, 3 bits each).
_TINY = {
    "0": (7, 5, 5, 5, 7), "1": (2, 6, 2, 2, 7), "2": (7, 1, 7, 4, 7), "3": (7, 1, 3, 1, 7),
    "4": (5, 5, 7, 1, 1), "5": (7, 4, 7, 1, 7), "6": (7, 4, 7, 5, 7), "7": (7, 1, 1, 2, 2),
    "8": (7, 5, 7, 5, 7), "9": (7, 5, 7, 1, 7),
}  # fmt: skip


def _tiny(c: Canvas, cx: int, y: int, n: int, ink: int) -> None:
    c.draw.point(_tiny_dots(cx, y, n), fill=ink)


@lru_cache(maxsize=512)
def _tiny_dots(cx: int, y: int, n: int) -> tuple[tuple[int, int], ...]:
    """The pixels of ``n`` in 3×5 digits centred on column ``cx``, top row ``y``."""
    text = str(n)
    x = cx - (4 * len(text) - 1) // 2
    dots: list[tuple[int, int]] = []
    for ch in text:
        for row, bits in enumerate(_TINY[ch]):
            dots += [(x + col, y + row) for col in range(3) if bits >> (2 - col) & 1]
        x += 4
    return tuple(dots)


# ---------------------------------------------------------------- the end
def render_end(v: EndView, c: Canvas) -> None:
    """Who won (or a draw) big, why, and the counters each side has left; a review gets
    two lines under them (as Switch 16's win screen), the title shrinks for it."""
    if v.winner is None:
        title, mine = "DRAW", False
    elif v.winner == v.seat:
        title, mine = "YOU WIN!", True
    else:
        title, mine = f"{v.labels[v.winner]} WINS", False
    bottom = 15 if v.review else 22  # the title's band
    if mine:
        c.box(0, 0, WIDTH - 1, bottom)
    sizes = (tx.LARGE, tx.TEXT) if v.review else (tx.HUGE, tx.LARGE, tx.TEXT)
    size = tx.fit_size(title, WIDTH - 4, sizes)
    c.text_middle(WIDTH // 2, bottom // 2, title, size, 0 if mine else 1)
    counts = f"{v.labels[0]} {v.counters[0]}  ·  {v.labels[1]} {v.counters[1]}"
    if v.review:  # why and the counters on a line each, the review under them
        c.text_centered(WIDTH // 2, bottom - 1, tx.fit(v.reason, tx.SMALL, WIDTH - 4), tx.SMALL)
        c.text_centered(WIDTH // 2, bottom + 8, tx.fit(counts, tx.SMALL, WIDTH - 2), tx.SMALL)
        for y, line in zip((32, 41), tx.wrap(v.review, tx.SMALL, WIDTH - 2, 2), strict=False):
            c.text_centered(WIDTH // 2, y, line, tx.SMALL)
    else:
        for y, line in zip((23, 32), tx.wrap(v.reason, tx.SMALL, WIDTH - 4, 2), strict=False):
            c.text_centered(WIDTH // 2, y, line, tx.SMALL)
        c.text_centered(WIDTH // 2, 41, tx.fit(counts, tx.SMALL, WIDTH - 2), tx.SMALL)
    c.legend(v.legend, LEGEND_Y)


# -------------------------------------------------------------------- entry
_RENDERERS: dict[type, Callable[[Any, Canvas], None]] = {
    BoardView: render_board,
    OnlookerView: render_onlooker,
    EndView: render_end,
}


def draw(view: SwytchView) -> Canvas:
    """The unshifted canvas for ``view`` (its ``texts`` list where every text went)."""
    canvas = Canvas()
    _RENDERERS[type(view)](view, canvas)
    return canvas


def render(view: SwytchView) -> Image.Image:
    """``view`` as the seat's 128×64 mode-"1" image (landscape; the driver rotates)."""
    return _render(view).copy()


@lru_cache(maxsize=32)
def _render(view: SwytchView) -> Image.Image:
    dx, dy = view.shift
    return shifted(draw(view).image, dx, dy)


__all__ = ["LastTurn", "draw", "render"]
