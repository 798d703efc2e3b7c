"""Renderers: image format, purity, and the differences that must show."""

from __future__ import annotations

import dataclasses

import pytest

from firmware.games.switch16.samples import samples
from firmware.games.switch16.screens import OddsHint, PlayView, render_pages, render_seat
from firmware.screens import BlankView, MenuView, SaverView, blank, pixel_shift
from firmware.screens.canvas import SHIFTS
from firmware.screens.text import FONT_FILE, LICENCE_FILE
from hal.frame import pack_frame

SAMPLES = samples()
BASE = PlayView(colour="red", top=5, dice_count=3, turn_colour="red", my_turn=True)


def _bytes(view: object) -> bytes:
    return render_seat(view).tobytes()  # type: ignore[arg-type]


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_every_sample_is_a_1bit_128x64_image(name: str) -> None:
    image = render_seat(SAMPLES[name])
    assert image.mode == "1"
    assert image.size == (128, 64)


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_rendering_is_pure(name: str) -> None:
    view = SAMPLES[name]
    before = dataclasses.replace(view)
    assert _bytes(view) == _bytes(view)
    assert view == before


@pytest.mark.parametrize("name", sorted(set(SAMPLES) - {"blank"}))
def test_every_sample_but_blank_draws_something(name: str) -> None:
    assert render_seat(SAMPLES[name]).getbbox() is not None


def test_blank_frames_are_black() -> None:
    assert render_seat(BlankView()).getbbox() is None
    assert blank().getbbox() is None and blank().size == (128, 64)


@pytest.mark.parametrize(
    "change",
    [
        {"top": 6},
        {"top": 12},
        {"blocked": True},
        {"holds_chip": True},
        {"my_turn": False},
        {"colour": "blue"},
        {"dice": (1, 2, 3), "switch": "blank"},
        {"dice": (1, 2, 3), "switch": "block"},
        {"rolling": 3},
        {"just_discarded": 2},
        {"prompt": (("YES", "risk"), ("NO", "pass"))},
        {"banner": ("PENALTY", "back to 1")},
        {"odds": OddsHint(0.64, 2.1, True)},
        {"tumble": 3},
        {"shift": (1, 0)},
    ],
)
def test_play_view_changes_change_the_image(change: dict[str, object]) -> None:
    assert _bytes(dataclasses.replace(BASE, **change)) != _bytes(BASE)  # type: ignore[arg-type]


def test_different_dice_and_switch_faces_differ() -> None:
    rolled = dataclasses.replace(BASE, dice=(1, 2, 3), switch="blank")
    images = {
        _bytes(dataclasses.replace(rolled, switch=face))
        for face in ("blank", "green", "red", "block")
    }
    images |= {_bytes(dataclasses.replace(rolled, dice=(d, 2, 3))) for d in range(1, 7)}
    assert len(images) == 4 + 5


def test_odds_advice_is_shown() -> None:
    risk = dataclasses.replace(BASE, odds=OddsHint(0.64, 2.1, True))
    assert _bytes(risk) != _bytes(dataclasses.replace(risk, odds=OddsHint(0.64, 2.1, False)))
    assert _bytes(risk) != _bytes(dataclasses.replace(risk, odds=OddsHint(0.5, 2.1, True)))


def test_menu_highlight_moves() -> None:
    menu = MenuView("PLAYERS", ("2", "3", "4", "5", "6"))
    images = {_bytes(dataclasses.replace(menu, highlight=i)) for i in range(5)}
    assert len(images) == 5


def test_pixel_shift_moves_the_whole_layout() -> None:
    plain = render_seat(BASE)
    moved = render_seat(dataclasses.replace(BASE, shift=(1, 1)))
    assert moved.crop((1, 1, 128, 64)).tobytes() == plain.crop((0, 0, 127, 63)).tobytes()


def test_pixel_shift_cycles_small_offsets() -> None:
    shifts = [pixel_shift(i) for i in range(20)]
    assert len(set(shifts)) == 9
    assert all(abs(dx) <= 1 and abs(dy) <= 1 for dx, dy in shifts)
    assert pixel_shift(0) == (0, 0) == pixel_shift(9)


def test_screensaver_moves_with_its_counter() -> None:
    frames = {_bytes(SaverView(i, "12")) for i in range(0, 200, 7)}
    assert len(frames) > 20


def test_font_and_licence_are_bundled() -> None:
    assert FONT_FILE.is_file() and FONT_FILE.suffix == ".ttf"
    text = LICENCE_FILE.read_text()
    assert "Bitstream" in text and "Permission is hereby granted" in text


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_page_bytes_are_the_packed_image(name: str) -> None:
    """A frame sent as kept page bytes is exactly the packed image of the same view,
    at every burn-in shift; views without page bytes (other screens) say so."""
    for shift in SHIFTS:
        v = dataclasses.replace(SAMPLES[name], shift=shift)
        pages = render_pages(v)
        if isinstance(v, PlayView):
            assert pages == pack_frame(render_seat(v)), shift
        else:
            assert pages is None
