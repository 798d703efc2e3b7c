"""Sound cues: the mapping from transitions to cues, the tunes, and the buzzer pin of a
unit on the mocked Pi playing them."""

from __future__ import annotations

import logging
import random
from pathlib import Path

import pytest
from gpiozero.tones import Tone

from firmware.games.switch16.banners import banner_for
from firmware.games.switch16.bots import make_bot
from firmware.games.switch16.chance import roll_dice
from firmware.games.switch16.engine import (
    ACCEPT,
    DISCARD,
    LEAVE,
    PASS,
    REFUSE,
    RISK,
    Face,
    Green,
    NewRound,
    Phase,
    Place,
    Red,
    Roll,
    State,
)
from firmware.games.switch16.setup import GameSetup
from firmware.games.switch16.sounds import TUNES as OWN_TUNES
from firmware.games.switch16.sounds import Switch16Cue, cue_for
from firmware.unit.sounds import TUNES as UNIT_TUNES
from firmware.unit.sounds import Cue
from hal.config import REFERENCE_CONFIG, UnitConfig, loads_config
from hal.interfaces import Note, Tune
from hal.testing import mock_pi_hal
from tests.engine.helpers import BLANK, BLOCK, GREEN, RED, dice_for, discard_all, position

from .conftest import YES, ScriptedRng, Table, open_table


def step(before: State, action) -> tuple[State, str | None]:
    after = before.apply(action)
    return after, cue_for(before, action, after)


def risky(held_by: int | None = None) -> State:
    """Seat 0 (top card 4, after discarding 4) took a risk: its deck has 4 gone."""
    s = position(2, discarded=[3, 0], held_by=held_by)
    s = discard_all(s.apply(Roll(dice_for(s.dice_count(), 4, 5), BLANK)))
    assert s.phase is Phase.DECIDE and s.discarded_of(0) == 4
    return s.apply(RISK)


def failing(s: State, face: Face = BLANK) -> Roll:
    """A roll of ``s``'s roller that cannot discard its next card."""
    return Roll(dice_for(s.dice_count(), None, s.top_card(s.turn)), face)


# ------------------------------------------------------------------ the mapping


def test_roll_discards_and_quiet_decisions() -> None:
    s = position(2, discarded=[3, 0])
    s, cue = step(s, Roll(dice_for(s.dice_count(), 4, 5), BLANK))
    assert cue is Switch16Cue.DICE and s.phase is Phase.DISCARD
    s, cue = step(s, DISCARD)
    assert cue is Switch16Cue.DISCARD and s.phase is Phase.DECIDE
    _, cue = step(s, PASS)
    assert cue is None
    s, cue = step(s, RISK)
    assert cue is None
    _, cue = step(s, failing(s, GREEN))  # the green switch is still to come
    assert cue is Switch16Cue.DICE


@pytest.mark.parametrize("how", ["roll", "declined green", "left block", "early block"])
def test_every_kind_of_penalty(how: str) -> None:
    """A risk that discards nothing costs the deck, whatever ends the turn."""
    if how == "roll":
        s = risky()
        s, cue = step(s, failing(s))
    elif how == "declined green":
        s = risky()
        s = s.apply(failing(s, GREEN))
        before, (s, cue) = s, step(s, Green(None))
        assert banner_for(before, Green(None), s, 0) == ("PENALTY", "back to 1")
    elif how == "left block":
        s = position(2, discarded=[3, 0], on_deck=1)
        s = discard_all(s.apply(Roll(dice_for(s.dice_count(), 4, 5), BLANK))).apply(RISK)
        s = s.apply(failing(s, BLOCK))
        assert s.phase is Phase.BLOCK
        s, cue = step(s, LEAVE)
    else:
        s = risky(held_by=1)
        s = s.apply(Roll(dice_for(s.dice_count(), 5, None), BLANK))
        assert s.phase is Phase.DISCARD
        s, cue = step(s, Place(1, 0))  # blocked before the first discard
    assert cue is Switch16Cue.PENALTY and s.discarded_of(0) == 0 and s.turn == 1


