"""Frames drawn ahead while the loop idles (issue 25): the next press draws no part
for the first time, the game is the same with or without it, and it gives way."""

from __future__ import annotations

import json
import logging
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from firmware.games.registry import get_game
from firmware.games.switch16.screens import play, render
from firmware.games.swytch.controller import LAST_TURN_PACE, READ_GRACE
from firmware.games.swytch.setup import SwytchSetup
from firmware.unit import lookahead
from firmware.unit.lookahead import Lookahead
from hal.events import Button
from hal.frame import pack_frame
from hal.oled import OledDisplay

from .conftest import CHIP, NO, YES, ScriptedRng, Table, header, open_table, write_journal
from .test_thinking import FakeWorker

FIXTURES = Path(__file__).parents[1] / "fixtures" / "transcripts"

#: Every cache a press's frames come from (parts and whole frames as panel bytes).
CACHES: tuple[Any, ...] = (
    play.header_part,
    play.card_part,
    play.banner_part,
    play.odds_part,
    play.roll_part,
    play.dice_row,
    play.label_row,
    play.menu_part,
    play.bar_part,
    play.prompt_part,
    render._play_pages,
)


def misses() -> int:
    return sum(cache.cache_info().misses for cache in CACHES)


def next_press(table: Table, turn: int) -> tuple[int, Button]:
    """A press the game can take now: risk/pass, the options of a menu, a roll."""
    st = table.state
    assert st is not None
    if table.unit.controller.menus:
        return st.turn, YES if turn % 3 == 2 else CHIP
    return st.turn, YES if turn % 2 else NO


def play_presses(table: Table, presses: int, before: Callable[[], None] | None = None) -> list[Any]:
    """Press ``presses`` times, each after the loop idled; the displays' RAM after each."""
    seen = []
    for turn in range(presses):
        st = table.state
        assert st is not None and not st.game_over
        if before is not None:
            before()
        seat, button = next_press(table, turn)
        table.pi.press(seat, button)
        table.unit.step()
        seen.append(tuple(d.ram_frame() for d in table.pi.displays))
        table.pi.release(seat, button)
        table.unit.run_for(2.0)  # the roll tumbles and lands; the loop idles
    return seen


def test_the_next_press_draws_nothing_for_the_first_time(tmp_path: Path) -> None:
    write_journal(tmp_path, header(players=4))
    with open_table(tmp_path, lookahead=Lookahead()) as table:
        first_drawn = []

        def forget_then_idle() -> None:
            for cache in CACHES:
                cache.cache_clear()  # every part would be a first drawing now
            table.unit.run_for(0.3)  # the player reads the screen: the loop idles
            first_drawn.append(misses())

        drawn: list[int] = []
        for _ in range(12):
            play_presses(table, 1, forget_then_idle)
            drawn.append(misses() - first_drawn[-1])
        assert table.unit.lookahead is not None and table.unit.lookahead.pieces > 0
        assert drawn == [0] * 12


