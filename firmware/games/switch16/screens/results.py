"""End screens: the winner of a single game, and the points table between rounds."""

from __future__ import annotations

from firmware.screens import text as tx
from firmware.screens.canvas import HEIGHT, WIDTH, Canvas

from ..engine.rules import CARDS
from .views import ScoresView, WinView


def render_win(v: WinView, c: Canvas) -> None:
    """Draw the win screen ``v`` on ``c``: the winner big (by seat: a switch may have
    left it on any deck), then every seat and how many cards it discarded (the
    winner's 16/16); a review gets two lines under them, the title shrinks for it."""
    won = v.seat == v.winner
    title = "YOU WIN!" if won else f"{_short(v.labels[v.winner]).upper()} WINS"
    bottom = 15 if v.review else 24  # the title's band
    if won:
        c.box(0, 0, WIDTH - 1, bottom)
    sizes = (tx.LARGE, tx.TEXT) if v.review else (tx.HUGE, tx.LARGE, tx.TEXT)
    size = tx.fit_size(title, WIDTH - 4, sizes)
    c.text_middle(WIDTH // 2, bottom // 2, title, size, 0 if won else 1)
    n = len(v.discarded)
    pitch = WIDTH // max(n, 1)
    for i, gone in enumerate(v.discarded):
        cx = i * pitch + pitch // 2
        name = "YOU" if i == v.seat else _short(v.labels[i])
        count = f"{min(gone, CARDS)}/{CARDS}"
        if v.review:
            c.text_centered(cx, bottom - 1, tx.fit(name, tx.SMALL, pitch - 2), tx.SMALL)
            c.text_centered(cx, bottom + 8, count, tx.SMALL)
        else:
            c.text_centered(cx, 25, tx.fit(name, tx.SMALL, pitch - 2), tx.SMALL)
            c.text_centered(cx, 35, count, tx.TEXT)
    if v.review:
        for y, line in zip((32, 41), tx.wrap(v.review, tx.SMALL, WIDTH - 2, 2), strict=False):
            c.text_centered(WIDTH // 2, y, line, tx.SMALL)
    c.legend(v.prompt, HEIGHT - 12)


def _short(label: str) -> str:
    """A seat's label without its bot level ("seat 2·easy" -> "seat 2")."""
    return label.split("·")[0]


def render_scores(v: ScoresView, c: Canvas) -> None:
    """Draw the points table ``v`` on ``c``: seat, total (this round's points), the leader."""
    if v.match_winners:
        if v.match_winners == (v.seat,):
            title = "YOU WIN THE MATCH!"
        elif len(v.match_winners) == 1:
            title = tx.fit_name(v.labels[v.match_winners[0]], " wins match", tx.TEXT, WIDTH - 4)
        else:
            title = "Shared: " + " ".join(v.labels[s] for s in v.match_winners)
    else:
        title = f"ROUND {v.round} - to 100"
    c.box(0, 0, WIDTH - 1, 11)
    c.text_centered(WIDTH // 2, -2, tx.fit(title, tx.TEXT, WIDTH - 4), tx.TEXT, 0)
    n = len(v.scores)
    row_h = 10 if n <= 3 else 9
    for s in range(n):
        y = 11 + s * row_h
        marks = v.match_winners or ((v.round_winner,) if v.round_winner is not None else ())
        name = ("YOU" if s == v.seat else v.labels[s]) + (" *" if s in marks else "")
        c.text(2, y, tx.fit(name, tx.SMALL, 62), tx.SMALL)
        c.text_right(96, y, str(v.scores[s]), tx.SMALL)
        if v.gained:
            c.text_right(WIDTH - 2, y, f"+{v.gained[s]}", tx.SMALL)
    if v.review and n <= 3:
        top = 11 + n * row_h
        lines = tx.wrap(v.review, tx.SMALL, WIDTH - 4, (HEIGHT - 12 - top) // 9)
        for i, line in enumerate(lines):
            c.text(2, top + i * 9, line, tx.SMALL)
    c.legend(v.prompt, HEIGHT - 12)
