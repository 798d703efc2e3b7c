"""How quick the picker is: whole games where both players enter the searching bot's
chosen action through the unit's controller with the fewest presses and holds (the
hint aside), the last turn read by waiting for its time; and the holds themselves."""

from __future__ import annotations

import random
import statistics

from firmware.games.swytch.controller import READ_GRACE, Timer
from firmware.games.swytch.controls import uses_for
from firmware.games.swytch.game import GAME
from firmware.games.swytch.picker import Picker
from firmware.games.swytch.setup import SwytchSetup
from firmware.games.swytch.state import State
from firmware.settings import Timing
from firmware.unit.commands import Commit
from hal.events import Button, ButtonDown, LongPress

YES, NO, CHIP = Button.YES, Button.NO, Button.CHIP
#: The issue's target: a typical move in a handful of presses.
MEDIAN_PRESSES = 6


def play(first: int, seed: int) -> list[int]:
    """One whole game of the strongest level against itself, every action entered by
    presses; the presses of each action."""
    ctl = GAME.controller(2, Timing(bot_thinking=0.5, dim_after=0), SwytchSetup())
    state = GAME.header(SwytchSetup(), first).initial_state()
    ctl.begin(state, ("human", "human"), 0.0)
    rng = random.Random(seed)
    top = GAME.levels[-1]
    bots = [GAME.make_bot(top, s, random.Random(rng.getrandbits(32)), ()) for s in (0, 1)]
    now, counts = 0.0, []
    while not state.game_over:
        seat = state.to_move
        action = bots[seat].decide(state)
        if Timer.LAST in ctl.timers:  # the player reads the last turn until it goes
            now = ctl.timers[Timer.LAST]
            while ctl.due(now):
                ctl.tick(now)
            now += READ_GRACE  # and reacts to the cursor
        assert ctl.picker is not None
        uses = uses_for(ctl.picker, action)
        out = []
        for button, held in uses:
            now += 0.1
            out = ctl.handle(ButtonDown(now, seat, button), now)
            if held:
                out = ctl.handle(LongPress(now + 0.8, seat, button, 0.8), now + 0.8)
        assert out == [Commit(action)]
        counts.append(len(uses))
        state = state.apply(action)
        ctl.committed(action, state, now)
    return counts


def test_a_move_takes_a_handful_of_presses_over_whole_games() -> None:
    counts = play(0, 1) + play(1, 2)
    assert statistics.median(counts) <= MEDIAN_PRESSES, sorted(counts)


def test_no_steps_back_and_a_held_no_jumps_a_rank_instead_of_its_press() -> None:
    ctl = GAME.controller(2, Timing(), SwytchSetup())
    ctl.begin(State.new(), ("human", "human"), 0.0)
    p = ctl.picker
    assert p is not None and p.origin.name == "a1"
    ctl.handle(ButtonDown(0.1, 0, NO), 0.1)
    assert ctl.picker is not None and ctl.picker.origin.name == "h2"  # back, round the end
    ctl.handle(LongPress(0.9, 0, NO, 0.8), 0.9)
    assert ctl.picker is not None and ctl.picker.origin.name == "a2"  # a1's next rank
    ctl.handle(ButtonDown(1.0, 0, NO), 1.0)
    ctl.handle(LongPress(1.8, 0, NO, 0.8), 1.8)
    assert ctl.picker is not None and ctl.picker.origin.name == "a1"  # past the last rank


def test_the_next_picker_starts_on_the_seat_s_own_last_moved_stack() -> None:
    ctl = GAME.controller(2, Timing(), SwytchSetup())
    state = State.new()
    ctl.begin(state, ("human", "human"), 0.0)
    for action in ("d2 1 d3", "e8 1 e7"):
        move = GAME.action_from_json({"action": action})
        state = state.apply(move)
        ctl.committed(move, state, 0.0)
    assert ctl.picker is not None and ctl.picker.origin.name == "d3"
    assert Picker.new(state, 0).origin.name != "d3"