def test_the_next_press_sends_bytes_planned_while_idle(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each display plans the bytes of the frames drawn ahead (what it would send from
    what its panel holds): the press sends them without planning any."""
    planned: list[int] = []
    plan = OledDisplay.plan

    def counted(self: OledDisplay, old: bytes | None, new: bytes) -> Any:
        planned.append(1)
        return plan(self, old, new)

    monkeypatch.setattr(OledDisplay, "plan", counted)
    write_journal(tmp_path, header(players=4))
    with open_table(tmp_path, lookahead=Lookahead()) as table:
        during, frames = [], table.unit.frames
        for turn in range(12):
            table.unit.run_for(0.3)  # the player reads the screen: the loop idles
            planned.clear()
            st = table.state
            assert st is not None and not st.game_over
            seat, button = next_press(table, turn)
            table.pi.press(seat, button)
            table.unit.step()
            during.append(len(planned))
            table.pi.release(seat, button)
            table.unit.run_for(2.0)
        assert table.unit.frames > frames
        assert during == [0] * 12
        assert all(table.glass_shows_view(seat) for seat in range(4))


def test_the_game_and_its_frames_are_the_same_with_or_without_it(tmp_path: Path) -> None:
    runs = []
    for name, ahead in (("with", Lookahead()), ("without", None)):
        directory = tmp_path / name
        directory.mkdir()
        write_journal(directory, header(players=4))
        with open_table(directory, rng=ScriptedRng(7), lookahead=ahead) as table:
            frames = play_presses(table, 25)
            runs.append((table.actions(), frames, table.unit.controller.ui()))
    assert runs[0][0] == runs[1][0]  # the same actions journaled
    assert runs[0][1] == runs[1][1]  # every display's RAM the same after every press
    assert runs[0][2] == runs[1][2]


def test_a_waiting_press_stops_it(tmp_path: Path) -> None:
    write_journal(tmp_path, header(players=4))
    ahead = Lookahead()
    with open_table(tmp_path, lookahead=ahead) as table:
        table.unit.run_for(1.0)
        st = table.state
        assert st is not None
        table.pi.press(st.turn, YES)  # the roll starts: a new state, nothing drawn ahead yet
        table.unit.step()
        table.pi.release(st.turn, YES)
        table.pi.press((st.turn + 1) % 4, NO)  # queued: handled before anything else
        start = ahead.pieces
        table.unit._idle(None)
        assert ahead.pieces == start
        table.unit.step()
        table.unit._idle(None)
        assert ahead.pieces > start  # with the queue empty it draws ahead


def test_a_failing_guess_is_logged_and_leaves_the_game_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(*args: object) -> None:
        raise RuntimeError("broken guess")

    monkeypatch.setattr(lookahead, "_after", broken)
    write_journal(tmp_path, header(players=4))
    with open_table(tmp_path, lookahead=Lookahead()) as table, caplog.at_level(logging.WARNING):
        n = table.unit.actions
        play_presses(table, 6)
        assert table.unit.actions > n
        assert all(table.glass_shows_view(seat) for seat in range(4))
    assert "drawing ahead failed" in caplog.text


@pytest.fixture
def swytch_drawn(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Every view Swytch's renderer draws from now on (patched before a unit takes it)."""
    game = get_game("swytch")
    drawn: list[Any] = []
    render = game.render

    def counted(view: Any) -> Any:
        drawn.append(view)
        return render(view)

    monkeypatch.setattr(type(game), "render", staticmethod(counted))
    return drawn


def test_a_game_without_page_bytes_of_its_own_draws_ahead_too(
    tmp_path: Path, swytch_drawn: list[Any]
) -> None:
    """Swytch's screens are drawn as images: drawn ahead and kept as panel bytes, the
    frames of the picker's next presses are drawn and planned while idle, not on the press."""
    game = get_game("swytch")
    with open_table(tmp_path, game="swytch", setup=SwytchSetup(("human", "human")),
                    lookahead=Lookahead()) as table:  # fmt: skip
        table.run_until(lambda: table.state is not None)
        during = []
        for button in (CHIP, CHIP, NO, YES, CHIP, NO):  # the picker: stacks, a pick, back
            table.unit.run_for(0.3)  # the player reads the screen: the loop idles
            swytch_drawn.clear()
            seat = table.state.to_move
            table.pi.press(seat, button)
            table.unit.step()
            during.append(len(swytch_drawn))
            table.pi.release(seat, button)
            table.unit.run_for(0.05)
        assert during == [0] * 6
        ui = table.unit.controller.ui()
        for seat, panel in enumerate(table.pi.displays):
            assert panel.ram_frame() == pack_frame(game.render(game.seat_view(ui, seat)))


def test_a_rematch_is_drawn_ahead(tmp_path: Path, swytch_drawn: list[Any]) -> None:
    """A rematch starts the next game at once (no roll-off): its first frames are drawn
    while the end screen shows, not on the press."""
    bots = SwytchSetup(("easy", "hard"))
    with open_table(tmp_path, rng=ScriptedRng(2), game="swytch", setup=bots,
                    lookahead=Lookahead()) as table:  # fmt: skip
        table.run_until(lambda: table.unit.finished, 3000)
        table.unit.displays._pages.forget()  # type: ignore[attr-defined]  # (the first game's)
        table.unit.run_for(0.3)  # the end screen read: the loop idles
        swytch_drawn.clear()
        frames = table.unit.frames
        table.pi.press(3, YES)  # nobody human: any seat answers the end screen
        table.unit.step()
        assert table.state is not None and not table.unit.finished, "the rematch began"
        assert swytch_drawn == [] and table.unit.frames > frames


def test_a_held_button_is_drawn_ahead_too(tmp_path: Path, swytch_drawn: list[Any]) -> None:
    """Holding CHIP asks Swytch for a hint ("HINT…" at once): that frame is drawn while
    the loop idles the long-press time, as a press's are, not when the hold is seen."""
    worker = FakeWorker()  # the hint stays asked for: the worker answers when told
    with open_table(tmp_path, game="swytch", setup=SwytchSetup(("human", "easy")),
                    lookahead=Lookahead(), worker=worker.factory) as table:  # fmt: skip
        table.unit.new_game(SwytchSetup(("human", "easy")), first=0)
        table.run_until(lambda: table.state is not None)
        table.unit.run_for(0.3)  # the player reads the screen: the loop idles
        seat, unit = table.state.to_move, table.unit
        table.pi.press(seat, CHIP)
        unit.step()
        unit.run_for(0.3)  # held: the loop idles (the long press comes at 0.8 s)
        while not worker.requests:  # the hold seen: no idle in between
            swytch_drawn.clear()
            unit.clock.set(unit.next_deadline())
            unit.step()
        assert unit.controller.picker.hint_requested and swytch_drawn == []
        table.pi.release(seat, CHIP)


def test_a_game_whose_holds_may_work_long_has_none_drawn_ahead(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Switch 16's held CHIP shows the odds, worked out in the loop: drawn ahead, a
    press arriving meanwhile would wait for them. Only a game that says its holds are
    drawn as cheaply as presses (Swytch) has them drawn ahead."""
    guessed: list[type] = []
    after = lookahead._after

    def seen(controller: Any, game: Any, event: Any, *args: Any) -> Any:
        guessed.append(type(event))
        return after(controller, game, event, *args)

    monkeypatch.setattr(lookahead, "_after", seen)
    write_journal(tmp_path, header(players=2))
    with open_table(tmp_path, lookahead=Lookahead()) as table:
        table.unit.run_for(2.0)
    assert guessed and not get_game().holds_drawn_ahead
    assert {kind.__name__ for kind in guessed} == {"ButtonDown"}
    assert get_game("swytch").holds_drawn_ahead


def test_a_frame_foreseen_wrong_is_put_right_by_the_press_and_counted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A press's own frame goes to its glass before the press is handled; had it been
    foreseen wrong, the refresh after the press sends the press's frame and counts it."""
    write_journal(tmp_path, header(players=4))
    with open_table(tmp_path, lookahead=Lookahead()) as table:
        table.unit.run_for(0.3)
        st = table.state
        assert st is not None
        foreseen = Lookahead.foreseen
        ui = table.unit.controller.ui()  # the screen before: not the press's frame
        wrong = (ui, table.unit.game.seat_view(ui, st.turn))

        def mistaken(self: Lookahead, controller: Any, event: Any) -> Any:
            return wrong if foreseen(self, controller, event) is not None else None

        monkeypatch.setattr(Lookahead, "foreseen", mistaken)
        table.pi.press(st.turn, YES)  # the dice tumble
        table.unit.step()
        assert table.unit.displays.shown_ahead == 1
        assert table.unit.displays.foreseen_wrong == 1
        assert all(table.glass_shows_view(seat) for seat in range(4))
        monkeypatch.setattr(Lookahead, "foreseen", foreseen)
        table.pi.release(st.turn, YES)
        table.unit.run_for(3.0)  # the roll lands; the player reads it
        st = table.state
        assert st is not None
        table.pi.press(st.turn, YES)
        table.unit.step()
        assert table.unit.displays.shown_ahead == 2
        assert table.unit.displays.foreseen_wrong == 1


def test_a_press_after_a_grace_period_is_drawn_ahead(tmp_path: Path) -> None:
    """A controller's timer may change what a press does though not the screen (Swytch's
    read grace after the last turn timed out): drawing ahead guesses anew after any
    timer, so the press after the grace is shown ahead (not the grace's "only reads")."""
    game = get_game("swytch")
    setup = SwytchSetup(("human", "easy"))
    with open_table(tmp_path, game="swytch", setup=setup, lookahead=Lookahead()) as table:
        unit = table.unit
        unit.new_game(setup, first=0)
        table.run_until(lambda: table.state is not None)
        st = table.state
        while st is not None and st.to_move == 0:  # the person moves, a press at a time
            (button, *_) = game.presses_for(unit.controller.ui(), 0, st.legal_actions()[0])
            table.pi.press(0, button)
            unit.step()
            table.pi.release(0, button)
            unit.run_for(0.05)
            st = table.state
        table.run_until(lambda: table.state is not None and table.state.to_move == 0)
        assert unit.controller.last_for == 0  # the bot's move shown to the person
        unit.run_for(LAST_TURN_PACE * unit.timing.bot_thinking + READ_GRACE + 0.2)
        shown = unit.displays.shown_ahead
        table.pi.press(0, CHIP)  # the cursor steps: the press acts
        unit.step()
        assert unit.displays.shown_ahead == shown + 1
        assert unit.displays.foreseen_wrong == 0
        ui = unit.controller.ui()
        for seat, panel in enumerate(table.pi.displays):
            assert panel.ram_frame() == pack_frame(game.render(game.seat_view(ui, seat)))


def test_a_seat_no_one_plays_is_guessed_only_when_a_press_would_wake_the_displays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A press on a seat no person plays (an onlooker's, a bot's) only reaches the
    shell: while nothing would change, it is not guessed (the likely presses' time);
    on dimmed displays it wakes them, and is on its glass as it arrives."""
    guessed: list[int] = []
    after = lookahead._after
    monkeypatch.setattr(
        lookahead, "_after", lambda ctl, game, event, *a: guessed.append(event.seat)
        or after(ctl, game, event, *a)
    )  # fmt: skip
    with open_table(tmp_path, game="swytch", setup=SwytchSetup(("human", "easy")),
                    lookahead=Lookahead()) as table:  # fmt: skip
        table.unit.new_game(SwytchSetup(("human", "easy")), first=0)
        table.run_until(lambda: table.state is not None)
        guessed.clear()
        table.unit.run_for(0.3)  # the player reads the screen: the loop idles
        assert guessed and set(guessed) <= {0}, "the human's presses only"
        unit = table.unit
        unit.run_for(unit.timing.dim_after + 0.1)
        assert unit.controller.shell.dimmed and {1, 2, 3} <= set(guessed)
        shown = unit.displays.shown_ahead
        table.press(2, CHIP)  # an onlooker's press wakes the displays
        assert not unit.controller.shell.dimmed
        assert unit.displays.shown_ahead == shown + 1 and unit.displays.foreseen_wrong == 0


def test_a_roll_off_of_the_system_s_dice_is_not_foreseen_and_nothing_fails(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The unit's own dice (``switch16 run`` without ``--seed``) are the system's
    entropy, which has no state to copy: the rematch's roll-off is not drawn ahead, and
    drawing ahead goes on without a warning (it stopped on NotImplementedError)."""
    lines = (FIXTURES / "complete_game.jsonl").read_text().splitlines()
    head = json.loads(lines[0]) | {"seats": ["human", "human"]}
    write_journal(tmp_path, head, *map(json.loads, lines[1:-1]))  # all but the last discard
    with open_table(tmp_path, lookahead=Lookahead(), rng=random.SystemRandom()) as table, \
            caplog.at_level(logging.WARNING):  # fmt: skip
        unit = table.unit
        unit.run_until(lambda: unit.finished, 60)
        unit.run_for(0.3)  # the loop idles: the end screen's presses are guessed
        assert unit.lookahead is not None and unit.lookahead.pieces > 0
        table.press(0, YES)  # the rematch: its roll-off shows, drawn as the press comes
        assert not unit.finished
    assert "drawing ahead failed" not in caplog.text
