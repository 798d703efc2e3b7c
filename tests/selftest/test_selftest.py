"""``switch16 selftest`` on the real Pi backend (MockFactory, fake OLED bus), virtual time:
the report, the glass and the exit status for good and badly wired units."""

from __future__ import annotations

import re

import pytest
from PIL import Image

from firmware.screens.selftest import (
    FAIL,
    NOW,
    OK,
    TODO,
    render_buttons,
    render_message,
    render_pattern,
)
from firmware.selftest import Ask, Status, Step, pattern_lines, scale
from hal.config import UnitConfig
from tests.selftest.conftest import (
    CHIP,
    NO,
    YES,
    config_of,
    reference_data,
    same,
    selftest_on,
)


def statuses(report) -> dict[str, Status]:
    return {c.item: c.status for c in report.checks}


def test_a_good_build_passes_every_item(reference: UnitConfig) -> None:
    with selftest_on(reference) as bench:
        run = bench.start()
    report = run.report
    assert report.passed and report.exit_code == 0
    assert {item for item, s in statuses(report).items() if s is not Status.PASS} == set()
    assert report["seat 4 LED"].wiring == "GPIO 20 (pin 38)"  # the reference has them
    assert len([c for c in report.checks if c.step is Step.BUTTONS]) == 12
    assert report["seat 4 CHIP"].key == "seat 4.buttons.chip"
    assert report["seat 4 CHIP"].wiring == "GPIO 25 (pin 22)"
    # the shaker: 40 edges 25 ms apart, reported with the events and the duration
    assert report["shaker"].detail == "0.97 s shake, 40 edges"
    assert any(line.startswith("  ShakeStarted at +") for line in run.lines)
    assert "  ShakeStopped: 0.97 s shake, 40 edges" in run.lines
    assert report["buzzer"].detail == "heard"
    text = report.format()
    assert text.splitlines()[-1] == "Result: PASS (22 passed, 0 failed, 0 skipped)"
    assert re.search(r"seat 1 display +PASS +seat 1\.display", text)
    # afterwards the panels are blank and the buzzer is quiet
    assert all(image.getbbox() is None for image in run.glass_after)
    assert not bench.pi.hal.buzzer.playing


def test_panels_show_the_test_pattern_first(reference: UnitConfig) -> None:
    with selftest_on(reference) as bench:
        bench.start()
    first = bench.maker.glass_at[Ask(Step.DISPLAYS)]
    for seat, glass in enumerate(first):
        # the mux channel's bus as the Pi backend resolved it (emulated: channel C is 22 + C)
        expected = render_pattern(seat, pattern_lines(reference.seats[seat].display, 22 + seat))
        assert same(glass, expected)
        # a full border: every edge pixel lit
        px = glass.load()
        assert all(px[x, 0] and px[x, 63] for x in range(128))
        assert all(px[0, y] and px[127, y] for y in range(64))
    assert not same(first[0], first[1])  # each shows its own seat number
    assert pattern_lines(reference.seats[2].display, 24) == (
        "I²C-24 ch2 0x3C",
        "ssd1306",
        "rotate 0",
    )


def test_a_rotated_panel_shows_the_arrow_up_for_its_player() -> None:
    data = reference_data()
    data["seats"][1]["display"]["rotate"] = 2
    config = config_of(data)
    with selftest_on(config) as bench:
        bench.start(interrupt_in=Step.BUTTONS)
    glass = bench.maker.glass_at[Ask(Step.DISPLAYS)][1]
    pattern = render_pattern(1, pattern_lines(config.seats[1].display, 23))
    assert "rotate 2" in pattern_lines(config.seats[1].display)
    assert same(glass, pattern.transpose(Image.Transpose.ROTATE_180))


def test_a_button_never_pressed_fails_naming_seat_and_pin(reference: UnitConfig) -> None:
    with selftest_on(reference) as bench:
        run = bench.start(broken={(2, NO)})
    report = run.report
    assert not report.passed and report.exit_code == 1
    row = report["seat 3 NO"]
    assert row.status is Status.FAIL
    assert (row.key, row.wiring) == ("seat 3.buttons.no", "GPIO 26 (pin 37)")
    assert row.detail == "not pressed within 30 s"
    assert [c.item for c in report.failed] == ["seat 3 NO"]
    assert report["seat 3 CHIP"].status is Status.PASS  # the seat moved on to CHIP
    assert "Result: FAIL: seat 3 NO (21 passed, 1 failed, 0 skipped)" in report.format()
    assert "  FAIL: seat 3 NO [seat 3.buttons.no, GPIO 26 (pin 37)]: not pressed within 30 s" in (
        run.lines
    )
    # on the glass: NO asked, then the cross under NO and CHIP asked; seat 0 long done
    asked_no = bench.maker.glass_at[Ask(Step.BUTTONS, 2, NO)]
    assert same(asked_no[2], render_buttons(2, [("YES", OK), ("NO", NOW), ("CHIP", TODO)]))
    asked_chip = bench.maker.glass_at[Ask(Step.BUTTONS, 2, CHIP)]
    assert same(asked_chip[2], render_buttons(2, [("YES", OK), ("NO", FAIL), ("CHIP", NOW)]))
    assert same(asked_chip[0], render_buttons(0, [("YES", OK), ("NO", OK), ("CHIP", OK)]))


