"""Slow work beside the loop (:mod:`firmware.unit.thinking`, :mod:`firmware.worker`): the
loop serves presses while a bot or a hint is worked out, a stale answer is dropped, a game
plays the same with the worker as inline, and a worker that dies or cannot start costs
nothing but a log line."""

from __future__ import annotations

import json
import logging
import os
import random
import signal
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from firmware.games.registry import get_game
from firmware.games.swytch.game import GAME
from firmware.games.swytch.screens import BoardView
from firmware.games.swytch.setup import SwytchSetup
from firmware.link.cable import PtyPair
from firmware.link.client import LinkClient
from firmware.link.server import LinkServer
from firmware.unit import Timing, Unit, lookahead
from firmware.unit.controls import THINKING, legend
from firmware.unit.lookahead import Lookahead, drawn_after
from firmware.unit.refresh import FramePages
from firmware.unit.thinking import Answered, SlowWork
from firmware.worker import Worker, WorkerGone
from hal.clock import MonotonicClock, VirtualClock
from hal.config import REFERENCE_CONFIG, load_config
from hal.events import EventQueue
from hal.frame import pack_frame
from hal.testing import mock_pi_hal

from .conftest import CHIP, NO, YES, ScriptedRng, Table, open_table, same, write_journal

FIXTURES = Path(__file__).parents[1] / "fixtures" / "transcripts"


class FakeWorker:
    """A worker the test answers for: each request waits until :meth:`release` works
    it out (in the test's thread) and tells the unit, as the reader thread would."""

    def __init__(self) -> None:
        self.on_answer: Callable[[int], None] | None = None
        self.requests: dict[int, tuple[Callable[..., Any], tuple[Any, ...]]] = {}
        self.done: dict[int, Any] = {}
        self.preload: tuple[str, ...] = ()
        self.asked = threading.Event()  #: set at every request

    def factory(self, on_answer: Callable[[int], None], preload: Sequence[str]) -> FakeWorker:
        self.on_answer, self.preload = on_answer, tuple(preload)
        return self

    def submit(self, fn: Callable[..., Any], args: tuple[Any, ...]) -> int:
        tag = len(self.requests) + len(self.done)
        self.requests[tag] = (fn, args)
        self.asked.set()
        return tag

    def release(self) -> None:
        """Answer the oldest request."""
        tag = min(self.requests)
        fn, args = self.requests.pop(tag)
        self.done[tag] = fn(*args)
        assert self.on_answer is not None
        self.on_answer(tag)

    def answer(self, tag: int) -> Any:
        if tag not in self.done:
            raise WorkerGone(f"no answer to {tag}")
        return self.done.pop(tag)

    def close(self) -> None:
        pass


def step_until(table: Table, predicate: Callable[[], bool], seconds: float = 30.0) -> None:
    """Virtual time from deadline to deadline, as ``run_until`` moves it, but without
    waiting for the worker: the loop goes on while a request is out."""
    unit, clock = table.unit, table.unit.clock
    end = clock.now() + seconds
    unit.step()
    while not predicate():
        deadline = unit.next_deadline()
        assert deadline is not None and deadline <= end, "timed out (virtual time)"
        clock.set(max(deadline, clock.now()))
        unit.step()


def tap(table: Table, seat: int, button: Any, hold: float = 0.05) -> None:
    """A press and release while the worker thinks (the clock moved by hand)."""
    table.pi.press(seat, button)
    clock = table.unit.clock
    clock.set(clock.now() + hold)
    table.unit.step()
    table.pi.release(seat, button)
    clock.set(clock.now() + 0.05)
    table.unit.step()


def board(table: Table, seat: int) -> BoardView:
    shown = GAME.seat_view(table.unit.controller.ui(), seat)
    assert isinstance(shown, BoardView)
    return shown


def bot_to_move(table: Table, fake: FakeWorker) -> None:
    """A new game South (human) against North (hard), North first: its think is out."""
    table.unit.new_game(SwytchSetup(("human", "hard")), first=1)
    step_until(table, lambda: bool(fake.requests))
    assert table.unit.thinking and table.state.to_move == 1


