"""Golden images: the pinned samples render exactly as saved (regenerate: make_golden.py).

A mismatch writes ``NAME-got.png``, ``NAME-golden.png`` and ``NAME-diff.png`` (4× size;
red: pixels only in the new frame, blue: only in the golden) to the test's temporary
directory and names it in the failure.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image, ImageChops

from firmware.games.switch16.samples import samples
from firmware.games.switch16.screens import render_seat

from .make_golden import GOLDEN, GOLDEN_DIR

SAMPLES = samples()


def diff_image(got: Image.Image, golden: Image.Image) -> Image.Image:
    """Both frames in grey, pixels only in ``got`` red and only in ``golden`` blue."""
    a, b = got.convert("L"), golden.convert("L")
    base = ImageChops.multiply(a, b).point(lambda v: 96 if v else 0)
    only_got = ImageChops.subtract(a, b)
    only_golden = ImageChops.subtract(b, a)
    red = ImageChops.lighter(base, only_got)
    blue = ImageChops.lighter(base, only_golden)
    diff = Image.merge("RGB", (red, base, blue))
    return diff.resize((diff.width * 4, diff.height * 4), Image.Resampling.NEAREST)


def save_mismatch(name: str, got: Image.Image, golden: Image.Image, out: Path) -> Path:
    got.save(out / f"{name}-got.png")
    golden.save(out / f"{name}-golden.png")
    path = out / f"{name}-diff.png"
    diff_image(got, golden).save(path)
    return path


@pytest.mark.parametrize("name", GOLDEN)
def test_render_matches_golden(name: str, tmp_path: Path) -> None:
    with Image.open(GOLDEN_DIR / f"{name}.png") as golden:
        expected = golden.convert("1")
    got = render_seat(SAMPLES[name])
    assert got.size == expected.size
    if got.tobytes() != expected.tobytes():
        diff = save_mismatch(name, got, expected, tmp_path)
        pytest.fail(
            f"{name} differs from its golden: see {diff}; if the change is meant, "
            "check the contact sheet, then run python -m tests.screens.make_golden"
        )


def test_a_mismatch_leaves_a_diff_picture(tmp_path: Path) -> None:
    got, golden = render_seat(SAMPLES["roll_mine"]), render_seat(SAMPLES["decide"])
    path = save_mismatch("x", got, golden, tmp_path)
    with Image.open(path) as diff:
        assert diff.size == (512, 256) and diff.mode == "RGB"
        colours = {c for _, c in diff.getcolors(1 << 16)}
    assert (255, 0, 0) in colours and (0, 0, 255) in colours  # both kinds of change shown


def test_the_contact_sheet_draws_every_sample(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``python -m firmware.games.switch16.samples`` (how a new look is checked before
    the goldens are made again) draws Switch 16's own screens too."""
    from firmware.games.switch16 import samples as sheet

    out = tmp_path / "sheet.png"
    monkeypatch.setattr("sys.argv", ["samples", str(out), "--scale", "1"])
    sheet.main()
    assert Image.open(out).size[1] > 64 * (len(samples()) // 4)