def test_swapped_wires_are_reported(reference: UnitConfig) -> None:
    with selftest_on(reference) as bench:
        # seat 3: seat 2's buttons answer the LED questions
        run = bench.start(wired_to={(2, YES): NO, (2, NO): YES}, film=[])
    report = run.report
    assert [c.item for c in report.failed] == ["seat 3 YES", "seat 3 NO"]
    assert report["seat 3 YES"].detail == (
        "not pressed within 30 s; got NO (GPIO 26 (pin 37)) instead: swapped wires?"
    )
    assert "got YES (GPIO 19 (pin 35)) instead" in report["seat 3 NO"].detail
    said = "  seat 3: got NO (GPIO 26 (pin 37)) when YES was asked: wrong button, or swapped wires?"
    assert said in run.lines
    assert report["seat 3 CHIP"].status is Status.PASS
    # the seat's screen said what it got
    got_yes = render_buttons(2, [("YES", FAIL), ("NO", NOW), ("CHIP", TODO)], got="YES")
    assert any(same(panels[2], got_yes) for panels in bench.maker.film)


def test_a_wrong_press_before_the_right_one_still_fails(reference: UnitConfig) -> None:
    with selftest_on(reference) as bench:
        run = bench.start(fumble={(0, CHIP): YES})
    row = run.report["seat 1 CHIP"]
    assert row.status is Status.FAIL and run.report.exit_code == 1
    assert row.detail.startswith("got YES (GPIO 17 (pin 11)) first")
    assert row.detail.endswith("(then CHIP worked)")


def test_a_button_held_down_from_the_start_is_stuck(reference: UnitConfig) -> None:
    with selftest_on(reference) as bench:
        bench.pi.press(3, "chip")  # shorted to GND
        run = bench.start()
    row = run.report["seat 4 CHIP"]
    assert row.status is Status.FAIL and "stuck, or shorted to GND" in row.detail
    assert [c.item for c in run.report.failed] == ["seat 4 CHIP"]


def test_shaker_with_no_edges_points_at_the_wiring(reference: UnitConfig) -> None:
    with selftest_on(reference, timeout=5) as bench:
        run = bench.start(shake_edges=0)
    row = run.report["shaker"]
    assert row.status is Status.FAIL
    assert row.detail == "no edges within 5 s: check the sensor's wiring and power"
    assert row.wiring == "GPIO 4 (pin 7)"


def test_shaker_too_weak_to_start_points_at_the_sensitivity(reference: UnitConfig) -> None:
    with selftest_on(reference) as bench:
        run = bench.start(shake_edges=20, shake_period=0.1)  # 4 edges per 300 ms: never a shake
    row = run.report["shaker"]
    assert row.status is Status.FAIL
    assert row.detail.startswith("20 edges, never 6 within 300 ms")
    # the edge count reached the panels
    assert same(
        bench.maker.glass[Step.SHAKER][3],
        render_message("SHAKER", ("Shake the unit now!", "edges: 20", "FAILED")),
    )


def test_a_long_shake_is_capped_and_passes(reference: UnitConfig) -> None:
    with selftest_on(reference) as bench:
        run = bench.start(shake_edges=300, shake_period=0.02)  # 6 s of shaking
    assert run.report["shaker"].status is Status.PASS
    assert run.report["shaker"].detail.endswith("capped")


def test_an_unplugged_display_is_named_and_the_rest_still_runs(reference: UnitConfig) -> None:
    with selftest_on(reference, unplugged=(2,)) as bench:
        run = bench.start()
    row = run.report["seat 3 display"]
    assert row.status is Status.FAIL and row.key == "seat 3.display"
    assert row.detail == "DeviceNotFoundError: I2C device not found: /dev/i2c-24"
    assert "  FAIL: seat 3 display [seat 3.display, ssd1306 I²C-24 ch2 0x3C rotate 0]: " in (
        "\n".join(run.lines)
    )
    assert [c.item for c in run.report.failed] == ["seat 3 display"]
    assert run.report["seat 3 YES"].status is Status.PASS  # its buttons work anyway
    assert run.report.exit_code == 1


def test_a_display_failing_on_the_bus_is_reported(reference: UnitConfig) -> None:
    with selftest_on(reference) as bench:
        del bench.pi.bus.i2c[(25, 0x3C)]  # seat 3 comes loose after start-up
        run = bench.start()
    row = run.report["seat 4 display"]
    assert row.status is Status.FAIL
    assert row.detail == "DeviceNotFoundError: I2C device not found on address: 0x3C"
    assert [c.item for c in run.report.failed] == ["seat 4 display"]