def test_the_loop_serves_presses_while_the_bot_thinks_and_its_move_stays_up(tmp_path: Path):
    fake = FakeWorker()
    with open_table(tmp_path, game="swytch", setup=SwytchSetup(("human", "hard")),
                    worker=fake.factory) as table:  # fmt: skip
        bot_to_move(table, fake)
        assert fake.preload == ("firmware.games.swytch.game", "firmware.unit.lookahead")
        assert board(table, 1).legend == legend(THINKING)  # the bot's own panel says so
        start, n = table.state, table.unit.actions
        clock = table.unit.clock
        clock.set(clock.now() + table.unit.timing.dim_after)  # a long think: the panels dim
        table.unit.step()
        assert table.unit.controller.shell.dimmed
        tap(table, 0, CHIP)  # served at once: the press wakes the panels
        assert not table.unit.controller.shell.dimmed
        assert all(same(table.pi.glass(s), GAME.render(board(table, s))) for s in (0, 1))
        tap(table, 0, YES)  # not South's turn: nothing
        assert table.unit.actions == n and table.state is start
        fake.release()
        table.unit.step()
        assert table.unit.actions == n + 1 and table.state.to_move == 0
        assert board(table, 0).last is not None, "the presses during the think took nothing off"
        assert table.unit.controller.last_for == 0
        table.press(0, CHIP)  # the first press after the move reads it; its cells stay marked
        assert table.unit.controller.last_for is None and board(table, 0).last is not None