def test_green_switch_refused_then_accepted() -> None:
    g = position(3, held_by=2).apply(Roll((6, 6, 6), GREEN))
    _, cue = step(g, Green(1))
    assert cue is Switch16Cue.GREEN_SWITCH
    asked, cue = step(g, Green(2))  # the chip holder may refuse: nothing happened yet
    assert cue is None and asked.phase is Phase.GREEN_REFUSAL
    _, cue = step(asked, REFUSE)
    assert cue is None
    _, cue = step(asked, ACCEPT)
    assert cue is Switch16Cue.GREEN_SWITCH


def test_red_switch_by_the_roll_or_by_the_choice() -> None:
    s = position(3, discarded=[5, 2, 1])
    _, cue = step(s, Roll((6, 6, 6), RED))  # one seat lowest: exchanged at once
    assert cue is Switch16Cue.RED_SWITCH
    tie = position(3, discarded=[5, 1, 1])
    tie, cue = step(tie, Roll((6, 6, 6), RED))
    assert cue is Switch16Cue.DICE and tie.phase is Phase.RED
    _, cue = step(tie, Red(2))
    assert cue is Switch16Cue.RED_SWITCH
    _, cue = step(position(3), Roll((6, 6, 6), RED))  # nobody lower: no switch
    assert cue is Switch16Cue.DICE


def test_blocks() -> None:
    s, cue = step(position(3), Roll((6, 6, 6), BLOCK))
    assert cue is Switch16Cue.BLOCK and s.chip_holder == 0
    _, cue = step(s, Place(0, 2))
    assert cue is Switch16Cue.BLOCK


@pytest.mark.parametrize(
    ("options", "scores", "expected"),
    [(None, None, Cue.GAME_WIN), ({"points": True}, [10, 40], Switch16Cue.ROUND_WIN),
     ({"points": True}, [90, 40], Cue.GAME_WIN)],
)  # fmt: skip
def test_wins(options, scores, expected: Cue) -> None:
    s = position(2, options=options, discarded=[15, 3], scores=scores)
    s = s.apply(Roll(dice_for(s.dice_count(), 16, None), BLANK))
    s, cue = step(s, DISCARD)
    assert s.phase is Phase.OVER and cue is expected
    if expected is Switch16Cue.ROUND_WIN:
        _, cue = step(s, NewRound(1))
        assert cue is Cue.START


def test_every_action_of_random_games_maps_without_error() -> None:
    rng = random.Random(4)
    seen: set[str | None] = set()
    for game in range(6):
        s = State.new(2 + game % 3, 0)
        bots = {seat: make_bot("easy", seat, random.Random(game)) for seat in range(s.players)}
        while not s.game_over:
            if s.phase is Phase.ROLL:
                action = roll_dice(s, rng)
            else:
                action = bots[s.actor(s.legal_actions()[0]) or 0].decide(s)
            after = s.apply(action)
            cue = cue_for(s, action, after)
            seen.add(cue)
            if type(action) is Roll:
                assert cue is not None
            s = after
    assert {Switch16Cue.DICE, Switch16Cue.DISCARD, Cue.GAME_WIN, None} <= seen


# ------------------------------------------------------------------ the tunes


#: Every tune Switch 16 plays, the unit's and its own, by cue.
TUNES = {**UNIT_TUNES, **OWN_TUNES}


def notes(tune: Tune) -> list[Note]:
    return [note for note, _ in tune if note is not None]


def test_switch16s_tunes_are_its_own() -> None:
    """Switch 16 brings a tune for each of its cues; the start and the fanfare are the
    unit's (every game's range and length: tests/conformance/test_sounds.py)."""
    assert set(OWN_TUNES) == set(Switch16Cue) and not set(OWN_TUNES) & set(UNIT_TUNES)
    assert sum(s for _, s in TUNES[Switch16Cue.DISCARD]) <= 0.05  # a tick
    assert sum(s for _, s in TUNES[Cue.GAME_WIN]) > sum(s for _, s in TUNES[Switch16Cue.ROUND_WIN])


def reference_with(text: str = "", new: str = "") -> UnitConfig:
    source = REFERENCE_CONFIG.read_text(encoding="utf-8")
    assert text in source
    return loads_config(source.replace(text, new, 1) if text else source)


