"""Every game's sound cues: the tunes it brings keep within the buzzer range every unit
plays (:data:`~firmware.unit.sounds.LOWEST`-:data:`~firmware.unit.sounds.HIGHEST`),
each short, and every cue it names for an action of a whole game is one it or the unit
has a tune for, which the reference buzzer on the mocked Pi plays."""

from __future__ import annotations

from gpiozero.tones import Tone

from firmware.games.game import Game
from firmware.games.selfplay import play_game
from firmware.unit.sounds import HIGHEST, LONGEST, LOWEST, TUNES, Cue, tune_for
from hal.testing import mock_pi_hal

from .conftest import given_options


def test_the_unit_and_every_game_keep_their_tunes_short_and_in_range(game: Game) -> None:
    lo, hi = Tone(LOWEST).frequency, Tone(HIGHEST).frequency
    tunes = {**TUNES, **game.tunes}
    assert len({tuple(t) for t in tunes.values()}) == len(tunes)  # each sounds its own
    for cue, tune in tunes.items():
        seconds = sum(s for _, s in tune)
        assert 0 < seconds < (2.0 if cue == Cue.GAME_WIN else LONGEST), cue
        assert all(lo <= Tone(n).frequency <= hi for n, _ in tune if n is not None), cue
    with mock_pi_hal() as pi:  # the reference buzzer plays each (a note outside: ValueError)
        assert pi.hal.buzzer is not None
        for tune in tunes.values():
            pi.hal.buzzer.play(tune)


def test_every_cue_a_game_names_has_a_tune(game: Game) -> None:
    seats = [game.levels[0]] * game.seats.start
    played = play_game(game, seats, given_options(game), 2, record=True)
    state, named = played.header.initial_state(), set()
    for action in played.actions:
        after = state.apply(action)
        named.add(cue := game.cue(state, action, after))
        if cue is not None:
            tune_for(cue, game.tunes)  # a ValueError names a cue without a tune
        state = after
    assert named <= {None, *TUNES, *game.tunes}