def test_the_worker_draws_ahead_what_follows_its_move(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bot's move comes with the drawing ahead that follows it, done beside the loop:
    every seat's frame after the move, what each press then leads to and its frames.
    The loop looks the frames up and takes the guesses up: it draws and guesses none
    itself; the first press after the move is on its glass before the loop handles it,
    foreseen right; the glass shows the frames the loop would draw."""
    fake = FakeWorker()
    with open_table(tmp_path, game="swytch", setup=SwytchSetup(("human", "hard")),
                    worker=fake.factory, lookahead=Lookahead()) as table:  # fmt: skip
        bot_to_move(table, fake)
        fn, _ = fake.requests[min(fake.requests)]
        assert fn is drawn_after
        pages = table.unit.displays._pages
        assert isinstance(pages, FramePages)
        fake.release()  # (the fake works it out here, in the test's process)
        drawn: list[Any] = []
        render = pages._render
        pages._render = lambda view: drawn.append(view) or render(view)  # type: ignore[method-assign]
        guessed: list[Any] = []
        after = lookahead._after
        monkeypatch.setattr(lookahead, "_after", lambda *a: guessed.append(a) or after(*a))
        step_until(table, lambda: table.state.to_move == 0)
        table.unit.run_for(0.2)  # idle: the loop draws ahead
        assert drawn == [] and guessed == [] and pages.given_used >= 2
        shown = table.unit.displays.shown_ahead
        table.press(0, CHIP)  # the first press after the move: it reads the move
        assert table.unit.displays.shown_ahead == shown + 1
        assert table.unit.displays.foreseen_wrong == 0
        assert board(table, 0) in pages._given and board(table, 0) not in drawn
        assert all(same(table.pi.glass(s), GAME.render(board(table, s))) for s in (0, 1))


def test_the_worker_s_guesses_are_not_taken_up_for_a_state_it_was_not_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A press during the think changed the UI state the worker was given (the panels
    were dimmed and it woke them): the worker's frames are still looked up by view, but
    the loop guesses what follows the move itself."""
    fake = FakeWorker()
    with open_table(tmp_path, game="swytch", setup=SwytchSetup(("human", "hard")),
                    worker=fake.factory, lookahead=Lookahead()) as table:  # fmt: skip
        clock = table.unit.clock
        bot_to_move(table, fake)
        clock.set(clock.now() + table.unit.timing.dim_after)
        table.unit.step()
        assert table.unit.controller.shell.dimmed
        tap(table, 0, CHIP)  # wakes the panels: not the state the worker was given
        guessed: list[Any] = []
        after = lookahead._after
        monkeypatch.setattr(lookahead, "_after", lambda *a: guessed.append(a) or after(*a))
        fake.release()
        step_until(table, lambda: table.state.to_move == 0)
        table.unit.run_for(0.2)
        assert guessed, "the loop guessed for itself"
        table.press(0, CHIP)
        assert table.unit.displays.foreseen_wrong == 0


def test_the_link_is_served_in_real_time_while_the_bot_thinks(tmp_path: Path) -> None:
    fake = FakeWorker()
    timing = Timing(bot_thinking=0.05, rolloff_show=0.05)
    with (
        mock_pi_hal(load_config(REFERENCE_CONFIG), clock=MonotonicClock()) as pi,  # type: ignore[arg-type]
        PtyPair() as pair,
    ):
        unit = Unit(pi.hal, tmp_path, rng=random.Random(1), timing=timing, worker=fake.factory)
        server = LinkServer(unit, pair.ends[0], test_mode=True)
        server.open()
        loop = threading.Thread(target=unit.run, name="unit-loop", daemon=True)
        loop.start()
        try:
            with LinkClient(pair.ends[1]) as client:
                client.request("newgame", game="swytch", seats=["human", "hard"], first=1)
                assert fake.asked.wait(60), "North's think never went to the worker"
                state = client.request("state")  # served while North thinks
                assert state["mode"] == "play" and state["actions"] == 0
                client.request("press", seat=0, button="yes")  # South's press, served too
                assert client.request("state")["actions"] == 0 and unit.thinking
                fake.release()
                for _ in range(1000):  # the loop's progress, not the wall clock, ends this
                    if client.request("state")["actions"]:
                        break
                assert client.request("state")["actions"] == 1
        finally:
            unit.stop()
            loop.join(10)
            server.close()
            unit.close(close_hal=False)


def test_a_stale_answer_after_a_new_game_is_dropped(tmp_path: Path) -> None:
    fake = FakeWorker()
    with open_table(tmp_path, game="swytch", setup=SwytchSetup(("human", "hard")),
                    worker=fake.factory) as table:  # fmt: skip
        bot_to_move(table, fake)
        old = table.state
        table.unit.new_game(SwytchSetup(("human", "hard")), first=0)
        step_until(table, lambda: table.state is not None and table.state is not old)
        assert not table.unit.thinking, "the new game cancelled the think"
        n = table.unit.actions
        fake.release()  # the old game's move comes in
        table.unit.step()
        assert table.unit.actions == n and table.state.history == ()
        assert len(table.journal()) == 1, "nothing journaled for the new game"


def test_a_cancelled_think_stops_the_worker_and_a_fresh_one_answers(tmp_path: Path) -> None:
    made: list[Worker] = []

    def start(on_answer: Callable[[int], None], preload: Sequence[str]) -> Worker:
        made.append(Worker(on_answer, preload))
        return made[-1]

    with open_table(tmp_path, game="swytch", setup=SwytchSetup(("human", "hard")),
                    worker=start) as table:  # fmt: skip
        unit = table.unit
        unit.new_game(SwytchSetup(("human", "hard")), first=1)
        step_until(table, lambda: unit.thinking)
        busy = made[-1].pid
        assert busy is not None
        unit.new_game(SwytchSetup(("human", "hard")), first=1)  # the think is moot now
        with pytest.raises(ProcessLookupError):  # stopped (and reaped): not left to finish
            os.kill(busy, 0)
        table.run_until(lambda: table.state is not None and table.state.to_move == 0, 3000)
        assert len(made) == 2 and made[-1].pid != busy, "a fresh worker answered"
        unit.close(close_hal=False)


def hint_asked(table: Table, fake: FakeWorker) -> None:
    """South (human, against ``easy``) to move holds CHIP: the hint is asked for."""
    table.unit.new_game(SwytchSetup(("human", "easy")), first=0)
    step_until(table, lambda: table.state is not None)
    table.pi.press(0, CHIP)
    step_until(table, lambda: bool(fake.requests))  # held long enough
    table.pi.release(0, CHIP)
    table.unit.step()


def test_a_hint_says_so_at_once_and_shows_when_the_worker_has_it(tmp_path: Path) -> None:
    fake = FakeWorker()
    with open_table(tmp_path, game="swytch", setup=SwytchSetup(("human", "easy")),
                    worker=fake.factory) as table:  # fmt: skip
        hint_asked(table, fake)
        ctl = table.unit.controller
        assert board(table, 0).tag == "HINT…" and ctl.picker.hint_requested
        asked = ctl.picker
        tap(table, 0, CHIP)  # the picker still answers meanwhile
        assert ctl.picker.stack == asked.stack + 1 and ctl.picker.hint_requested
        fake.release()
        table.unit.step()
        picker = ctl.picker
        assert not picker.hint_requested and picker.stage.value != "stack"
        hint = picker.current_option.action or picker.current_target.move
        state, n = table.state, table.unit.actions
        table.press(0, YES)
        assert table.unit.actions == n + 1 and table.state == state.apply(hint)


def test_a_request_goes_to_the_worker_once_the_glass_shows_what_asked_it(tmp_path: Path):
    """Sending a request (pickling the position) waits until the displays have their
    frames: the hint's press shows "HINT…" on the glass before the worker is asked."""
    fake = FakeWorker()
    on_glass: list[bool] = []
    with open_table(tmp_path, game="swytch", setup=SwytchSetup(("human", "easy")),
                    worker=fake.factory) as table:  # fmt: skip
        submit = fake.submit

        def watched(fn: Callable[..., Any], args: tuple[Any, ...]) -> int:
            expected = pack_frame(GAME.render(board(table, 0)))
            on_glass.append(table.pi.displays[0].ram_frame() == expected)
            return submit(fn, args)

        fake.submit = watched  # type: ignore[method-assign]
        hint_asked(table, fake)
        assert board(table, 0).tag == "HINT…"
    assert on_glass == [True]


def test_a_request_the_worker_cannot_take_is_worked_out_and_answered_alike() -> None:
    """A worker gone before it had a request: the unit works it out itself, and the
    answer comes through the queue like the worker's (logged once)."""

    class Gone(FakeWorker):
        def submit(self, fn: Callable[..., Any], args: tuple[Any, ...]) -> int:
            raise WorkerGone("the pipe is closed")

    events = EventQueue()
    work = SlowWork(events, VirtualClock(), Gone().factory)
    answers: list[Any] = []
    assert work.think(GAME, "hard", divmod, (7, 2), lambda r: answers.append(r) or []) == []
    assert work.thinking and answers == []  # not sent yet: the loop sends after its frames
    work.send()
    event = events.get(0)
    assert isinstance(event, Answered) and work.answered(event) == [] and answers == [(3, 1)]
    assert not work.thinking


def test_a_hint_given_up_before_it_comes_is_dropped(tmp_path: Path) -> None:
    fake = FakeWorker()
    with open_table(tmp_path, game="swytch", setup=SwytchSetup(("human", "easy")),
                    worker=fake.factory) as table:  # fmt: skip
        hint_asked(table, fake)
        tap(table, 0, NO)  # NO steps back through the stacks: the hint is still wanted
        assert table.unit.controller.picker.hint_requested
        tap(table, 0, YES)  # the player chose a stack: the hint is not wanted any more
        picker = table.unit.controller.picker
        assert not picker.hint_requested and picker.stage.value != "stack"
        fake.release()
        table.unit.step()
        assert table.unit.controller.picker == picker


#: Moves of a bots' game compared (the bots' rngs and the dice drawn in between).
MOVES = 16


def test_the_end_of_game_review_comes_from_the_worker(tmp_path: Path) -> None:
    lines = (FIXTURES / "complete_game.jsonl").read_text().splitlines()
    head = json.loads(lines[0]) | {"seats": ["human", "easy"]}
    write_journal(tmp_path, head, *map(json.loads, lines[1:-1]))  # all but the last discard
    fake = FakeWorker()
    with open_table(tmp_path, worker=fake.factory) as table:
        step_until(table, lambda: table.unit.finished)
        ctl = table.unit.controller
        assert fake.requests
        assert fake.preload == ("firmware.games.switch16.game", "firmware.unit.lookahead")
        assert ctl.shell.reviews == {} and table.glass_shows_view(0)  # the end screen, at once
        before = table.pi.glass(0).tobytes()
        fake.release()
        table.unit.step()
        switch16 = get_game("switch16")
        expected = switch16.review(switch16.header_from_json(head), lines[1:], [0])
        assert ctl.shell.reviews == expected and expected[0]
        assert ctl.ui().shell.review(0) == expected[0] and table.glass_shows_view(0)
        assert table.pi.glass(0).tobytes() != before, "the review came onto the end screen"


def bots_game(directory: Path, seed: int, given: list[int] | None = None,
              **kwargs: Any) -> list[str]:  # fmt: skip
    """The first :data:`MOVES` of a Swytch game of two searching bots on virtual time
    (they draw from their rngs, the unit's draws the roll-off): its journal; ``given``
    gets how many frames the unit looked up of those the worker drew."""
    with open_table(directory, rng=ScriptedRng(seed), game="swytch",
                    setup=SwytchSetup(("hard", "hard")), **kwargs) as table:  # fmt: skip
        table.run_until(lambda: table.unit.actions >= MOVES, 3000)
        table.unit.close(close_hal=False)
        pages = table.unit.displays._pages
        if given is not None and isinstance(pages, FramePages):
            given.append(pages.given_used)
    return (directory / "current.jsonl").read_text().splitlines()


def test_a_game_plays_the_same_with_the_worker_as_inline(tmp_path: Path) -> None:
    inline = bots_game(tmp_path / "inline", 5)
    made: list[Worker] = []

    def start(on_answer: Callable[[int], None], preload: Sequence[str]) -> Worker:
        made.append(Worker(on_answer, preload))
        return made[-1]

    aside = bots_game(tmp_path / "worker", 5, worker=start)
    assert len(made) == 1, "one worker, started once and kept"
    assert aside == inline and len(inline) == 1 + MOVES
    given: list[int] = []  # drawing ahead: the worker draws the frames after each move
    drawn = bots_game(tmp_path / "drawn", 5, given, worker=start, lookahead=Lookahead())
    assert drawn == inline and given[0] >= MOVES


def test_a_move_whose_drawing_ahead_does_not_pickle_goes_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A game's controller that cannot be sent to the worker (here, what it is drawn
    from is a lambda): the move is asked alone, said once, and the game plays the same."""
    inline = bots_game(tmp_path / "inline", 5)
    made: list[Worker] = []

    def start(on_answer: Callable[[int], None], preload: Sequence[str]) -> Worker:
        made.append(Worker(on_answer, preload))
        return made[-1]

    monkeypatch.setattr(Unit, "_frames_from", lambda self: (lambda: None, None, 4, 0.0))
    with caplog.at_level(logging.WARNING, logger="firmware.unit.loop"):
        aside = bots_game(tmp_path / "worker", 5, worker=start, lookahead=Lookahead())
    assert aside == inline and len(made) == 1
    said = [r for r in caplog.records if "cannot be sent" in r.getMessage()]
    assert len(said) == 1


def test_a_worker_that_dies_mid_think_costs_the_game_nothing(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    inline = bots_game(tmp_path / "inline", 7)
    made: list[Worker] = []

    def start(on_answer: Callable[[int], None], preload: Sequence[str]) -> Worker:
        made.append(Worker(on_answer, preload))
        return made[-1]

    directory = tmp_path / "killed"
    with open_table(directory, rng=ScriptedRng(7), game="swytch",
                    setup=SwytchSetup(("hard", "hard")), worker=start) as table:  # fmt: skip
        unit: Unit = table.unit
        unit.run_until(lambda: unit.actions >= 3 and unit.thinking, 3000)
        pid = made[0].pid
        assert pid is not None
        os.kill(pid, signal.SIGKILL)  # as the kernel's OOM killer would
        with caplog.at_level(logging.WARNING, logger="firmware.unit.loop"):
            table.run_until(lambda: unit.actions >= MOVES, 3000)
        unit.close(close_hal=False)
    assert (directory / "current.jsonl").read_text().splitlines() == inline
    said = [r.getMessage() for r in caplog.records if r.getMessage().startswith("worker:")]
    assert len(said) == 1 and "works in its loop" in said[0]
    assert len(made) == 1, "not started again"


def test_a_worker_that_cannot_start_is_worked_around(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    tries: list[int] = []

    def cannot(on_answer: Callable[[int], None], preload: Sequence[str]) -> Worker:
        tries.append(1)
        raise OSError(11, "Resource temporarily unavailable")

    with caplog.at_level(logging.WARNING, logger="firmware.unit.loop"):
        game = bots_game(tmp_path / "no-worker", 5, worker=cannot)
    assert game == bots_game(tmp_path / "inline", 5)
    said = [r.getMessage() for r in caplog.records if r.getMessage().startswith("worker:")]
    assert len(said) == 1 and "cannot start" in said[0] and tries == [1]


class AnsweringWorker(FakeWorker):
    """A worker that answers each request as it comes (in the test's thread)."""

    def submit(self, fn: Callable[..., Any], args: tuple[Any, ...]) -> int:
        tag = super().submit(fn, args)
        self.release()
        return tag


def test_a_bot_s_move_that_ends_the_game_leaves_the_rematch_to_the_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The worker cannot foresee a rematch's roll-off (the unit's dice): after a bot's
    move that ends the game, the loop guesses the end screen's presses itself, and the
    rematch is on the glass as YES arrives (a game whose rematch rolls off who starts)."""
    monkeypatch.setattr(type(GAME), "rematch_starter", lambda self, state: None)
    fake = AnsweringWorker()
    setup = SwytchSetup(("medium", "medium"))
    with open_table(tmp_path, game="swytch", setup=setup, worker=fake.factory,
                    lookahead=Lookahead()) as table:  # fmt: skip
        unit = table.unit
        unit.run_until(lambda: unit.finished, 3600)
        assert unit.actions > 2 and fake.done == {}  # every move the worker's, drawn there
        unit.run_for(0.3)  # the loop idles: the rematch is drawn ahead
        shown = unit.displays.shown_ahead
        table.pi.press(0, YES)
        unit.step()
        assert unit.displays.shown_ahead == shown + 1 and unit.displays.foreseen_wrong == 0
