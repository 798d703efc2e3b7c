"""End screens: the winner of a single game, and the points table between rounds."""

from __future__ import annotations

from firmware.engine.rules import CARDS

from . import text as tx
from .canvas import HEIGHT, WIDTH, Canvas
from .views import ScoresView, WinView


def render_win(v: WinView, c: Canvas) -> None:
    """Draw the win screen ``v`` on ``c``: the winner big, then every deck's colour and
    how many of its 16 cards were discarded (the winner's 16/16)."""
    won = v.seat == v.winner
    title = "YOU WIN!" if won else f"{v.winner_colour.upper()} WINS"
    if won:
        c.box(0, 0, WIDTH - 1, 24)
    size = tx.fit_size(title, WIDTH - 4, (tx.HUGE, tx.LARGE, tx.TEXT))
    c.text_middle(WIDTH // 2, 12, title, size, 0 if won else 1)
    n = len(v.tops)
    pitch = WIDTH // max(n, 1)
    for i, (colour, top) in enumerate(v.tops):
        cx = i * pitch + pitch // 2
        c.text_centered(cx, 25, tx.fit(colour, tx.SMALL, pitch - 2), tx.SMALL)
        if v.review:
            c.text_centered(cx, 33, f"{min(top - 1, CARDS)}/{CARDS}", tx.SMALL)
        else:
            c.text_centered(cx, 35, f"{min(top - 1, CARDS)}/{CARDS}", tx.TEXT)
    if v.review:
        c.text_centered(WIDTH // 2, 42, tx.fit(v.review, tx.SMALL, WIDTH - 2), tx.SMALL)
    c.legend(v.prompt, HEIGHT - 12)


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
        c.text(2, 11 + n * row_h, tx.fit(v.review, tx.SMALL, WIDTH - 4), tx.SMALL)
    c.legend(v.prompt, HEIGHT - 12)