def test_every_cue_is_playable_by_the_reference_buzzer() -> None:
    with mock_pi_hal(reference_with()) as pi:
        buzzer = pi.hal.buzzer
        assert buzzer is not None
        for tune in TUNES.values():
            buzzer.play(tune)  # raises ValueError outside the configured range
            assert all(buzzer.tone_of(n) is not None for n in notes(tune))
        with pytest.raises(ValueError):  # the check can fail
            buzzer.tone_of("A7")


# ------------------------------------------------------------------ on the mocked Pi


def hz(note: Note) -> float | None:
    return None if note is None else round(Tone(note).frequency, 1)


def heard(tune: Tune) -> list[float | None]:
    """The buzzer pin's frequencies while a whole tune plays (then silence)."""
    return [hz(note) for note, _ in tune] + [None]


def listen(table: Table) -> list[tuple[float, float | None]]:
    """Record (virtual time, Hz or None) of every frequency set on the buzzer pin."""
    pi = table.pi
    pin = pi.pin(pi.config.buzzer.pin)
    history: list[tuple[float, float | None]] = []
    original = pin._set_frequency

    def record(value: float | None) -> None:
        history.append((pi.clock.now(), None if value is None else round(value, 1)))
        original(value)

    pin._set_frequency = record
    return history


def since(history: list[tuple[float, float | None]], t: float) -> list[float | None]:
    return [f for when, f in history if when >= t]


def test_a_roll_plays_the_dice_then_each_discard_ticks(two_humans: Table) -> None:
    table = two_humans
    history = listen(table)
    table.unit.rng.next_roll((1, 1, 2), "blank")  # discards 1 to 4
    table.press(0, YES)
    table.after_action()
    rolled = table.pi.clock.now()
    assert table.unit.hal.buzzer.playing
    table.unit.run_for(0.5)
    assert since(history, rolled) == heard(TUNES[Switch16Cue.DICE])
    starts = [when for when, f in history if f is not None and when >= rolled]
    assert len(starts) == len(notes(TUNES[Switch16Cue.DICE]))
    assert starts[-1] - starts[0] == pytest.approx(sum(s for _, s in TUNES[Switch16Cue.DICE][:-1]))
    table.run_until(lambda: table.state.phase is Phase.DECIDE)
    table.unit.run_for(0.5)
    ticks = since(history, rolled + 0.5)
    assert ticks == heard(TUNES[Switch16Cue.DISCARD]) * table.state.discarded_of(0)
    assert table.state.discarded_of(0) >= 2


def test_a_game_starts_with_its_cue_and_ends_with_the_fanfare(tmp_path: Path) -> None:
    setup = GameSetup.of(["expert", "easy"])
    won_at: list[float] = []
    with open_table(tmp_path, setup=setup, rng=ScriptedRng(3)) as table:
        history = listen(table)
        table.unit.on_commit.append(
            lambda a, s: won_at.append(table.pi.clock.now()) if s.game_over else None
        )
        table.run_until(lambda: table.unit.actions > 0)
        start = heard(TUNES[Cue.START])[:-1]  # a quick bot may roll before it ends
        assert [f for _, f in history[: len(start)]] == start
        table.run_until(lambda: table.unit.finished, 20_000)
        table.unit.run_for(3)
        assert since(history, won_at[0]) == heard(TUNES[Cue.GAME_WIN])
        assert not table.unit.hal.buzzer.playing


def test_a_points_match_cheers_each_round_and_the_match(tmp_path: Path) -> None:
    setup = GameSetup.of(["expert", "easy"], points=True)
    ends: list[tuple[float, bool]] = []
    with open_table(tmp_path, setup=setup, rng=ScriptedRng(9)) as table:
        history = listen(table)
        table.unit.on_commit.append(
            lambda a, s: (
                ends.append((table.pi.clock.now(), s.game_over)) if s.phase is Phase.OVER else None
            )
        )
        table.run_until(lambda: table.unit.finished, 200_000)
        table.unit.run_for(3)
        rounds = [t for t, over in ends if not over]
        assert rounds and ends[-1][1]
        round_win = heard(TUNES[Switch16Cue.ROUND_WIN])
        for t in rounds:
            assert since(history, t)[: len(round_win)] == round_win
        assert since(history, ends[-1][0]) == heard(TUNES[Cue.GAME_WIN])


