"""The game seam proven by use: a third game (test-only Nim, :mod:`.nim`) registered
with one line, chosen in the set-up menu, played through the real loop on the mocked Pi,
journaled, power-cut and resumed, and replayed; Switch 16 transcripts with and without
the header's ``game`` key stay valid."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from firmware.cli import main
from firmware.games.game import GameController
from firmware.games.registry import GAMES, UnknownGameError, game_names, get_game
from firmware.games.switch16.setup import GameSetup, SetupMenu
from firmware.kernel.players import CHANCE, HUMAN
from firmware.screens import MenuView
from firmware.settings import Timing
from firmware.transcript import replay_file, replay_text, write_transcript
from firmware.unit.controls import CONTROLS, END
from firmware.unit.controls import legend as unit_legend

from .conftest import CHIP, YES, header, open_table, same, write_journal
from .nim import NIM, NimSetup, Take, legend

FIXTURES = Path(__file__).parent.parent / "fixtures"


@pytest.fixture
def nim(monkeypatch: pytest.MonkeyPatch) -> None:
    """Nim registered beside Switch 16: the one registry line a new game needs."""
    monkeypatch.setitem(GAMES, "nim", NIM)


def test_switch16_is_registered_and_the_default():
    assert game_names() == ("switch16", "swytch")
    game = get_game()
    assert game.name == "switch16" and game.seats == range(2, 5)
    with pytest.raises(UnknownGameError, match="unknown game 'chess'"):
        get_game("chess")


def test_a_header_without_game_is_switch16_and_with_it_too():
    lines = (FIXTURES / "transcripts").glob("*.jsonl")
    path = next(p for p in sorted(lines) if replay_file(p).ok)
    text = path.read_text()
    first, rest = text.split("\n", 1)
    assert "game" not in json.loads(first)
    named = json.dumps({"game": "switch16", **json.loads(first)}) + "\n" + rest
    plain, explicit = replay_text(text), replay_text(named)
    assert plain.ok and explicit.ok
    assert plain.state == explicit.state and plain.actions == explicit.actions


def test_a_header_naming_an_unknown_game_says_so_on_line_1():
    result = replay_text(json.dumps({"game": "chess", **header()}) + "\n")
    assert not result.ok and result.error is not None and result.error.line == 1
    assert "'game'" in result.error.message and "unknown game 'chess'" in result.error.message


def test_the_game_question_shows_only_with_two_games(nim, monkeypatch):
    monkeypatch.delitem(GAMES, "nim")
    monkeypatch.delitem(GAMES, "swytch")
    assert SetupMenu(GameSetup(), 4).questions()[0].key == "players"
    monkeypatch.setitem(GAMES, "nim", NIM)
    q = SetupMenu(GameSetup(), 4).questions()[0]
    assert (q.key, q.options, q.value) == ("game", ("Switch 16", "Nim"), 0)


def test_nim_chosen_in_the_menu_played_journaled_resumed_and_replayed(nim, tmp_path):
    with open_table(tmp_path) as table:
        assert table.unit.game.name == "switch16"
        table.press(2, CHIP)  # any seat answers the set-up: the next game, Swytch
        table.press(1, CHIP)  # and the next, Nim
        assert table.unit.game.name == "nim"
        games = ("Switch 16", "Swytch", "Nim")
        assert same(table.pi.glass(0), NIM.render(MenuView("GAME", games, 2, legend("setup"))))
        table.unit.controller.defaults = NimSetup(seats=("human", "perfect"))
        table.unit.forced_first = 0  # the link's test mode: seat 0 wins the roll-off
        table.press(1, YES)  # play: the roll-off, then the game
        table.run_until(lambda: table.state is not None)
        assert table.journal()[0] == {"game": "nim", "players": 2, "first": 0, "pile": 7,
                                      "seats": ["human", "perfect"]}  # fmt: skip
        table.press(0, CHIP)  # take 2, then the bot takes 1
        table.press(0, YES)
        assert table.actions() == [{"action": "take", "count": 2},
                                   {"action": "take", "count": 1}]  # fmt: skip
        before = table.state
        assert (before.pile, before.turn) == (4, 0)
        assert same(table.pi.glass(0), NIM.render(MenuView("NIM", ("pile 4", "take 1"), 1,
                                                         legend("play"))))  # fmt: skip
    # power cut: a new unit on the same state directory resumes Nim exactly
    with open_table(tmp_path) as table:
        assert table.unit.game.name == "nim"
        assert table.state == before
        table.press(0, YES)  # take 1: the bot takes the last 3
        assert table.state.game_over and table.state.winner == 1
        assert table.unit.finished
        assert same(table.pi.glass(0), NIM.render(MenuView("NIM", ("seat 2 won",), 0,
                                                         unit_legend(CONTROLS[END]))))  # fmt: skip
    archived = sorted((tmp_path / "games").glob("*.jsonl"))
    assert len(archived) == 1, "the finished game is archived"
    replayed = replay_file(archived[0])
    assert replayed.ok and replayed.header.game == "nim"
    assert replayed.state == before.apply(Take(1)).apply(Take(3))


def test_a_nim_transcript_with_an_illegal_line_stops_there(nim):
    lines = [json.dumps({"game": "nim", "players": 2, "first": 0, "pile": 7,
                         "seats": ["human", "human"]}),
             json.dumps({"action": "take", "count": 3}),
             json.dumps({"action": "take", "count": 4})]  # fmt: skip
    result = replay_text("\n".join(lines) + "\n")
    assert result.error is not None and result.error.line == 3
    assert result.state is not None and result.state.pile == 4


def test_switch16_replay_reads_another_game_through_the_registry(tmp_path):
    """``switch16 replay`` on a transcript of a game this install does not have names it."""
    path = tmp_path / "nim.jsonl"
    path.write_text(json.dumps({"game": "nim", **header()}) + "\n")
    out = subprocess.run([sys.executable, "-m", "firmware", "replay", str(path)],
                         capture_output=True, text=True)  # fmt: skip
    assert out.returncode == 1
    assert "line 1: header: 'game': unknown game 'nim' (one of switch16, swytch)" in out.stdout


def test_a_resumed_switch16_journal_keeps_switch16(tmp_path):
    write_journal(tmp_path, header())
    with open_table(tmp_path) as table:
        assert table.unit.game.name == "switch16" and table.state is not None


def test_selfplay_plays_another_game_through_the_seam(nim, tmp_path, capsys):
    assert main(["selfplay", "--game", "nim", "--games", "10", "--seats", "perfect,perfect",
                 "--save", str(tmp_path), "--json"]) == 0  # fmt: skip
    out = json.loads(capsys.readouterr().out)
    assert out["games"] == 10 and sum(out["wins"]) == 10 and out["draws"] == 0
    saved = [replay_file(p) for p in sorted(tmp_path.glob("game-*.jsonl"))]
    assert len(saved) == 10 and all(game.ok for game in saved)
    starters = [game.header.first for game in saved]  # the roll-off's: each wins, played well
    assert out["wins"] == [starters.count(0), starters.count(1)]
    assert main(["selfplay", "--game", "nim", "--seats", "perfect,perfect,perfect"]) == 2
    assert "--seats needs 2 seats, got 3" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_:
        main(["selfplay", "--game", "chess"])
    assert exit_.value.code == 2
    assert ("argument --game: unknown game 'chess' (one of switch16, swytch, nim)"
            in capsys.readouterr().err)  # fmt: skip


def test_review_refuses_a_game_without_a_review(nim, tmp_path, capsys):
    path = tmp_path / "nim.jsonl"
    path.write_text(json.dumps(NIM.header(NimSetup(), 0).to_json()) + "\n")
    assert main(["review", str(path)]) == 1
    assert "a Nim game: this game has no review" in capsys.readouterr().err


def test_chip_on_the_game_question_goes_round_the_games(nim, tmp_path):
    with open_table(tmp_path) as table:
        table.press(0, CHIP)
        table.press(1, CHIP)
        assert table.unit.game.name == "nim"
        table.press(3, CHIP)  # Nim's set-up: CHIP again is the next game, Switch 16
        assert table.unit.game.name == "switch16"
        assert table.glass_shows_view(0) and table.glass_shows_view(3)
        table.press(0, YES)  # keep Switch 16: its own questions follow
        assert table.unit.controller.ui().setup.question.key == "players"


def test_a_switch16_journal_names_no_game(tmp_path):
    with open_table(tmp_path, setup=GameSetup.of(["human", "human"])) as table:
        table.run_until(lambda: table.state is not None)
        assert "game" not in table.journal()[0] and "switch16" in table.journal()[0]


@pytest.mark.parametrize("name", ["switch16", "nim"])
def test_a_game_reads_back_its_positions(nim, name):
    game = get_game(name)
    setup = game.setup_for([game.levels[-1]] * game.seats.start)
    state = game.header(setup, 1).initial_state()
    for _ in range(6):
        chance = state.current_player() == CHANCE
        state = state.apply(game.draw_chance(state, random.Random(3)) if chance
                            else state.legal_actions()[0])  # fmt: skip
        full = state.to_json(full=True) if name == "switch16" else state.to_json()
        assert game.state_from_json(full) == state


def test_replay_json_prints_another_games_position(nim, tmp_path, capsys):
    path = tmp_path / "nim.jsonl"
    header = NIM.header(NimSetup(), 0)
    write_transcript(path, header, [Take(3), Take(3)])
    assert main(["replay", "--json", str(path)]) == 0
    assert json.loads(capsys.readouterr().out) == {
        "file": str(path), "state": {"pile": 1, "turn": 0, "winner": None}}  # fmt: skip
    assert main(["replay", str(path)]) == 0
    assert "pile 1, seat 1 to take" in capsys.readouterr().out


def test_a_games_fast_replay_agrees_with_state_by_state(nim, monkeypatch):
    """The transcript layer replays through a game's own ``fast_replay`` (Switch 16's in
    place) and, for a game that gives none (Nim, Swytch), state by state; the two agree,
    a bad line included."""
    from firmware.games.game import Game

    assert NIM.fast_replay(NIM.header(NimSetup(), 0).initial_state()) is None
    for path in sorted((FIXTURES / "transcripts").glob("*.jsonl")):
        fast = replay_file(path)
        with monkeypatch.context() as m:
            m.setattr(type(get_game()), "fast_replay", Game.fast_replay)
            slow = replay_file(path)
        assert (fast.state, fast.actions, fast.error, fast.good_length) == (
            slow.state, slow.actions, slow.error, slow.good_length), path  # fmt: skip


@pytest.mark.parametrize("name", ["switch16", "swytch", "nim"])
def test_every_game_s_controller_says_who_is_human_by_the_kernel_s_rule(nim, name):
    """Who is human is the kernel's rule (:func:`firmware.kernel.players.is_human`), every
    controller's through the seam's base :class:`GameController`, none its own."""
    game = get_game(name)
    kinds = (HUMAN, game.levels[0])
    ctl = game.controller(3, Timing(), game.default_setup(3))
    assert GameController in type(ctl).__mro__ and "is_human" not in vars(type(ctl))
    ctl.begin(game.header(game.setup_with(kinds), 1).initial_state(), kinds, 0.0)
    assert [ctl.is_human(seat) for seat in range(3)] == [True, False, False]
