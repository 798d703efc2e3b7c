"""Swytch on the unit: chosen in the set-up, who starts rolled off, played with the three
buttons through the real loop on the mocked Pi (the picker driven by
:func:`~firmware.games.swytch.controls.presses_for`) against the searching bot to the end,
the glass checked against the game's own renderer; a power cut and exact resume; a rematch
that the loser starts."""

from __future__ import annotations

import random
from pathlib import Path

from firmware.games.swytch.controls import presses_for
from firmware.games.swytch.game import GAME
from firmware.games.swytch.screens import BoardView, EndView, OnlookerView
from firmware.games.swytch.setup import LEVELS, SwytchSetup
from firmware.screens import MenuView, RollOffView
from firmware.transcript import replay_file
from firmware.unit.ui_state import Mode

from .conftest import CHIP, NO, YES, ScriptedRng, Table, open_table, same


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