def test_mute_keeps_the_pin_quiet(tmp_path: Path) -> None:
    config = reference_with("mute = false", "mute = true")
    assert config.buzzer is not None and config.buzzer.mute
    setup = GameSetup.of(["human", "human"])
    with open_table(tmp_path, setup=setup, config=config) as table:
        history = listen(table)
        table.run_until(lambda: table.state is not None)
        table.press(table.state.turn, YES)
        table.after_action()
        assert table.unit.hal.buzzer.playing  # the tune runs, silently
        table.unit.run_for(2)
        assert history and {f for _, f in history} == {None}


def test_a_buzzer_range_without_the_cues_only_warns(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    range_a5_a7 = 'mid_tone = "A6"\noctaves = 1'
    config = reference_with('mid_tone = "A4"\noctaves = 2', range_a5_a7)
    setup = GameSetup.of(["expert", "easy"])
    caplog.set_level(logging.WARNING)
    with open_table(tmp_path, setup=setup, config=config) as table:
        history = listen(table)
        table.run_until(lambda: table.unit.actions >= 20, 600)
        assert not table.unit.hal.buzzer.playing
        assert {f for _, f in history} <= {None}
    assert "sound cue start not played" in caplog.text
    assert "sound cue dice not played" in caplog.text
    assert caplog.text.count("sound cue dice not played") == 1  # warned once


def test_a_cue_without_a_tune_only_warns(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game naming a cue neither it nor the unit has a tune for (a plugin's slip) is
    warned about once; the game goes on."""
    from firmware.games.switch16.game import Switch16

    monkeypatch.setattr(Switch16, "cue", lambda self, before, action, after: "whistle")
    caplog.set_level(logging.WARNING)
    with open_table(tmp_path, setup=GameSetup.of(["expert", "easy"])) as table:
        table.run_until(lambda: table.unit.actions >= 5, 600)
    assert caplog.text.count("sound cue whistle not played: no tune for the cue 'whistle'") == 1


def test_no_buzzer_no_sound(tmp_path: Path) -> None:
    text = REFERENCE_CONFIG.read_text(encoding="utf-8")
    start = text.index("[buzzer]")
    config = loads_config(text[:start] + text[text.index("[timing]") :])
    assert config.buzzer is None
    with open_table(tmp_path, setup=GameSetup.of(["easy", "easy"]), config=config) as table:
        table.run_until(lambda: table.unit.actions >= 10, 600)
        assert table.unit.hal.buzzer is None


def test_a_swytch_unit_plays_swytchs_own_tunes(tmp_path: Path) -> None:
    """On the mocked Pi a game of Swytch plays the unit's start, then Swytch's own tunes
    for its turns (an attack is Swytch's, never Switch 16's block), by the cue its game
    names for each committed action."""
    from firmware.games.swytch.game import GAME as SWYTCH
    from firmware.games.swytch.setup import SwytchSetup
    from firmware.games.swytch.sounds import SwytchCue

    played: list[tuple[str | None, Tune]] = []
    with open_table(tmp_path, game="swytch", setup=SwytchSetup(("easy", "easy")),
                    rng=random.Random(3)) as table:  # fmt: skip
        buzzer = table.unit.hal.buzzer
        assert buzzer is not None
        tune_of = {tuple(t): c for c, t in {**UNIT_TUNES, **SWYTCH.tunes}.items()}
        real = buzzer.play
        buzzer.play = lambda tune: (played.append((tune_of.get(tuple(tune)), tune)), real(tune))
        table.run_until(lambda: table.unit.actions >= 40, 600)
    heard = [cue for cue, _ in played]
    assert None not in heard and Switch16Cue.BLOCK not in heard
    assert heard[0] == Cue.START and SwytchCue.MOVE in heard
    assert {SwytchCue.ATTACK_WON, SwytchCue.ATTACK_LOST} & set(heard)  # attacks were made
    assert set(heard[1:]) <= set(SwytchCue) | {Cue.GAME_WIN}
