"""The script interpreter of ``switch16 hil``: ``*.hil`` files, one step a line
(the format: :mod:`firmware.link.harness`, docs/LINK.md)."""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

from PIL import Image

from firmware.games.options import option_words, read_options
from firmware.games.registry import DEFAULT_GAME, UnknownGameError, get_game
from firmware.kernel.seats import seat_name

from .report import Report, StepFailed
from .unit_driver import UnitDriver


def run_script(d: UnitDriver, path: Path) -> Report:
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.split("#", 1)[0].strip() if not raw.lstrip().startswith("expect state") \
            else raw.strip()  # fmt: skip
        if not line:
            continue
        with d.step(f"{path.name}:{number} {line}"):
            script_line(d, line, path.parent)
    return d.report


def script_line(d: UnitDriver, line: str, base: Path) -> None:
    if line.startswith("expect state "):
        want = json.loads(line[len("expect state ") :])
        d.wait_for(line, lambda s: subset(want, s["state"]))
        return
    words = shlex.split(line)
    cmd, args = words[0], words[1:]
    if cmd == "newgame":
        new_game(d, args)
    elif cmd == "dice":
        dice = [int(n) for n in args[0].split(",")]
        d.c.request("dice", rolls=[{"dice": dice, "switch": args[1] if len(args) > 1
                                    else "blank"}])  # fmt: skip
    elif cmd == "press":
        d.press(int(args[0]), args[1], float(args[2]) if len(args) > 2 else 60)
    elif cmd in ("hold", "release"):
        d.c.request(cmd, seat=int(args[0]), button=args[1])
    elif cmd == "shake":
        d.c.request("shake", ms=float(args[0]))
    elif cmd == "wait":
        d.pause(float(args[0]))
    elif cmd == "expect" and args[0] == "phase":
        turn = int(args[3]) if len(args) > 3 and args[2] == "turn" else None
        d.wait_for(line, lambda s: s["state"] is not None
                   and s["state"]["phase"] == args[1]
                   and (turn is None or s["state"]["turn"] == turn))  # fmt: skip
    elif cmd == "expect" and args[0] == "text":
        seat, text = int(args[1]), args[2]
        d.check_all_frames(line)
        view = d.seat_view(seat)
        if text.lower() not in repr(view).lower():
            raise StepFailed(f"{seat_name(seat)}'s screen has no {text!r}: {view!r}")
    elif cmd == "expect" and args[0] == "frame":
        seat, what = int(args[1]), args[2]
        if what == "render":
            d.check_all_frames(line)
            return
        golden = Image.open(base / what).convert("1")
        if d.c.frame(seat)[0] != golden.tobytes():
            raise StepFailed(f"{seat_name(seat)}'s glass differs from {what}")
    else:
        raise StepFailed(f"unknown step {line!r}")


def subset(want: Any, have: Any) -> bool:
    """``want`` is part of ``have`` (keys of dicts; lists item by item)."""
    if isinstance(want, dict):
        return isinstance(have, dict) and all(k in have and subset(v, have[k])
                                             for k, v in want.items())  # fmt: skip
    if isinstance(want, list):
        return isinstance(have, list) and len(want) == len(have) and all(
            subset(w, h) for w, h in zip(want, have, strict=True))  # fmt: skip
    return bool(want == have)


def new_game(d: UnitDriver, args: list[str]) -> None:
    """``newgame SEATS [game=NAME] [first=N] [option=value | flag]...``: a preset game
    whose set-up options the game declares (:attr:`~firmware.games.game.Game.options`);
    those not written are the spec's defaults (:meth:`UnitDriver.new_game`), so a
    script says its whole set-up."""
    opts = option_words(args[1:])
    first_text = opts.pop("first", None)
    if first_text is not None and not first_text.isdigit():
        raise StepFailed(f"newgame: first={first_text!r} is not a seat number")
    first = None if first_text is None else int(first_text)
    try:
        game = get_game(opts.pop("game", DEFAULT_GAME))
        options = read_options(game.options, opts, words=True)
    except (UnknownGameError, ValueError) as exc:
        raise StepFailed(f"newgame: {exc}") from None
    d.new_game(game.name, args[0].split(","), first, **options)
