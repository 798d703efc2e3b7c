"""Whole games on the real Pi backend over MockFactory + the fake SSD1306 bus, driven
by button pins and shaker pulse trains on virtual time."""

from __future__ import annotations

import logging
import random
from pathlib import Path

import pytest

from firmware.games.switch16.controller import Mode
from firmware.games.switch16.engine import Phase
from firmware.games.switch16.screens import PlayView, WinView, render_seat
from firmware.games.switch16.seat_views import seat_view
from firmware.games.switch16.setup import GameSetup
from firmware.screens import SaverView
from firmware.transcript import replay_file

from .conftest import CHIP, NO, YES, ScriptedRng, Table, header, open_table, write_journal
from .play import play_until


def view(table: Table, seat: int):
    return seat_view(table.unit.controller.ui(), seat)


def seat0_takes_the_chip(table: Table) -> None:
    """Seat 0 rolls block with nothing to discard: it holds the chip, seat 1 to roll."""
    table.unit.rng.next_roll((6, 6, 6), "block")
    table.press(0, YES)
    table.after_action()
    assert table.state.chip_holder == 0 and table.state.turn == 1
    assert table.state.phase is Phase.ROLL
    for seat in (0, 1):  # the roll that ended the turn, on the glass of both seats
        shown = view(table, seat)
        assert isinstance(shown, PlayView) and shown.dice == (6, 6, 6) and shown.switch == "block"
        assert table.glass_shows_view(seat)
    table.run_until(lambda: table.unit.controller.roll_shown is None)  # read: seat 1's turn
    assert all(table.glass_shows_view(s) for s in (0, 1)) and view(table, 1).dice == ()


def test_block_lands_between_two_discards(two_humans: Table) -> None:
    table = two_humans
    seat0_takes_the_chip(table)
    times: dict[str, list[float]] = {}
    table.unit.on_commit.append(
        lambda a, s: times.setdefault(type(a).__name__, []).append(table.pi.clock.now())
    )
    table.unit.rng.next_roll((1, 2, 3), "blank")  # could discard cards 1..6
    table.shake(14)
    table.run_until(lambda: table.state.phase is Phase.DISCARD)
    assert table.glass_shows_view(1) and table.glass_shows_view(0)
    table.run_until(lambda: table.state.discarded_of(1) == 1)
    # the first discard came one window after the roll
    assert times["Discard"][0] - times["Roll"][-1] == pytest.approx(0.7)
    table.press(0, CHIP)  # block the discarding seat within the next window
    assert [a["action"] for a in table.actions()] == ["roll", "roll", "discard", "place"]
    assert table.actions()[-1] == {"action": "place", "by": 0, "on": 1}
    table.unit.run_for(5)
    st = table.state
    assert st.phase is Phase.DECIDE and st.turn == 1
    assert st.discarded_of(1) == 1 and st.blocked(1)
    assert len(table.actions()) == 4  # no discard after the block
    assert table.glass_shows_view(1)


def test_discard_waits_for_the_window(two_humans: Table) -> None:
    table = two_humans
    table.unit.rng.next_roll((1, 2, 3), "blank")
    table.press(0, YES)
    table.run_until(lambda: table.state.phase is Phase.DISCARD)
    table.unit.run_for(0.65)
    assert table.state.discarded_of(0) == 0
    table.unit.run_for(0.1)
    assert table.state.discarded_of(0) == 1
    table.run_until(lambda: table.state.phase is Phase.DECIDE)
    assert table.state.discarded_of(0) == 6  # 1..6 from 1, 2, 3


def test_green_switch_refused_by_the_chip_holder(two_humans: Table) -> None:
    table = two_humans
    seat0_takes_the_chip(table)
    table.unit.rng.next_roll((6, 6, 6), "green")
    table.press(1, YES)
    table.after_action()
    assert table.state.phase is Phase.GREEN
    menu = view(table, 1)
    assert isinstance(menu, PlayView) and menu.options[-1] == "no switch"  # in the panel
    assert table.glass_shows_view(1)
    table.press(1, YES)  # name seat 0 (highlighted first)
    assert table.state.phase is Phase.GREEN_REFUSAL and table.state.target == 0
    assert table.glass_shows_view(0) and "SWITCH?" in view(table, 0).banner
    table.press(1, NO)  # not the named seat: ignored
    table.press(0, YES)  # refuse
    st = table.state
    assert st.phase is Phase.GREEN and st.refused_mask == 1 and st.chip_holder == 0
    assert view(table, 1).options == ("no switch",)
    table.press(1, YES)  # keep my deck: 6, 6, 6 discards nothing, turn over
    assert [a["action"] for a in table.actions()] == ["roll", "roll", "green", "refuse", "green"]
    assert table.actions()[3] == {"action": "refuse", "value": True}
    assert table.state.control == (0, 1) and table.state.turn == 0


