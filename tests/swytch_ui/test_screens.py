"""Swytch's screens: goldens, purity, text inside the frame, and the differences a player
must see in every stack (owner, shape, height, orientation, side) from both sides."""

from __future__ import annotations

import dataclasses
import importlib
import random
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from firmware.games.swytch.board import FILES, Board, Cell, Counter, Shape, Stack
from firmware.games.swytch.controls import hold, row
from firmware.games.swytch.picker import Picker
from firmware.games.swytch.screens import BoardView, draw, render
from firmware.games.swytch.screens.build import end_view, last_turn, player_view
from firmware.games.swytch.screens.render import (
    ZOOM_H,
    ZOOM_W,
    board_image,
    centre,
    window,
)
from firmware.games.swytch.screens.samples import midgame, samples
from firmware.games.swytch.state import State
from firmware.unit.controls import THINKING, legend
from hal.events import Button
from tests.screens.make_swytch_golden import GOLDEN_DIR
from tests.screens.test_golden import save_mismatch

SAMPLES = samples()
P = Cell.parse


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_render_matches_golden(name: str, tmp_path: Path) -> None:
    with Image.open(GOLDEN_DIR / f"{name}.png") as golden:
        expected = golden.convert("1")
    got = render(SAMPLES[name])
    assert got.mode == "1" and got.size == (128, 64) == expected.size
    if got.tobytes() != expected.tobytes():
        diff = save_mismatch(name, got, expected, tmp_path)
        pytest.fail(
            f"{name} differs from its golden: see {diff}; if the change is meant, check "
            "the contact sheet, then run python -m tests.screens.make_swytch_golden"
        )


def test_every_golden_is_a_sample() -> None:
    assert {p.stem for p in GOLDEN_DIR.glob("*.png")} == set(SAMPLES)


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_rendering_is_pure_and_texts_stay_in_the_frame(name: str) -> None:
    view = SAMPLES[name]
    assert render(view).tobytes() == render(view).tobytes()
    for text, (x0, y0, x1, y1) in draw(view).texts:
        assert min(x0, y0) >= 0 and x1 <= 128 and y1 <= 64, (name, text)


ONE = Counter(True)


def _zoom(stack: Stack, seat: int = 0) -> bytes:
    """The zoom around d4 holding ``stack`` (a far-away stack of each side keeps the
    board legal for both)."""
    board = Board.of(9, {P("d4"): stack, P("a9"): Stack(1 - stack.owner, Shape.ROUND, (ONE,))})
    view = BoardView(board, seat, "YOU", True, cursor=P("d4"))
    return render(view).crop((0, 0, ZOOM_W, ZOOM_H)).tobytes()


BASE = Stack(0, Shape.HEX, (ONE, ONE))


@pytest.mark.parametrize(
    "other",
    [
        Stack(1, Shape.HEX, (ONE, ONE)),  # owner
        Stack(0, Shape.ROUND, (Counter(), Counter())),  # shape
        Stack(0, Shape.HEX, (ONE, ONE, ONE)),  # height
        Stack(0, Shape.HEX, (ONE, Counter(False))),  # top's orientation
        Stack(0, Shape.HEX, (ONE, Counter(True, True))),  # top's side
    ],
    ids=["owner", "shape", "height", "orientation", "side"],
)
@pytest.mark.parametrize("seat", [0, 1])
def test_every_property_of_a_stack_shows(other: Stack, seat: int) -> None:
    assert _zoom(other, seat) != _zoom(BASE, seat)


def test_each_side_sees_its_own_set_up_alike() -> None:
    """The set-up is point-symmetric: turned round, North's view is South's."""
    for ranks in (8, 9, 11):
        board = Board.setup(ranks)
        assert board_image(board, 1).tobytes() == board_image(board, 0).tobytes()


def test_north_sees_the_board_turned_round() -> None:
    a1, h9 = centre(P("a1"), 1, 9), centre(P("h9"), 0, 9)
    assert a1 == h9  # North's a1 is where South sees h9: far right, top
    assert centre(P("a1"), 0, 9)[1] > centre(P("a9"), 0, 9)[1]  # South's own side below


@pytest.mark.parametrize("seat", [0, 1])
def test_the_zoom_follows_the_cursor_everywhere(seat: int) -> None:
    board = Board.setup(11)
    for cell in (Cell(c, r) for c in range(8) for r in range(11)):
        x, y = window(board, seat, cell)
        cx, cy = centre(cell, seat, 11)
        assert x + 8 <= cx <= x + ZOOM_W - 8 and y + 6 <= cy <= y + ZOOM_H - 6, cell


def test_the_legend_is_the_controls_table_s() -> None:
    s = State.new()
    p = Picker.new(s, 0)
    assert player_view(s, 0, p).legend == legend(row(p))
    assert player_view(s, 1).legend == legend(row(None))
    assert [label for _, label in player_view(s, 1).legend] == ["opponent's turn"]


def test_a_destination_says_what_happens_there() -> None:
    view = SAMPLES["dest_attack_lost"]
    assert isinstance(view, BoardView)
    assert view.lines[:3] == ("→c5", "attack", "lost") and view.path[-1] == P("c5")


def test_the_opponent_s_last_turn_shows_until_a_press() -> None:
    m = midgame()
    move = Picker.new(m, 0).choices.options[0][0].targets[0].move
    after = m.apply(move)
    shown = player_view(after, 1, Picker.new(after, 1), last_turn(m, move))
    assert shown.cursor is None and shown.last is not None
    assert shown.last.lines[0] == "SOUTH" and shown.last.destination == move.destination
    plain = player_view(after, 1, Picker.new(after, 1))
    assert render(shown).tobytes() != render(plain).tobytes()


