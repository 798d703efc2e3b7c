"""What the link reports of the unit: its state, its transcript (and how much of it the
state reflects), each seat's frame and the UI snapshot a harness renders from."""

from __future__ import annotations

import base64
from typing import TYPE_CHECKING, Any

from firmware.transcript import header_line

from .protocol import crc

if TYPE_CHECKING:
    from firmware.unit import Unit


def encode_image(image: Any) -> dict[str, Any]:
    """A 1-bit image for the wire: rows top to bottom, 8 pixels a byte, MSB leftmost."""
    mono = image if image.mode == "1" else image.convert("1")
    width, height = mono.size
    data = mono.tobytes()
    return {"width": width, "height": height, "encoding": "1bpp-rows-msb",
            "data": base64.b64encode(data).decode("ascii"),
            "crc": crc(data)}  # fmt: skip


class UnitSnapshot:
    """Reads ``unit`` through public names only; follows its commits (the last game's
    transcript after it is archived) and the frames it sends."""

    def __init__(self, unit: Unit) -> None:
        self.unit = unit
        self.frames: dict[int, Any] = {}  #: seat -> the last frame sent to it
        self._game: tuple[Any, list[str]] = (None, [])

    def committed(self, action: Any, state: Any) -> None:
        self._game = self.unit.journal.open_game

    def frame_shown(self, seat: int, image: Any) -> None:
        self.frames[seat] = image

    def transcript(self) -> tuple[list[str], int]:
        """The open (or last) game's transcript lines and how many of them the state
        the unit plays reflects (a round's roll-off is journaled before it is shown)."""
        header, lines = self.unit.journal.open_game
        if header is None:
            header, lines = self._game
        out = [] if header is None else [header_line(header), *lines]
        return out, len(out) - (1 if out and self.unit.round_ahead else 0)

    def actions(self) -> int:
        """The actions of the game the state shows: its transcript's action lines."""
        return max(0, self.transcript()[1] - 1)

    def state(self) -> dict[str, Any]:
        """The ``state`` op's result: the game's name, its position and (from its public
        UI state) its mode and seat kinds."""
        st = self.unit.state
        ui = self.unit.controller.ui().to_json()
        return {"game": self.unit.game.name, "state": None if st is None else st.to_json(),
                "mode": ui["mode"], "kinds": ui["kinds"], "actions": self.actions(),
                "frames": self.unit.frames, "presses": self.unit.presses,
                "finished": self.unit.finished, "time": self.unit.clock.now()}  # fmt: skip

    def image(self, seat: int) -> tuple[str, Any]:
        """What ``seat`` shows: ("glass", the panel's pixels) where the HAL reads its
        glass, else ("sent", the last frame sent to it, or None)."""
        glass = self.unit.hal.glass(seat)
        if glass is not None:
            return "glass", glass
        return "sent", self.frames.get(seat)

    def ui(self, glass: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        """The game's name and its public UI state (what its seat views are drawn from
        besides the position: Switch 16's :class:`~firmware.unit.ui_state.UiState`, each
        game's own), the journal lines that state reflects, and ``glass`` (every seat's
        frame, read by the caller at this moment of the loop): enough for a harness to
        render each seat itself and compare with the glass."""
        unit = self.unit
        reflected = self.transcript()[1]
        ui = unit.controller.ui().to_json()
        out: dict[str, Any] = {
            "game": unit.game.name, "mode": ui.pop("mode"), "kinds": ui.pop("kinds"),
            "actions": max(0, reflected - 1),
            "frames": unit.frames, "presses": unit.presses, "pending": unit.refresh_pending,
            "saving": unit.journal.saving, "lines": reflected, **ui,
            "sent": [None if (im := self.frames.get(s)) is None else encode_image(im)["crc"]
                     for s in range(len(unit.hal.seats))],
        }  # fmt: skip
        if glass is not None:
            out["glass"] = glass
        return out