def test_unanswered_green_switch_is_accepted_after_the_refusal_window(two_humans: Table) -> None:
    table = two_humans
    seat0_takes_the_chip(table)
    table.unit.rng.next_roll((6, 6, 6), "green")
    table.press(1, YES)
    table.after_action()
    table.press(1, YES)
    table.unit.run_for(4.8)
    assert table.state.phase is Phase.GREEN_REFUSAL
    table.unit.run_for(0.3)
    assert table.actions()[-1] == {"action": "refuse", "value": False}
    assert table.state.control == (1, 0)


def test_button_storm_makes_one_action(two_humans: Table) -> None:
    table = two_humans
    table.unit.rng.next_roll((1, 1, 1), "blank")  # discards card 1 only
    table.press(0, YES)
    table.run_until(lambda: table.state.phase is Phase.DECIDE)
    before = len(table.actions())
    pin = table.pi.button_pin(0, YES)
    for _ in range(25):  # contact bounce: 25 edges in 5 ms
        pin.drive_low()
        pin.drive_high()
        table.unit.run_for(0.0002)
    for seat, button in [(1, YES), (1, NO), (1, CHIP), (0, CHIP)]:
        table.press(seat, button)  # not theirs to press: ignored
    table.unit.run_for(0.1)
    assert [a["action"] for a in table.actions()[before:]] == ["risk"]
    assert table.state.phase is Phase.ROLL and table.state.risk


def test_whole_game_set_up_and_played_on_the_pins(tmp_path: Path) -> None:
    with open_table(tmp_path, rng=ScriptedRng(5)) as table:
        assert table.unit.controller.mode is Mode.SETUP
        assert view(table, 2).title == "GAME" and table.glass_shows_view(2)
        table.press(2, YES)  # the game: Switch 16
        assert view(table, 2).title == "PLAYERS" and table.glass_shows_view(2)
        table.press(2, CHIP)  # 3 players
        table.press(2, YES)
        table.press(0, YES)  # seat 1 human
        table.press(1, YES)  # seat 2 human
        for _ in range(3):
            table.press(0, CHIP)  # seat 3: human -> easy -> rulebook -> expert
        table.press(0, YES)
        table.press(0, YES)  # rules: pressman-2003
        table.press(0, YES)  # plain game
        assert table.unit.controller.mode is Mode.ROLLOFF
        assert table.glass_shows_view(0) and table.glass_shows_view(3)
        table.run_until(lambda: table.unit.controller.mode is Mode.PLAY)
        first = table.journal()[0]
        assert first["seats"] == ["human", "human", "expert"] and first["players"] == 3
        policy = random.Random(11)
        checks = 0
        for _ in range(3000):
            if table.unit.finished:
                break
            from .play import act

            act(table, policy)
            if table.unit.actions % 7 == 0:
                assert all(table.glass_shows_view(s) for s in range(4))
                checks += 1
        assert table.unit.finished and checks > 0
        final = table.state
        archived = tmp_path / "games" / "0001.jsonl"
        assert archived.exists() and not (tmp_path / "current.jsonl").exists()
        replayed = replay_file(archived)
        assert replayed.ok and replayed.state == final
        assert isinstance(view(table, final.winner), WinView)
        assert all(table.glass_shows_view(s) for s in range(4))
        table.press(1, NO)  # a new game: back to the set-up (YES: a rematch)
        assert table.unit.controller.mode is Mode.SETUP


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_resume_after_a_kill_at_a_random_action(
    tmp_path: Path, seed: int, caplog: pytest.LogCaptureFixture
) -> None:
    setup = GameSetup.of(["human", "human", "rulebook"])
    policy = random.Random(seed)
    kill_at = policy.randrange(3, 60)
    with open_table(tmp_path, setup=setup, rng=ScriptedRng(seed)) as table:
        play_until(table, policy, lambda: table.unit.actions >= kill_at or table.unit.finished)
        assert not table.unit.finished
    current = tmp_path / "current.jsonl"
    expected = replay_file(current)
    assert expected.ok
    text = current.read_text()
    torn = seed % 2 == 1
    if torn:  # the power went while the next line was being written
        current.write_text(text + '{"action": "dis')
    with (
        caplog.at_level(logging.WARNING),
        open_table(tmp_path, setup=setup, rng=ScriptedRng(seed + 100)) as table,
    ):
        assert table.unit.controller.mode is Mode.PLAY
        assert table.state == expected.state
        assert current.read_text() == text  # torn tail cut, nothing else touched
        assert ("torn last line" in caplog.text) == torn
        assert all(table.glass_shows_view(s) for s in range(4))
        assert table.unit.bots.keys() == {2}
        play_until(table, policy, lambda: table.unit.finished)
        final = table.state
    replayed = replay_file(tmp_path / "games" / "0001.jsonl")
    assert replayed.ok and replayed.state == final
    assert replayed.actions[: len(expected.actions)] == expected.actions


