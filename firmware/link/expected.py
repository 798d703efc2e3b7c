"""The expected-frame check: what each seat's glass must show for a ``ui`` snapshot of
the unit and the position replayed from its transcript, and how the glass differs."""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass, field
from typing import Any

from PIL import Image

from firmware.games.game_ui import GameUi
from firmware.games.registry import DEFAULT_GAME, get_game
from firmware.kernel.seats import seat_name
from firmware.screens.notice import with_notice
from firmware.transcript import replay_lines
from firmware.unit.loop import NOT_SAVED

from .report import StepFailed


def ui_from_json(snap: dict[str, Any], state: Any) -> GameUi:
    """The UI state a ``ui`` snapshot describes, over ``state`` (the position replayed),
    read by the snapshot's game (:meth:`~firmware.games.game.Game.ui_from_json`)."""
    return get_game(snap.get("game", DEFAULT_GAME)).ui_from_json(snap, state)


def expected_frames(snap: dict[str, Any], state: Any, seat: int) -> tuple[Any, Any]:
    """What ``seat`` must show for a ``ui`` snapshot and the replayed ``state``: (the
    game's render of its seat view of the unit's UI state over that position, the NOT
    SAVED notice included; where the seat shows plain play (:meth:`GameUi.plain`), the
    render of the view with nothing up but the position (:meth:`GameUi.bare`), else None)."""
    game = get_game(snap.get("game", DEFAULT_GAME))
    ui = ui_from_json(snap, state)
    image = game.render(game.seat_view(ui, seat))
    if not snap["saving"]:
        image = with_notice(image, NOT_SAVED)
    plain = None
    if snap["saving"] and ui.plain(seat):
        plain = game.render(game.seat_view(ui.bare(), seat))
    return image, plain


def ui_of(snap: dict[str, Any], seat: int) -> str:
    """What is up on ``seat`` besides plain play, for a message."""
    return ", ".join(ui_from_json(snap, None).extras(seat)) or "plain"


def replayed(what: str, lines: list[str]) -> Any:
    """The position the unit's transcript ``lines`` replay to (None: no game yet)."""
    if not lines:
        return None
    result = replay_lines(lines)
    if not result.ok:
        raise StepFailed(f"{what}: the unit's transcript does not replay: {result.error}")
    return result.state


@dataclass
class Mismatch:
    """One seat's glass that is not what it must show."""

    seat: int
    why: str
    glass: bytes
    want: Image.Image


@dataclass
class FrameCheck:
    """Every seat's glass of one ``ui`` snapshot against its expected frames."""

    checked: int = 0  #: seats whose glass equals the render of the unit's view
    plain: int = 0  #: of them, seats in plain play that equal the engine-only view too
    mismatches: list[Mismatch] = field(default_factory=list)
    why: str = ""  #: the failure message, if any seat mismatches


def check_glass(what: str, snap: dict[str, Any], lines: list[str]) -> FrameCheck:
    """Compare every seat's glass in ``snap`` (a ``ui`` op with ``glass``) with the
    renders of the position ``lines`` (the unit's transcript up to ``snap["lines"]``)
    replay to; raises :class:`StepFailed` when the unit plays another position."""
    state = replayed(what, lines)
    if snap["state"] is not None and (state is None or state.to_json() != snap["state"]):
        got = None if state is None else json.dumps(state.to_json())
        raise StepFailed(f"{what}: the unit plays {json.dumps(snap['state'])} but its "
                         f"transcript replays to {got}")  # fmt: skip
    if snap["state"] is None:
        state = None
    check = FrameCheck()
    for seat, glass in enumerate(snap["glass"]):
        data = base64.b64decode(glass["data"])
        want, plain = expected_frames(snap, state, seat)
        if data != want.tobytes():
            why = f"{seat_name(seat)} ≠ its render ({snap['mode']}, {ui_of(snap, seat)})"
            check.mismatches.append(Mismatch(seat, why, data, want))
            continue
        check.checked += 1
        if plain is not None:
            if data != plain.tobytes():
                why = f"{seat_name(seat)} ≠ render_seat of the plain game view"
                check.mismatches.append(Mismatch(seat, why, data, plain))
                continue
            check.plain += 1
    if check.mismatches:
        where = json.dumps(state.to_json()) if state is not None else "no game"
        check.why = f"{what}: {'; '.join(m.why for m in check.mismatches)} at {where}"
    return check
