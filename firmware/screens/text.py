"""The bundled font at fixed pixel sizes, loaded once, and cached text measurements.

Everything is drawn with DejaVu Sans Bold without antialiasing (``fontmode = "1"``)
so the 1-bit output stays crisp. Sizes are pixel sizes given to FreeType; a size-10
line occupies rows ``y+2 .. y+11`` of the ``y`` it is drawn at (descenders included).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, lru_cache, partial
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

FONT_DIR = Path(__file__).parent / "fonts"
FONT_FILE = FONT_DIR / "DejaVuSans-Bold.ttf"
LICENCE_FILE = FONT_DIR / "LICENSE-DejaVu.txt"

SMALL = 9  #: dense secondary text (odds hint, tables)
TEXT = 10  #: prompts, labels, header
LARGE = 13  #: banners, titles, menu options
HUGE = 20  #: win screen, screensaver
BIG = 40  #: the top-card number (digits 30 px tall)

SIZES = (SMALL, TEXT, LARGE, HUGE, BIG)


@cache
def font(size: int) -> ImageFont.FreeTypeFont:
    """The bundled font at ``size`` pixels (loaded once per size).

    Basic layout, not raqm: raqm's fractional kerning makes 1-bit letters collide
    ("PL AYERS"), and it is not on every Pi, so frames would differ between machines.
    """
    return ImageFont.truetype(str(FONT_FILE), size, layout_engine=ImageFont.Layout.BASIC)


@lru_cache(maxsize=4096)  # bounded: a unit runs for months and draws many numbers
def bbox(text: str, size: int) -> tuple[int, int, int, int]:
    """Ink box of ``text`` drawn at (0, 0): (left, top, right, bottom), right/bottom exclusive."""
    left, top, right, bottom = font(size).getbbox(text)
    return int(left), int(top), int(right), int(bottom)


@lru_cache(maxsize=1024)
def stamp(text: str, size: int) -> Image.Image:
    """``text`` rendered once as a 1-bit mask of its ink box (pasted at ``bbox`` left/top)."""
    left, top, right, bottom = bbox(text, size)
    mask = Image.new("1", (max(right - left, 1), max(bottom - top, 1)), 0)
    draw = ImageDraw.Draw(mask)
    draw.fontmode = "1"
    draw.text((-left, -top), text, font=font(size), fill=1)
    return mask


def width(text: str, size: int) -> int:
    """Advance-independent ink width of ``text`` in pixels (0 for empty text)."""
    if not text:
        return 0
    left, _, right, _ = bbox(text, size)
    return right - min(left, 0)


ELLIPSIS = "…"


def _longest(n: int, fits: Callable[[int], bool]) -> int:
    """The largest ``k`` in 0..``n`` that ``fits`` (0 always does), by halving: a text's
    width grows with what is added to it, so a few measurements of new text do where
    trying one more letter or word each time took one each."""
    low, high = 0, n
    while low < high:
        mid = (low + high + 1) // 2
        if fits(mid):
            low = mid
        else:
            high = mid - 1
    return low


def _words_fit(words: tuple[str, ...], size: int, room: int, more: int) -> bool:
    """The first word and ``more`` after it fit in ``room`` pixels on a line."""
    return width(" ".join(words[: more + 1]), size) <= room


def fit(text: str, size: int, room: int) -> str:
    """``text`` cut (with a trailing '…') so that it is at most ``room`` pixels wide."""
    if width(text, size) <= room:
        return text
    kept = _longest(len(text), lambda k: width(text[:k] + ELLIPSIS, size) <= room)
    return text[:kept].rstrip() + ELLIPSIS if kept else ""


def wrap(text: str, size: int, room: int, lines: int) -> tuple[str, ...]:
    """``text`` in at most ``lines`` lines of ``room`` pixels, broken between words;
    what does not fit is cut with a '…' on the last line."""
    out: list[str] = []
    words = text.split()
    while words and len(out) < lines:
        more = _longest(len(words) - 1, partial(_words_fit, tuple(words), size, room))
        line = " ".join(words[: more + 1])
        del words[: more + 1]
        if len(out) == lines - 1 and words:
            line = f"{line} {' '.join(words)}"
            words = []
        out.append(fit(line, size, room))
    return tuple(out)


def fit_name(name: str, rest: str, size: int, room: int) -> str:
    """``name + rest`` in ``room`` pixels, cutting the name rather than the words after
    it ("BLUE·expe… starts", not "BLUE·expert sta…")."""
    return fit(name, size, room - width(rest, size)) + rest


def fit_size(text: str, room: int, sizes: tuple[int, ...] = (LARGE, TEXT, SMALL)) -> int:
    """The first size in ``sizes`` at which ``text`` fits in ``room`` pixels (else the last)."""
    for size in sizes:
        if width(text, size) <= room:
            return size
    return sizes[-1]


for _size in SIZES:  # load every font at import, not at the first render
    font(_size)