def test_corrupt_journal_is_moved_aside_and_a_new_game_starts(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = write_journal(
        tmp_path,
        header(),
        {"action": "roll", "dice": [1, 2, 3], "switch": "blank"},
        {"action": "risk"},  # illegal in phase discard
        {"action": "discard"},
    )
    original = path.read_bytes()
    with caplog.at_level(logging.ERROR), open_table(tmp_path) as table:
        moved = tmp_path / "corrupt-0001.jsonl"
        assert moved.read_bytes() == original
        assert "line 3" in caplog.text and "corrupt-0001.jsonl" in caplog.text
        shown = view(table, 0)
        assert shown.title == "JOURNAL DAMAGED" and "corrupt-0001.jsonl" in shown.options
        assert table.glass_shows_view(0) and table.glass_shows_view(3)
        table.unit.run_for(5)
        assert view(table, 0).title == "JOURNAL DAMAGED"  # until a press
        table.press(1, YES)
        assert table.unit.controller.mode is Mode.SETUP and view(table, 0).title == "GAME"
        assert table.glass_shows_view(1)


def test_idle_dims_then_screensaver_then_a_press_wakes(two_humans: Table) -> None:
    table = two_humans
    oled = table.pi.displays[0]
    config = table.pi.config.displays
    table.unit.run_for(59)
    assert oled.contrast == config.contrast
    table.unit.run_for(2)
    assert oled.contrast == config.dim_contrast
    table.unit.run_for(240)
    saver = view(table, 0)
    assert isinstance(saver, SaverView) and table.glass_shows_view(0)
    before = table.pi.glass(0).tobytes()
    table.unit.run_for(2.5)
    assert table.pi.glass(0).tobytes() != before  # it wanders
    table.press(0, YES)  # wakes; the press is swallowed
    assert oled.contrast == config.contrast
    assert table.unit.controller.tumble is None and table.unit.actions == 0
    assert table.glass_shows_view(0) and not isinstance(view(table, 0), SaverView)
    table.press(0, YES)  # now it rolls
    table.after_action()
    assert table.actions()[0]["action"] == "roll"


def test_long_press_chip_toggles_the_odds_hint(two_humans: Table) -> None:
    table = two_humans
    table.unit.rng.next_roll((1, 1, 1), "blank")
    table.press(0, YES)
    table.run_until(lambda: table.state.phase is Phase.DECIDE)
    assert view(table, 0).odds is None
    table.long_press(0, CHIP)
    hint = view(table, 0).odds
    assert hint is not None and 0 < hint.p_success < 1
    assert table.glass_shows_view(0)
    table.long_press(0, CHIP)
    assert view(table, 0).odds is None


def test_bots_only_points_match_plays_to_the_end(tmp_path: Path) -> None:
    setup = GameSetup.of(["expert", "easy"], points=True)
    with open_table(tmp_path, setup=setup, rng=ScriptedRng(9)) as table:
        table.run_until(lambda: table.unit.finished, 200_000)
        final = table.state
        assert final.match_winners is not None and max(final.scores) >= 100
    replayed = replay_file(tmp_path / "games" / "0001.jsonl")
    assert replayed.ok and replayed.state == final
    assert any(type(a).__name__ == "NewRound" for a in replayed.actions)


def test_every_frame_is_drawn_after_its_action_is_on_disk(tmp_path: Path) -> None:
    shown: list[tuple[int, int]] = []
    tables: list[Table] = []

    def render(v):
        unit = tables[0].unit if tables else None
        if unit is not None and unit.state is not None and not unit.finished:
            lines = (tmp_path / "current.jsonl").read_text().count("\n")
            shown.append((lines - 1, unit.actions))
        return render_seat(v)

    setup = GameSetup.of(["expert", "easy"])
    with open_table(tmp_path, setup=setup, rng=ScriptedRng(3), render=render) as table:
        tables.append(table)
        table.run_until(lambda: table.unit.actions >= 40, 600)
    assert len(shown) > 40 and all(on_disk == applied for on_disk, applied in shown)


def test_no_frame_is_sent_before_its_action_is_synced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The journal's sync runs while the loop renders; every frame waits for it."""
    import threading
    import time

    from firmware.unit import journal

    synced = threading.Event()
    started: list[int] = []
    early: list[int] = []

    def slow_sync(fd: int) -> None:
        started.append(fd)
        time.sleep(0.002)  # an SD card: the loop renders meanwhile
        synced.set()

    monkeypatch.setattr(journal, "_datasync", slow_sync)
    setup = GameSetup.of(["expert", "easy"])
    with open_table(tmp_path, setup=setup, rng=ScriptedRng(3)) as table:
        unit = table.unit
        for seat in unit.hal.seats:
            show = seat.display.show

            def checked(image, show=show) -> None:
                if unit.journal._syncer.pending:
                    early.append(unit.actions)
                show(image)

            seat.display.show = checked  # type: ignore[method-assign]
        table.run_until(lambda: unit.actions >= 30, 600)
    assert len(started) >= 30 and synced.is_set()
    assert early == []


def test_the_pressing_seat_is_drawn_first_and_a_new_press_goes_before_the_rest(
    two_humans: Table,
) -> None:
    table = two_humans
    unit = table.unit
    seat0_takes_the_chip(table)  # seat 1 rolls next; seat 0 holds the chip
    order: list[int] = []
    for index, seat in enumerate(unit.hal.seats):
        for name in ("show", "show_pages"):  # a frame as an image or as page bytes
            send = getattr(seat.display, name)

            def recorded(*frame, send=send, index=index) -> object:
                order.append(index)
                if len(order) == 1:  # a press arrives while the first panel is sent
                    table.pi.press(1, YES)
                return send(*frame)

            setattr(seat.display, name, recorded)
    table.pi.press(0, CHIP)  # seat 0 opens "lay chip on…"
    unit.step()
    assert order[0] == 0  # the seat that pressed, before seat 1 (the game waits for it)
    assert unit.refresh_pending and len(order) == 1  # the rest gave way to the new press
    assert unit.next_deadline() == table.pi.clock.now()
    unit.step()  # seat 1's press: seat 1 first, then whatever else changed
    assert order[1] == 1 and not unit.refresh_pending
    assert all(table.glass_shows_view(s) for s in range(len(unit.hal.seats)))


def test_the_seat_leds_change_after_the_most_urgent_frame(two_humans: Table) -> None:
    """A press shows on its glass first; the LEDs (whose turn it is) follow it."""
    table = two_humans
    unit = table.unit
    refreshes: list[list[str]] = []
    refresh = unit.displays.refresh

    def recorded_refresh() -> None:
        refreshes.append([])
        refresh()

    unit.displays.refresh = recorded_refresh  # type: ignore[method-assign]
    for seat in unit.hal.seats:
        for name in ("show", "show_pages"):
            send = getattr(seat.display, name)

            def frame(*args: object, send=send) -> object:
                refreshes[-1].append("frame")
                return send(*args)

            setattr(seat.display, name, frame)
        led = seat.led
        assert led is not None
        set_led = led.set

        def changed(on: bool, set_led=set_led) -> None:
            refreshes[-1].append("led")
            set_led(on)

        led.set = changed  # type: ignore[method-assign]
    play_until(table, random.Random(5), lambda: unit.actions >= 40)
    both = [events for events in refreshes if "led" in events and "frame" in events]
    assert len(both) >= 10
    assert all(events[0] == "frame" for events in both)
    assert all(table.glass_shows_view(s) for s in range(len(unit.hal.seats)))
    assert [seat.led.is_on for seat in unit.hal.seats if seat.led] == [
        unit.displays.led_on(s) for s in range(len(unit.hal.seats))
    ]
