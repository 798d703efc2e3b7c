"""Swytch's Game and its UI controller, without the loop: the header (``game``, ``ranks``),
action lines, transcripts through ``switch16 replay`` and ``selfplay``, and the controller's
set-up, roll-off, picker, last turn, bot pacing and end screen."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from firmware.cli import main
from firmware.games.registry import get_game
from firmware.games.swytch.controller import READ_GRACE, SwytchController, Timer
from firmware.games.swytch.game import GAME, SwytchHeader
from firmware.games.swytch.notation import parse_action
from firmware.games.swytch.screens import BoardView, OnlookerView
from firmware.games.swytch.setup import SwytchSetup
from firmware.games.swytch.sounds import SwytchCue
from firmware.games.swytch.state import State
from firmware.games.swytch.ui_state import SwytchUi
from firmware.screens import NotPlayingView, RollOffView
from firmware.settings import Timing
from firmware.transcript import replay_text, write_transcript
from firmware.unit.commands import AskBot, AskHint, ChooseGame, Commit, NewGame, RollOff, StartGame
from firmware.unit.end_screen import respond
from firmware.unit.sounds import TUNES as UNIT_TUNES
from firmware.unit.sounds import Cue, tune_for
from firmware.unit.ui_state import Mode
from hal.events import Button, ButtonDown, LongPress, ShakeStopped

YES, NO, CHIP = Button.YES, Button.NO, Button.CHIP
T = Timing(bot_thinking=0.5)


def down(seat: int, button: Button, t: float = 0.0) -> ButtonDown:
    return ButtonDown(t, seat, button)


def test_swytch_is_registered_with_its_levels_and_two_seats():
    game = get_game("swytch")
    assert game is GAME and game.title == "Swytch" and game.seats == range(2, 3)
    assert game.levels == ("easy", "medium", "hard")
    assert type(game.make_bot("hard", 1, random.Random(1), ())).__name__ == "HardBot"
    with pytest.raises(ValueError, match="unknown Swytch level 'master'"):
        game.make_bot("master", 1, random.Random(1), ())


def test_the_header_names_the_game_and_its_ranks_and_reads_back():
    header = GAME.header(SwytchSetup(("human", "hard"), ranks=10), 1)
    line = header.to_json()
    assert line == {"game": "swytch", "players": 2, "first": 1, "ranks": 10,
                    "seats": ["human", "hard"]}  # fmt: skip
    assert GAME.header_from_json(line) == header
    assert header.initial_state() == State.new(10, 1)
    assert GAME.header_from_json({"game": "swytch", "first": 0}) == SwytchHeader(0)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"ranks": 12}, "header: ranks must be 8..11, got 12"),
        ({"first": 2}, "header: 'first' must be 0 (South) or 1 (North), got 2"),
        ({"players": 3}, "header: 'players': Swytch is played by 2, got 3"),
        ({"seats": ["human"]}, "header: 'seats' must list 2 names"),
        ({"rules": "x"}, "header: 'rules' is not a Swytch key"),
    ],
)
def test_a_bad_header_names_its_key(change, message):
    line = {"game": "swytch", "players": 2, "first": 0, "ranks": 9} | change
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        GAME.header_from_json(line)
    # a replay says what is wrong with line 1 (it said "not valid JSON (…)", issue 33)
    result = replay_text(json.dumps(line) + "\n")
    assert str(result.error).startswith(f"line 1: {message}") and "JSON" not in str(result.error)


def test_a_header_may_name_a_bot_level_this_unit_lacks():
    """Resumed with that seat human (the unit decides, for every game: issue 35)."""
    line = {"game": "swytch", "players": 2, "first": 0, "seats": ["human", "master"]}
    assert GAME.header_from_json(line).seats == ("human", "master")


def test_action_lines_are_the_notation():
    for text in ("prepare a1", "swytch h2", "c2 2 c3-c4"):
        action = parse_action(text)
        assert GAME.action_to_json(action) == {"action": text}
        assert GAME.action_from_json({"action": text}) == action
    with pytest.raises(ValueError, match="'two' in 'c2 two c3'"):
        GAME.action_from_json({"action": "c2 two c3"})


def test_a_swytch_transcript_replays_and_stops_at_an_illegal_line(tmp_path: Path, capsys):
    header = GAME.header(SwytchSetup(), 0)
    state, actions = header.initial_state(), []
    rng = random.Random(3)
    for _ in range(6):
        actions.append(rng.choice(state.legal_actions()))
        state = state.apply(actions[-1])
    path = tmp_path / "swytch.jsonl"
    write_transcript(path, header, actions)
    assert main(["replay", "--json", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)["state"]
    assert GAME.state_from_json(out) == State.from_json(state.to_json())
    assert main(["replay", str(path)]) == 0
    out_text = capsys.readouterr().out
    assert "2 players, 9 ranks, South started" in out_text
    assert "South to move" in out_text and "position " in out_text
    text = path.read_text() + json.dumps({"action": "h9 1 h8"}) + "\n"  # North moves out of turn
    result = replay_text(text)
    assert result.error is not None and result.error.line == 8 and result.state == state


def test_selfplay_plays_swytch(tmp_path: Path, capsys):
    assert main(["selfplay", "--game", "swytch", "--games", "2", "--seats", "easy,medium",
                 "--json", "--save", str(tmp_path)]) == 0  # fmt: skip
    out = json.loads(capsys.readouterr().out)
    assert out["games"] == 2 and sum(out["wins"]) + out["draws"] == 2
    assert len(list(tmp_path.glob("*.jsonl"))) == 2


# ------------------------------------------------------------------ the controller
def started(kinds=("human", "hard"), first: int = 0, seats: int = 4) -> SwytchController:
    ctl = SwytchController(seats, T, SwytchSetup())
    ctl.begin(State.new(9, first), kinds, 0.0)
    return ctl


def test_the_set_up_asks_the_game_the_players_and_the_ranks():
    ctl = SwytchController(2, T, SwytchSetup())
    assert ctl.handle(down(1, CHIP), 0) == [ChooseGame("switch16")]
    assert ctl.handle(down(1, YES), 0) == []  # keep Swytch
    ctl.handle(down(0, YES), 0)  # South: human
    ctl.handle(down(0, CHIP), 0)  # North: easy
    ctl.handle(down(0, CHIP), 0)  # North: medium
    ctl.handle(down(0, CHIP), 0)  # North: hard
    ctl.handle(down(0, YES), 0)
    assert ctl.ui().question.title == "BOARD"
    ctl.handle(down(0, NO), 0)
    ctl.handle(down(0, YES), 0)
    for _ in range(3):
        ctl.handle(down(0, CHIP), 0)  # 8 .. 11, then 8 again
    assert ctl.handle(down(0, YES), 0) == [RollOff(SwytchSetup(("human", "hard"), ranks=8))]


def test_the_roll_off_shows_each_round_then_starts():
    setup = SwytchSetup(("human", "easy"))
    ctl = SwytchController(4, T, setup)
    ctl.show_rolloff([{0: 3, 1: 3}, {0: 2, 1: 5}], 1, setup, 0.0)
    assert ctl.mode is Mode.ROLLOFF
    views = [GAME.seat_view(ctl.ui(), s) for s in range(4)]
    assert isinstance(views[0], RollOffView) and views[0].starter is None
    assert isinstance(views[2], NotPlayingView)
    assert ctl.handle(down(0, YES), 0.1) == []  # presses wait for it
    assert ctl.tick(T.rolloff_show / 2) == []
    assert GAME.seat_view(ctl.ui(), 1).starter == 1  # type: ignore[union-attr]
    assert ctl.tick(T.rolloff_show / 2 + T.rolloff_show - 0.01) == []
    assert ctl.tick(T.rolloff_show * 1.5) == [StartGame(setup, 1)]


def test_a_shake_rolls_the_roll_offs_next_round_at_once():
    setup = SwytchSetup(("human", "human"))
    ctl = SwytchController(2, T, setup)
    ctl.show_rolloff([{0: 4, 1: 4}, {0: 6, 1: 1}], 0, setup, 0.0)
    assert ctl.next_deadline() == T.rolloff_show / 2
    assert ctl.handle(ShakeStopped(0.2, duration=0.8, edges=12, energy=12.0), 0.2) == []
    assert ctl.next_deadline() == 0.2  # not the timer's: the shake rolled
    assert ctl.tick(0.2) == []
    assert GAME.seat_view(ctl.ui(), 0).starter == 0  # type: ignore[union-attr]
    ctl.handle(ShakeStopped(0.5, duration=0.8, edges=12, energy=12.0), 0.5)
    assert ctl.tick(0.5) == [StartGame(setup, 0)]


def test_only_the_human_on_turn_picks_and_a_bot_waits_its_thinking_time():
    ctl = started(kinds=("hard", "human"))
    assert ctl.picker is None and ctl.timers[Timer.BOT] == T.bot_thinking
    assert ctl.handle(down(1, YES), 0.1) == []  # not North's turn
    assert ctl.tick(0.4) == [] and ctl.tick(0.5) == [AskBot(0)]
    state = State.new()
    move = parse_action("a2 2 a3-a4")
    ctl.committed(move, state.apply(move), 1.0)
    assert ctl.picker is not None and ctl.last_for == 1 and ctl.last is not None
    assert Timer.BOT not in ctl.timers


def test_the_opponents_last_turn_is_read_then_stays_marked_until_the_seat_moves():
    ctl = started(kinds=("human", "human"))
    state = State.new()
    move = parse_action("a2 2 a3-a4")
    ctl.committed(move, state.apply(move), 1.0)
    shown = GAME.seat_view(ctl.ui(), 1)
    assert isinstance(shown, BoardView) and shown.last is not None and shown.cursor is None
    assert GAME.seat_view(ctl.ui(), 0).last is None  # type: ignore[union-attr]
    onlooker = GAME.seat_view(ctl.ui(), 3)
    assert isinstance(onlooker, OnlookerView) and onlooker.last == shown.last
    picker = ctl.picker
    assert ctl.handle(down(1, CHIP), 1.5) == [] and ctl.picker == picker  # only "read"
    assert ctl.last_for is None and Timer.LAST not in ctl.timers
    marked = GAME.seat_view(ctl.ui(), 1)  # the cursor back, the move still marked
    assert isinstance(marked, BoardView) and marked.last == shown.last and not marked.reading
    assert marked.cursor is not None
    ctl.handle(down(1, CHIP), 1.6)
    assert GAME.seat_view(ctl.ui(), 1).last == shown.last  # type: ignore[union-attr]
    ctl.committed(parse_action("a8 1 a7"), ctl.state.apply(parse_action("a8 1 a7")), 2.0)
    assert ctl.last_for == 0 and GAME.seat_view(ctl.ui(), 1).last is None  # type: ignore[union-attr]
    assert ctl.tick(2.0 + max(1.0, 3 * T.bot_thinking)) == [] and ctl.last_for is None
    assert GAME.seat_view(ctl.ui(), 0).last == ctl.last  # type: ignore[union-attr]


def test_a_press_just_after_the_time_took_the_last_turn_off_still_only_reads_it():
    """A player who read the last turn and pressed as its time ran out meant "read"; a
    press once the cursor has been up longer than a reaction steps the cursor."""
    ctl = started(kinds=("human", "human"))
    move = parse_action("a2 2 a3-a4")
    ctl.committed(move, State.new().apply(move), 1.0)
    up = ctl.timers[Timer.LAST]
    assert ctl.tick(up) == [] and ctl.last_for is None  # the cursor is shown
    picker = ctl.picker
    assert ctl.handle(down(1, CHIP), up + READ_GRACE - 0.01) == [] and ctl.picker == picker
    assert ctl.handle(down(1, CHIP), up + READ_GRACE) == [] and ctl.picker != picker
    ctl.committed(parse_action("a8 1 a7"), ctl.state.apply(parse_action("a8 1 a7")), 2.0)
    up = ctl.timers[Timer.LAST]
    ctl.tick(up)
    picker = ctl.picker
    assert ctl.handle(down(0, CHIP), up + READ_GRACE) == [] and ctl.picker != picker


def test_held_chip_asks_for_a_hint_and_the_answer_is_shown():
    ctl = started(kinds=("human", "hard"))
    assert ctl.handle(LongPress(0.0, 1, CHIP, 0.8), 0.0) == []  # not North's turn
    assert ctl.handle(LongPress(0.0, 0, CHIP, 0.8), 0.0) == [AskHint(0)]
    assert GAME.seat_view(ctl.ui(), 0).tag == "HINT…"  # type: ignore[union-attr]
    hint = parse_action("b2 1 b3")
    ctl.hinted(0, hint, 0.1)
    assert ctl.picker.current_target.move == hint
    assert ctl.handle(down(0, YES), 0.2) == [Commit(hint)]


def test_the_end_screen_rematch_lets_the_loser_start_and_no_is_a_new_game():
    ctl = started(kinds=("human", "easy"), first=0)
    ctl.shell.played = played = SwytchSetup(("human", "easy"))  # (as the unit keeps it)
    won = State.from_json({"position": "8/8/8/8/8/8/8/8/3,Suu,4 N"})
    ctl.committed(parse_action("d1 1 d2"), won, 1.0)
    assert ctl.finished and ctl.last is None

    def press(seat: int, button: Button, t: float) -> list:
        return respond(ctl, GAME, down(seat, button, t), t)  # as the unit hands it

    assert press(1, YES, 1.1) == []  # the bot's seat does not answer
    assert press(0, YES, 1.1) == [StartGame(played, 1)]
    assert press(0, NO, 1.2) == [NewGame()]
    drawn = State.from_json({"position": "8/8/8/8/8/8/8/4,Nu,3/3,Suu,4 N", "quiet": 100})
    ctl.committed(parse_action("d1 1 d2"), drawn, 2.0)
    assert press(0, YES, 2.1) == [RollOff(played)]


def test_the_ui_state_goes_over_the_link_and_back():
    """``ui().to_json()`` is what the link's ``ui`` op sends; a harness rebuilds the same
    UI state (and so the same views) over the position it replayed."""
    setup = SwytchSetup(("human", "human"), ranks=10)
    ctl = SwytchController(4, T, setup)
    moments = [ctl.ui()]
    ctl.show_rolloff([{0: 4, 1: 2}], 0, setup, 0.0)
    moments.append(ctl.ui())
    ctl.begin(State.new(10, 0), setup.seats, 1.0)
    ctl.handle(down(0, YES), 1.1)
    ctl.handle(down(0, CHIP), 1.2)
    moments.append(ctl.ui())
    ctl.handle(down(0, YES), 1.3)
    moments.append(ctl.ui())
    [commit] = ctl.handle(down(0, YES), 1.4)
    ctl.committed(commit.action, ctl.state.apply(commit.action), 1.5)
    moments.append(ctl.ui())  # North reads South's turn
    ctl.handle(down(1, CHIP), 1.51)
    assert ctl.handle(LongPress(1.52, 1, CHIP, 0.8), 1.52) == [AskHint(1)]
    ctl.hinted(1, ctl.state.legal_actions()[0], 1.53)
    moments.append(ctl.ui())  # the hint shown, labelled
    ctl.shell.show_message(("SAVED GAME", "cannot be read"), 1.6)
    moments.append(ctl.ui())
    for ui in moments:
        back = SwytchUi.from_json(json.loads(json.dumps(ui.to_json())), ui.state)
        assert back == ui
        assert [GAME.seat_view(back, s) for s in range(4)] == [
            GAME.seat_view(ui, s) for s in range(4)]  # fmt: skip


@pytest.mark.parametrize(("position", "text", "cue"), [
    ("8/8/8/8/8/8/8/3,Nu,4/3,Suu,4 S", "d1 2 d2", Cue.GAME_WIN),  # the unit's fanfare
    ("8/8/8/8/8/8/3,Nd,4/3,Nd,4/3,Suu,4 S", "d1 2 d2", SwytchCue.ATTACK_WON),
    ("8/8/8/8/8/8/3,Nd,4/3,Nddd,4/3,Suu,4 S", "d1 2 d2", SwytchCue.ATTACK_LOST),
    ("8/8/8/8/8/8/3,Nd,4/8/3,Suu,4 S", "d1 1 d2", SwytchCue.MOVE),
    ("8/8/8/8/8/8/3,Nd,4/8/3,Suu,4 S", "swytch d1", SwytchCue.SWYTCH),
    ("8/8/8/8/8/8/3,Nd,4/8/3,Suu,4 S", "prepare d1", SwytchCue.PREPARE),
])  # fmt: skip
def test_the_buzzer_cues_swytchs_own_events(position: str, text: str, cue: str) -> None:
    """Each turn plays Swytch's own tune (an attack no longer borrows Switch 16's
    block), the win the unit's fanfare."""
    state = State.from_json({"position": position})
    action = parse_action(text)
    assert GAME.cue(state, action, state.apply(action)) == cue
    assert tune_for(cue, GAME.tunes) == (GAME.tunes[cue] if cue in SwytchCue else UNIT_TUNES[cue])


def test_the_hundredth_quiet_turn_cues_a_draw() -> None:
    state = State.from_json({"position": "8/8/8/8/8/8/3,Nd,4/8/3,Suu,4 S", "quiet": 99})
    action = parse_action("d1 1 d2")
    assert state.apply(action).draw is not None
    assert GAME.cue(state, action, state.apply(action)) == SwytchCue.DRAW