def test_the_end_says_who_won_or_why_it_is_a_draw() -> None:
    won = State.from_board(Board.of(9, {P("d4"): BASE}), 1)
    assert end_view(won, 0).winner == 0 and "North" in end_view(won, 0).reason
    drawn = end_view(State.from_board(midgame().board, 0, quiet=100), 1)
    assert drawn.winner is None and "100 turns" in drawn.reason


def test_a_hint_asked_for_shows_until_it_comes() -> None:
    s = State.new()
    asked = hold(Picker.new(s, 0), Button.CHIP)
    assert player_view(s, 0, asked).tag == "HINT…"
    assert player_view(s, 0, asked.hinted(s.legal_actions()[0])).tag != "HINT…"


def test_every_reachable_cell_of_the_count_is_marked() -> None:
    view = SAMPLES["dest_land"]
    assert isinstance(view, BoardView) and len(view.targets) > 1
    assert view.cursor in view.targets
    plain = dataclasses.replace(view, targets=())
    assert render(plain).tobytes() != render(view).tobytes()


def test_a_bots_own_turn_says_it_is_thinking_not_the_opponents_turn() -> None:
    """A seat whose turn a bot plays has no picker: its panel said "opponent's turn"."""
    state = State.new()
    bots_turn = player_view(state, state.to_move, None)
    waiting = player_view(state, 1 - state.to_move, None)
    assert bots_turn.legend == legend(THINKING) and "opponent" not in str(bots_turn.legend)
    assert "opponent's turn" in str(waiting.legend)


def _band_lit(image: Image.Image, view: BoardView, cell: Cell, zoom: bool = True) -> float:
    """The lit share of ``cell``'s band on the zoom (or the whole board image): between
    a hex stack's glyph and the cell's edge (a stack draws nothing there)."""
    from firmware.games.swytch.screens.render import GLYPH, HALF_H, HALF_W, SLANT, _hexagon

    x0, y0 = window(view.board, view.seat, view.cursor, view.origin) if zoom else (0, 0)
    cx, cy = centre(cell, view.seat, view.board.ranks)
    cx, cy = cx - x0, cy - y0
    band = Image.new("L", image.size, 0)
    d = ImageDraw.Draw(band)
    d.polygon(_hexagon(cx, cy, HALF_W + 1, HALF_H + 1, SLANT), fill=1)
    d.polygon(_hexagon(cx, cy, *GLYPH), fill=0)
    pixels = [a for a, b in zip(image.convert("L").tobytes(), band.tobytes(), strict=True) if b]
    return sum(1 for a in pixels if a) / len(pixels)


def test_the_cursor_on_an_own_stack_is_unlike_any_stack_beside_it() -> None:
    view = SAMPLES["stack_angled"]  # the cursor on South's c3, North's c5 beside
    assert isinstance(view, BoardView) and view.cursor == P("c3")
    assert _band_lit(render(view), view, P("c3")) > 0.9  # a wide lit band round it
    plain = board_image(view.board, view.seat)
    for cell in (P("c3"), P("e3"), P("c5"), P("b2")):  # own and the opponent's hex stacks
        assert _band_lit(plain, view, cell, zoom=False) < 0.2, cell.name


def test_the_last_turn_stays_marked_after_it_is_read() -> None:
    view = SAMPLES["last_marked"]
    assert isinstance(view, BoardView) and view.last is not None and not view.reading
    assert view.cursor is not None  # the player picks while the cells stay marked
    unmarked = render(dataclasses.replace(view, last=None))
    assert render(view).tobytes() != unmarked.tobytes()
    side = (86, 11, 128, 52)  # the overview underlines them too
    assert render(view).crop(side).tobytes() != unmarked.crop(side).tobytes()


def test_the_hint_is_labelled_and_the_legend_names_no_and_the_holds() -> None:
    view = SAMPLES["hint_shown"]
    assert isinstance(view, BoardView) and "hint" in (*view.lines, view.title)
    picking = SAMPLES["stack_angled"]
    assert isinstance(picking, BoardView) and picking.title == "c3"  # the cell's name
    assert [b for b, _ in picking.legend] == ["CHIP", "NO", "YES"]
    reading = SAMPLES["last_turn"]
    assert isinstance(reading, BoardView)
    assert ("", "hold") in reading.legend and ("CHIP", "hint") in reading.legend
    assert "NO" in [b for b, _ in reading.legend]


def test_the_onlooker_s_top_row_stays_on_the_glass_when_the_shift_moves_up() -> None:
    view = SAMPLES["onlooker"]
    image = draw(view).image
    top = [image.getpixel((x, 0)) for x in range(2, 128 - 2)]  # the side bars aside
    assert not any(top)


def test_a_board_drawn_from_the_last_one_is_the_board_drawn_whole() -> None:
    """A board a move away is drawn from the seat's last image, only the changed cells
    again: pixel for pixel the whole drawing, over whole random games."""
    render_module = importlib.import_module("firmware.games.swytch.screens.render")
    checked = 0
    for game in range(3):
        rng = random.Random(game)
        st = State.new(9 + game, game % 2)
        while not st.game_over and checked < 600:
            st = st.apply(rng.choice(st.legal_actions()))
            for seat in (0, 1):
                drawn = render_module.board_image(st.board, seat)
                whole = Image.new("1", render_module.board_size(st.board.ranks), 0)
                draw = ImageDraw.Draw(whole)
                for c in range(FILES):
                    for r in range(st.board.ranks):
                        cell = Cell(c, r)
                        cx, cy = render_module.centre(cell, seat, st.board.ranks)
                        render_module._cell(draw, cx, cy, st.board.at(cell), seat)
                assert drawn.tobytes() == whole.tobytes(), f"game {game}, {checked} boards in"
                checked += 1
    assert checked >= 600