def test_a_silent_buzzer_fails(reference: UnitConfig, monkeypatch: pytest.MonkeyPatch) -> None:
    with selftest_on(reference) as bench:
        monkeypatch.setattr(bench.pi.hal.buzzer.player, "play", lambda tune, now: None)
        run = bench.start()
    assert run.report["buzzer"].status is Status.FAIL
    assert run.report["buzzer"].detail.startswith("not heard")


def test_no_buzzer_no_leds_are_skipped_and_still_pass() -> None:
    data = reference_data()
    del data["buzzer"]
    for seat in data["seats"]:
        del seat["led"]
    config = config_of(data)
    with selftest_on(config) as bench:
        run = bench.start()
    assert run.report["buzzer"].status is Status.SKIPPED
    assert run.report["buzzer"].detail == "not configured"
    assert run.report.exit_code == 0


def test_a_muted_buzzer_is_skipped() -> None:
    data = reference_data()
    data["buzzer"]["mute"] = True
    with selftest_on(config_of(data)) as bench:
        run = bench.start()
    assert run.report["buzzer"].status is Status.SKIPPED
    assert run.report["buzzer"].detail == "muted (buzzer.mute = true)"


def test_leds_light_one_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    data = reference_data()
    del data["seats"][1]["led"]
    config = config_of(data)
    pins = {seat.index: seat.led for seat in config.seats if seat.led is not None}
    with selftest_on(config) as bench:
        lit: list[tuple[int | None, list[int]]] = []
        original = bench.maker._react

        def react(ask, now):  # which LED pins were on while each LED was asked about
            if ask.step is Step.LEDS:
                lit.append((ask.seat, [p for p in pins.values() if bench.pi.pin(p).state]))
            original(ask, now)

        monkeypatch.setattr(bench.maker, "_react", react)
        run = bench.start()
        assert not any(bench.pi.pin(p).state for p in pins.values())  # off afterwards
    assert lit == [(seat, [pin]) for seat, pin in pins.items()]
    assert list(pins) == [0, 2, 3]
    assert run.report["seat 1 LED"].status is Status.PASS
    assert run.report["seat 4 LED"].wiring == "GPIO 20 (pin 38)"
    assert run.report.exit_code == 0


def test_a_dark_led_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    data = reference_data()
    data["seats"][3]["led"] = 16
    config = config_of(data)
    with selftest_on(config) as bench:
        monkeypatch.setattr(bench.pi.hal.seats[3].led, "set", lambda on: None)  # LED in backwards
        run = bench.start()
    assert run.report["seat 4 LED"].status is Status.FAIL
    assert run.report["seat 4 LED"].key == "seat 4.led"


def test_ctrl_c_ends_with_the_partial_report_and_blank_panels(reference: UnitConfig) -> None:
    with selftest_on(reference) as bench:
        run = bench.start(interrupt_in=Step.SHAKER)
        assert bench.maker.glass[Step.SHAKER][0].getbbox() is not None  # it was prompting
    report = run.report
    assert report.interrupted and report.exit_code == 1
    assert report["seat 4 CHIP"].status is Status.PASS
    assert (report["shaker"].status, report["shaker"].detail) == (Status.SKIPPED, "interrupted")
    assert report["buzzer"].status is Status.SKIPPED
    assert report.format().splitlines()[-1].startswith("Result: INTERRUPTED, no failures so far (")
    assert all(image.getbbox() is None for image in run.glass_after)


def test_skipped_steps(reference: UnitConfig) -> None:
    with selftest_on(reference, skip=("buttons", Step.SHAKER)) as bench:
        run = bench.start(shake_edges=0)
    assert {c.detail for c in run.report.checks if c.step in (Step.BUTTONS, Step.SHAKER)} == {
        "--skip"
    }
    assert "Buttons: skipped." in run.lines
    assert run.report.exit_code == 0


def test_the_scale_stays_in_the_buzzers_range() -> None:
    assert [n for n, _ in scale("A4")] == ["A4", "B4", "C#5", "D5", "E5", "F#5", "G#5", "A5"]
    assert scale("Bb3")[0][0] == "A#3" and scale("C5")[-1][0] == "C6"
    with pytest.raises(ValueError):
        scale("H2")


def test_a_build_with_ssd1309_panels_passes_and_each_shows_its_pattern() -> None:
    data = reference_data()
    for seat in data["seats"][1::2]:  # seats 2 and 4: 2.42" SSD1309 panels
        seat["display"]["driver"] = "ssd1309"
    config = config_of(data)
    with selftest_on(config) as bench:
        run = bench.start()
    assert [e.driver for e in bench.pi.displays] == ["ssd1306", "ssd1309"] * 2
    assert run.report.passed and run.report.exit_code == 0
    assert run.report["seat 2 display"].status is Status.PASS
    first = bench.maker.glass_at[Ask(Step.DISPLAYS)]
    for seat in (1, 3):
        lines = pattern_lines(config.seats[seat].display, 22 + seat)
        assert lines[1] == "ssd1309"
        assert same(first[seat], render_pattern(seat, lines))
    assert all(image.getbbox() is None for image in run.glass_after)
