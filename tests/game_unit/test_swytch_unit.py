"""Swytch on the unit: chosen in the set-up, who starts rolled off, played with the three
buttons through the real loop on the mocked Pi (the picker driven by
:func:`~firmware.games.swytch.controls.presses_for`) against the searching bot to the end,
the glass checked against the game's own renderer; a power cut and exact resume; a rematch
that the loser starts."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

from firmware.games.swytch.controls import presses_for
from firmware.games.swytch.game import GAME, SwytchHeader
from firmware.games.swytch.screens import BoardView, EndView, OnlookerView
from firmware.games.swytch.setup import LEVELS, SwytchSetup
from firmware.screens import MenuView, RollOffView, SaverView
from firmware.transcript import replay_file
from firmware.unit import Timing
from firmware.unit.ui_state import Mode

from .conftest import CHIP, NO, YES, ScriptedRng, Table, open_table, same, write_journal
from .test_thinking import FakeWorker, tap


def view(table: Table, seat: int):
    return GAME.seat_view(table.unit.controller.ui(), seat)


def glass_ok(table: Table, seat: int) -> bool:
    """The panel shows exactly the game's render of the seat's view now."""
    return same(table.pi.glass(seat), GAME.render(view(table, seat)))


def play_turn(table: Table, seat: int, policy: random.Random) -> None:
    """``seat`` (a human) reads the last turn off its board, then picks a random legal
    action with the buttons; the unit commits it."""
    ctl = table.unit.controller
    if ctl.last_for == seat:
        assert isinstance(view(table, seat), BoardView) and view(table, seat).last is not None
        picker = ctl.picker
        table.press(seat, CHIP)  # the press that says "read" does nothing else
        assert ctl.last_for is None and ctl.picker == picker
    state = table.state
    action = policy.choice(state.legal_actions())
    n = table.unit.actions
    for button in presses_for(ctl.picker, action):
        table.press(seat, button)
    assert table.unit.actions == n + 1 and table.state == state.apply(action)


def choose_swytch(table: Table, north: str) -> None:
    """The set-up through the buttons: Swytch, South human, North ``north``, 9 ranks."""
    table.press(1, CHIP)  # the game question: the next game
    assert table.unit.game.name == "swytch"
    shown = view(table, 0)
    assert isinstance(shown, MenuView) and shown.options[shown.highlight] == "Swytch"
    assert glass_ok(table, 0) and glass_ok(table, 3)
    table.press(0, YES)  # Swytch
    table.press(0, YES)  # South: human
    assert view(table, 2).title == "NORTH PLAYER"
    for _ in range(LEVELS.index(north) + 1):
        table.press(2, CHIP)
    table.press(2, YES)
    assert view(table, 1).title == "BOARD" and glass_ok(table, 1)
    table.press(1, YES)  # 9 ranks: the roll-off


def test_a_person_plays_swytch_against_the_searching_bot_to_the_end(tmp_path: Path) -> None:
    with open_table(tmp_path, rng=ScriptedRng(4)) as table:
        choose_swytch(table, "hard")
        ctl = table.unit.controller
        assert ctl.mode is Mode.ROLLOFF and isinstance(view(table, 0), RollOffView)
        assert all(glass_ok(table, s) for s in range(4))
        first = ctl.rolloff.first
        table.run_until(lambda: table.state is not None)
        assert table.journal()[0] == {"game": "swytch", "players": 2, "first": first,
                                      "ranks": 9, "seats": ["human", "hard"]}  # fmt: skip
        policy = random.Random(5)
        kinds = {BoardView: 0, OnlookerView: 0}
        for _ in range(400):
            if table.unit.finished:
                break
            if table.state.to_move == 0:
                play_turn(table, 0, policy)
            else:
                table.after_action()
            for seat in range(4):
                assert glass_ok(table, seat), seat
                kinds[type(view(table, seat))] = kinds.get(type(view(table, seat)), 0) + 1
        assert table.unit.finished, "the game ended"
        assert kinds[BoardView] and kinds[OnlookerView], "players' boards and onlookers' boards"
        final = table.state
        assert final.winner == 1, "the searching bot beats random presses"
        assert all(isinstance(view(table, s), EndView) and glass_ok(table, s) for s in range(4))
    archived = sorted((tmp_path / "games").glob("*.jsonl"))
    assert len(archived) == 1
    replayed = replay_file(archived[0])
    assert replayed.ok and replayed.header.game == "swytch" and replayed.state == final


def test_a_rematch_is_started_by_the_loser_and_no_goes_back_to_the_set_up(tmp_path: Path):
    bots = SwytchSetup(("easy", "hard"))
    with open_table(tmp_path, rng=ScriptedRng(2), game="swytch", setup=bots) as table:
        table.run_until(lambda: table.unit.finished, 3000)
        won = table.state.winner
        assert won is not None
        table.press(3, YES)  # nobody human: any seat answers the end screen
        table.run_until(lambda: table.state is not None and not table.unit.finished)
        assert table.journal()[0]["first"] == 1 - won, "the loser starts, no roll-off"
        assert table.journal()[0]["seats"] == ["easy", "hard"]
        table.run_until(lambda: table.unit.finished, 3000)
        table.press(0, NO)  # a new game: the set-up (the preset rolls off again)
        assert table.unit.controller.mode is not Mode.PLAY
    assert len(list((tmp_path / "games").glob("*.jsonl"))) == 2


def test_a_power_cut_mid_swytch_resumes_exactly(tmp_path: Path) -> None:
    people = SwytchSetup(("human", "human"), ranks=8)
    policy = random.Random(9)
    with open_table(tmp_path, game="swytch", setup=people) as table:
        table.run_until(lambda: table.state is not None)
        for _ in range(12):
            play_turn(table, table.state.to_move, policy)
        before = table.state
        lines = table.journal()
        assert lines[0]["game"] == "swytch" and lines[0]["ranks"] == 8
        assert all(set(line) == {"action"} for line in lines[1:]) and len(lines) == 13
    with open_table(tmp_path) as table:  # the plug pulled: a unit that starts as Switch 16
        assert table.unit.game.name == "swytch"
        assert table.state == before and table.state.history == before.history
        assert all(glass_ok(table, s) for s in range(4))
        play_turn(table, table.state.to_move, policy)
        assert len(table.journal()) == 14


def test_hold_chip_shows_the_searching_bots_hint_and_yes_takes_it(tmp_path: Path) -> None:
    with open_table(tmp_path, game="swytch", setup=SwytchSetup(("human", "easy"))) as table:
        table.unit.new_game(SwytchSetup(("human", "easy")), first=0)
        table.run_until(lambda: table.state is not None and table.state.to_move == 0)
        ctl = table.unit.controller
        table.long_press(0, CHIP)
        picker = ctl.picker
        assert not picker.hint_requested and picker.stage.value != "stack"
        shown = picker.current_option.action or picker.current_target.move
        assert glass_ok(table, 0)
        state, n = table.state, table.unit.actions
        table.press(0, YES)
        assert table.unit.actions == n + 1 and table.state == state.apply(shown)


def test_the_screensaver_wanders_on_the_glass_and_its_waking_press_does_nothing_else(
    tmp_path: Path,
) -> None:
    timing = Timing(bot_thinking=0.3, dim_after=10, screensaver_after=20)
    people = SwytchSetup(("human", "human"), ranks=8)
    with open_table(tmp_path, game="swytch", setup=people, timing=timing) as table:
        table.run_until(lambda: table.state is not None)
        ctl = table.unit.controller
        table.run_until(lambda: ctl.shell.saver_counter == 3)
        for seat in range(4):
            shown = view(table, seat)
            assert isinstance(shown, SaverView) and glass_ok(table, seat), seat
        assert view(table, 0).text == str(table.state.counters(0))
        assert table.pi.glass(0).tobytes() != table.pi.glass(1).tobytes()  # each its own place
        picker, n = ctl.picker, table.unit.actions
        table.press(table.state.to_move, YES)  # wakes the panels, nothing else
        assert not ctl.shell.saver and ctl.picker == picker and table.unit.actions == n
        assert all(isinstance(view(table, s), BoardView | OnlookerView) for s in range(4))
        assert all(glass_ok(table, s) for s in range(4))


def finished_game(seed: int) -> tuple[SwytchHeader, list]:
    """A whole game of two easy bots on 8 ranks, South first."""
    header = SwytchHeader(0, 8, ("easy", "easy"))
    state = header.initial_state()
    bots = [GAME.make_bot("easy", seat, random.Random(seed * 2 + seat), ()) for seat in (0, 1)]
    actions = []
    while not state.game_over:
        actions.append(bots[state.to_move].decide(state))
        state = state.apply(actions[-1])
    return header, actions


def test_the_end_screen_shows_the_short_review_worked_out_beside_the_loop(
    tmp_path: Path,
) -> None:
    header, actions = finished_game(2)
    human = (len(actions) - 1) % 2  # the side that makes the last move: a person
    kinds = ["easy", "easy"]
    kinds[human] = "human"
    head = replace(header, seats=tuple(kinds)).to_json()
    lines = [GAME.action_to_json(a) for a in actions]
    write_journal(tmp_path, head, *lines[:-1])
    fake = FakeWorker()
    with open_table(tmp_path, worker=fake.factory) as table:
        ctl = table.unit.controller
        assert table.state.to_move == human and ctl.picker is not None
        for button in presses_for(ctl.picker, actions[-1]):
            tap(table, human, button)
        assert table.unit.finished and table.state.winner is not None
        assert len(fake.requests) == 1 and ctl.shell.reviews == {}
        before = table.pi.glass(human).tobytes()
        assert glass_ok(table, human)  # the end screen at once, its review to come
        fake.release()
        table.unit.step()
        expected = GAME.review(GAME.header_from_json(head), [json.dumps(x) for x in lines],
                               [human])  # fmt: skip
        assert expected[human].startswith("costliest") or expected[human] == "no costly choice"
        shown = view(table, human)
        assert isinstance(shown, EndView) and shown.review == expected[human]
        assert glass_ok(table, human) and table.pi.glass(human).tobytes() != before
        other = view(table, 1 - human)
        assert isinstance(other, EndView) and other.review == ""  # a bot's play: no review
