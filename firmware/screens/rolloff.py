"""Roll-off screen: each seat's die, a tie to roll again, or who starts."""

from __future__ import annotations

from . import text as tx
from .canvas import WIDTH, Canvas
from .views import RollOffView

DIE = 14


def render_rolloff(v: RollOffView, c: Canvas) -> None:
    """Draw the roll-off ``v`` on ``c``."""
    title = "WHO STARTS?" if v.attempt == 1 else f"TIE! ROLL AGAIN ({v.attempt})"
    c.box(0, 0, WIDTH - 1, 11)
    c.text_centered(WIDTH // 2, -2, tx.fit(title, tx.TEXT, WIDTH - 4), tx.TEXT, 0)
    n = len(v.rolls)
    pitch = WIDTH // n
    rolled = [r for r in v.rolls if r is not None]
    best = max(rolled) if rolled else 0
    for s, (label, roll) in enumerate(zip(v.labels, v.rolls, strict=True)):
        cx = s * pitch + pitch // 2
        name = "YOU" if s == v.seat else label
        if tx.width(name, tx.SMALL) > pitch - 2:  # a narrow column: the colour alone
            name = name.split("·")[0]
        c.text_centered(cx, 11, tx.fit(name, tx.SMALL, pitch - 2), tx.SMALL)
        x, y = cx - DIE // 2, 24
        if roll is None:
            c.draw.line((x + 3, y + DIE // 2, x + DIE - 4, y + DIE // 2), fill=1)
        else:
            c.die(x, y, roll, DIE)
            if roll == best and v.starter is None and len(rolled) > 1:
                c.draw.line((x, y + DIE + 2, x + DIE - 1, y + DIE + 2), fill=1)
        if v.starter == s:
            c.draw.rectangle((x - 3, y - 3, x + DIE + 2, y + DIE + 2), outline=1)
    if v.starter is None:
        bottom = "tied: roll again" if len([r for r in rolled if r == best]) > 1 else "rolling…"
    elif v.starter == v.seat:
        bottom = "YOU START!"
    else:
        bottom = tx.fit_name(v.labels[v.starter], " starts", tx.TEXT, WIDTH - 2)
    c.text_centered(WIDTH // 2, 50, tx.fit(bottom, tx.TEXT, WIDTH - 2), tx.TEXT)
