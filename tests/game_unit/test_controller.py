"""The controller alone on virtual time: every phase's controls, ignored presses, timers;
presses reach it as the unit hands them (:func:`~firmware.unit.end_screen.respond`: the
end screen is the unit's)."""

from __future__ import annotations

import pytest

from firmware.games.switch16.config import Switch16Timing
from firmware.games.switch16.controller import Controller, Mode
from firmware.games.switch16.engine import (
    ACCEPT,
    DECLINE,
    DISCARD,
    LEAVE,
    PASS,
    REFUSE,
    RISK,
    TAKE,
    Action,
    Face,
    Green,
    NewRound,
    Phase,
    Place,
    Red,
    Roll,
    State,
    make_rules,
)
from firmware.games.switch16.game import GAME
from firmware.games.switch16.setup import GameSetup
from firmware.unit import Timing
from firmware.unit.commands import (
    AskBot,
    AskInterject,
    Commit,
    NewGame,
    RollDice,
    RollOff,
    StartGame,
)
from firmware.unit.end_screen import respond
from hal.events import (
    Button,
    ButtonDown,
    ButtonUp,
    LongPress,
    RollRequested,
    ShakeStarted,
    ShakeStopped,
)

YES, NO, CHIP = Button.YES, Button.NO, Button.CHIP
T = Timing(bot_thinking=0.5, games=(Switch16Timing(tumble=0.4),))
#: Rolls that make every card from 1 up to the top card their count is rolled at.
GOOD_DICE = {3: (1, 2, 3), 4: (1, 2, 4, 6), 5: (1, 2, 3, 4, 6)}


class Rig:
    """A controller with a clock: feeds events, fires timers, applies Commit commands."""

    def __init__(self, state: State, kinds: tuple[str, ...] | None = None,
                 timing: Timing = T) -> None:  # fmt: skip
        self.now = 0.0
        self.ctl = Controller(4, timing, GameSetup(), now=0.0)
        kinds = kinds or ("human",) * state.players
        #: the set-up played (the unit keeps it for a rematch when it begins a game)
        self.setup = GameSetup.of(kinds, state.rules.name, state.rules.points)
        self.ctl.shell.played = self.setup
        self.ctl.begin(state, kinds, 0.0)
        self.log: list[object] = []

    @property
    def state(self) -> State:
        assert self.ctl.state is not None
        return self.ctl.state

    def run(self, commands: list) -> list:
        out = []
        for cmd in commands:
            self.log.append(cmd)
            if isinstance(cmd, Commit):
                new = self.state.apply(cmd.action)
                out += self.run(self.ctl.committed(cmd.action, new, self.now))
            else:
                out.append(cmd)
        return out

    def apply(self, action: Action) -> None:
        self.run([Commit(action)])

    def down(self, seat: int, button: Button) -> list:
        return self.run(respond(self.ctl, GAME, ButtonDown(self.now, seat, button), self.now))

    def press(self, seat: int, button: Button) -> list:
        out = self.down(seat, button)
        self.ctl.handle(ButtonUp(self.now, seat, button, 0.05), self.now)
        return out

    def advance(self, dt: float) -> list:
        """Move the clock, firing due timers in order; returns non-Commit commands."""
        end = self.now + dt
        out = []
        while (d := self.ctl.next_deadline()) is not None and d <= end:
            self.now = max(self.now, d)
            while self.ctl.due(self.now):
                out += self.run(self.ctl.tick(self.now))
        self.now = end
        return out

    def play_to_the_end(self) -> None:
        """The roller risks on rolls that always discard, until the game or round is over."""
        while self.state.phase is not Phase.OVER:
            if self.state.phase is Phase.DECIDE:
                self.apply(RISK)
            elif self.state.phase is Phase.ROLL:
                self.apply(Roll(GOOD_DICE[self.state.dice_count()], Face.BLANK))
            else:
                self.apply(DISCARD)

    def commits(self) -> list[Action]:
        return [c.action for c in self.log if isinstance(c, Commit)]


def rig(players: int = 2, kinds: tuple[str, ...] | None = None, **timing: float) -> Rig:
    unit = {k: v for k, v in timing.items() if k in Timing.__dataclass_fields__}
    own = Switch16Timing(**({"tumble": 0.4} | {k: v for k, v in timing.items() if k not in unit}))
    return Rig(
        State.new(players, 0, make_rules()),
        kinds,
        Timing(**({"bot_thinking": 0.5} | unit), games=(own,)),
    )


def test_yes_rolls_after_the_tumble_and_only_for_the_roller() -> None:
    r = rig()
    assert r.press(1, YES) == [] and r.ctl.tumble is None
    assert r.press(0, YES) == [] and r.ctl.tumble is not None
    assert r.press(0, YES) == []  # already rolling
    assert r.advance(0.39) == []
    assert r.advance(0.02) == [RollDice(0)]


def test_shake_rolls_when_it_stops() -> None:
    r = rig()
    r.run(r.ctl.handle(ShakeStarted(0.0), 0.0))
    tumble = r.ctl.tumble
    assert tumble is not None and tumble.shaker
    r.advance(1.0)
    assert tumble.frame > 5  # animation frames ran
    assert r.run(r.ctl.handle(ShakeStopped(1.0, 1.0, 20, 20.0), 1.0)) == [RollDice(0)]


def test_shake_outside_the_roll_phase_is_ignored() -> None:
    r = rig()
    r.apply(Roll((1, 6, 6), Face.BLANK))
    assert r.ctl.handle(ShakeStarted(0.0), 0.0) == [] and r.ctl.tumble is None
    assert r.ctl.handle(ShakeStopped(0.5, 0.5, 8, 8.0), 0.5) == []


def test_roll_requested_is_the_button_fallback() -> None:
    r = rig()
    assert r.run(r.ctl.handle(RollRequested(0.0, 1), 0.0)) == []  # not seat 1's roll
    r.run(r.ctl.handle(RollRequested(0.0, None), 0.0))
    assert r.advance(0.5) == [RollDice(0)]


def test_discard_comes_only_after_the_window() -> None:
    r = rig()
    r.apply(Roll((1, 2, 3), Face.BLANK))
    assert r.state.phase is Phase.DISCARD
    r.advance(0.69)
    assert r.commits()[1:] == []
    r.advance(0.02)
    assert r.commits()[1:] == [DISCARD]
    r.advance(0.67)  # the next window runs from the discard at 0.70
    assert r.commits()[1:] == [DISCARD]
    r.advance(0.04)
    assert r.commits()[1:] == [DISCARD, DISCARD]


def test_chip_holder_blocks_the_discarding_seat_with_one_press() -> None:
    r = rig()
    r.apply(Roll((6, 6, 6), Face.BLOCK))  # seat 0 takes the chip, turn over
    r.apply(Roll((1, 2, 3), Face.BLANK))
    r.advance(0.71)
    assert r.press(1, CHIP) == []  # the roller's CHIP does nothing here
    r.press(0, CHIP)
    assert r.commits()[-1] == Place(0, 1) and r.state.phase is Phase.DECIDE
    r.advance(5)
    assert r.commits()[-2:] == [DISCARD, Place(0, 1)]


def test_decide_yes_risks_no_passes_chip_does_not_decide() -> None:
    r = rig()
    r.apply(Roll((1, 6, 6), Face.BLANK))
    r.advance(1)
    assert r.state.phase is Phase.DECIDE
    r.press(0, CHIP)  # no chip: nothing (the odds hint is a long press)
    r.press(1, YES)  # not the roller
    assert r.state.phase is Phase.DECIDE
    r.press(0, NO)
    assert r.commits()[-1] == PASS and r.state.turn == 1
    r.apply(Roll((1, 6, 6), Face.BLANK))
    r.advance(1)
    r.press(1, YES)
    assert r.commits()[-1] == RISK


def test_block_take_and_leave() -> None:
    r2 = rig()
    r2.apply(Roll((6, 6, 6), Face.BLOCK))
    r2.apply(Place(0, 1))
    r2.apply(Roll((6, 6, 6), Face.BLANK))  # seat 1: blocked, nothing
    r2.apply(Roll((6, 6, 6), Face.BLOCK))  # seat 0 rolls block, chip on seat 1's deck
    assert r2.state.phase is Phase.BLOCK
    r2.press(1, YES)  # not the roller
    r2.press(0, NO)
    assert r2.commits()[-1] == LEAVE
    r3 = rig()
    for action in r2.commits()[:-1]:
        r3.apply(action)
    r3.press(0, YES)
    assert r3.commits()[-1] == TAKE and r3.state.chip_holder == 0


def test_green_menu_cycles_and_confirms() -> None:
    r = rig(3)
    r.apply(Roll((6, 6, 6), Face.GREEN))
    menu = r.ctl.menus[0]
    assert not menu.placing
    r.press(1, CHIP)  # someone else's menu
    r.press(0, CHIP)
    r.press(0, CHIP)  # seat 1, seat 2, keep
    assert menu.highlight == 2
    r.press(0, NO)  # back to seat 2
    r.press(0, YES)
    assert r.commits()[-1] == Green(2)
    r2 = rig(3)
    r2.apply(Roll((6, 6, 6), Face.GREEN))
    r2.press(0, NO)  # wraps to "no switch"
    r2.press(0, YES)
    assert r2.commits()[-1] == DECLINE


def test_refusal_window_defaults_to_accept_and_answers_count() -> None:
    r = rig()
    r.apply(Roll((6, 6, 6), Face.BLOCK))
    r.apply(Roll((6, 6, 6), Face.GREEN))
    r.apply(Green(0))
    assert r.state.phase is Phase.GREEN_REFUSAL
    r.press(1, NO)  # the roller cannot answer
    r.advance(4.99)
    assert r.state.phase is Phase.GREEN_REFUSAL
    r.advance(0.02)
    assert r.commits()[-1] == ACCEPT
    r2 = rig()
    for a in (Roll((6, 6, 6), Face.BLOCK), Roll((6, 6, 6), Face.GREEN), Green(0)):
        r2.apply(a)
    r2.press(0, YES)
    assert r2.commits()[-1] == REFUSE and "refusal" not in r2.ctl.timers


def test_red_tie_menu() -> None:
    r = rig(3)
    r.apply(Roll((1, 2, 3), Face.BLANK))
    r.advance(10)  # seat 0 discards 1..6
    r.press(0, NO)
    assert r.state.turn == 1
    r.apply(Roll((6, 6, 6), Face.RED))  # seat 1 (top 1) has nobody lower
    r.apply(Roll((6, 6, 6), Face.BLANK))
    r.apply(Roll((6, 6, 6, 6), Face.RED))  # seat 0 (top 7): seats 1 and 2 tied at 1
    assert r.state.phase is Phase.RED
    r.press(0, CHIP)
    r.press(0, YES)
    assert r.commits()[-1] == Red(2)


def test_lay_chip_menu_open_cycle_confirm_cancel() -> None:
    r = rig(3)
    r.apply(Roll((6, 6, 6), Face.BLOCK))  # seat 0 holds the chip; seat 1 to roll
    r.press(2, CHIP)  # no chip: nothing
    assert 2 not in r.ctl.menus
    r.press(0, CHIP)
    assert r.ctl.menus[0].placing
    r.press(0, NO)  # cancel
    assert 0 not in r.ctl.menus and r.state.chip_holder == 0
    r.press(0, CHIP)
    r.press(0, CHIP)  # seat 2
    r.press(0, YES)
    assert r.commits()[-1] == Place(0, 2) and 0 not in r.ctl.menus


def test_long_chip_press_toggles_the_hint_and_does_not_leave_a_menu_open() -> None:
    r = rig(roll_show=0)
    r.apply(Roll((6, 6, 6), Face.BLOCK))  # seat 0 holds the chip
    r.down(0, CHIP)
    assert r.ctl.menus[0].placing
    r.ctl.handle(LongPress(0.8, 0, CHIP, 0.8), 0.8)
    assert 0 in r.ctl.hints and 0 not in r.ctl.menus
    r.ctl.handle(LongPress(0.8, 1, CHIP, 0.8), 0.8)
    assert 1 in r.ctl.hints
    r.ctl.handle(LongPress(1.0, 1, CHIP, 0.8), 1.0)
    assert 1 not in r.ctl.hints


def test_bots_think_then_act_and_interject_before_the_discard() -> None:
    r = rig(kinds=("human", "expert"))
    r.apply(Roll((6, 6, 6), Face.BLOCK))  # seat 0 (human) holds the chip; bot seat 1 rolls
    assert r.advance(1.5) == []  # the roll that ended seat 0's turn is shown first
    assert r.advance(0.49) == []
    assert r.advance(0.02) == []  # starts its tumble
    assert r.advance(0.4) == [RollDice(1)]
    r2 = rig(kinds=("expert", "human"), roll_show=0)
    r2.apply(Roll((6, 6, 6), Face.BLOCK))  # bot seat 0 holds the chip
    r2.apply(Roll((1, 2, 3), Face.BLANK))  # seat 1 discards
    out = r2.advance(0.36)
    assert out == [AskInterject(0)]  # half-way through the window
    r2.press(0, CHIP)  # a bot seat's buttons do nothing
    assert r2.commits()[-1] == Roll((1, 2, 3), Face.BLANK)
    r3 = rig(kinds=("rulebook", "human"))
    r3.apply(Roll((1, 6, 6), Face.BLANK))
    r3.advance(0.71)
    assert r3.state.phase is Phase.DECIDE
    assert r3.advance(0.6) == [AskBot(0)]


def test_setup_menu_flow_and_rolloff() -> None:
    ctl = Controller(4, T, GameSetup())
    assert ctl.mode is Mode.SETUP and ctl.menu.question.key == "game"
    ctl.handle(ButtonDown(0, 2, YES), 0)  # the game: keep Switch 16
    assert ctl.menu.question.title == "PLAYERS"
    ctl.handle(ButtonDown(0, 3, CHIP), 0)  # any seat drives it: 3 players
    ctl.handle(ButtonDown(0, 3, YES), 0)
    ctl.handle(ButtonDown(0, 1, CHIP), 0)  # seat 1: easy
    ctl.handle(ButtonDown(0, 1, NO), 0)  # back to players
    assert ctl.menu.question.key == "players"
    for button in (YES, YES, CHIP, CHIP, YES, YES, CHIP, YES, CHIP):
        ctl.handle(ButtonDown(0, 0, button), 0)
    out = ctl.handle(ButtonDown(0, 0, YES), 0)
    setup = GameSetup(3, ("easy", "rulebook", "human"), "playmonster-2022", True)
    assert out == [RollOff(setup)]
    ctl.show_rolloff([{0: 4, 1: 4, 2: 1}, {0: 2, 1: 5}], 1, setup, 0)
    assert ctl.mode is Mode.ROLLOFF and ctl.rolloff is not None
    assert ctl.handle(ButtonDown(0, 0, YES), 0) == []  # presses wait for the roll-off
    assert ctl.tick(1.25) == [] and ctl.rolloff.shown == 1
    assert ctl.tick(3.74) == []
    assert ctl.tick(3.75) == [StartGame(setup, 1)]


def test_between_rounds_yes_rolls_off_and_game_over_yes_starts_anew() -> None:
    rules = make_rules("pressman-2003", {"points": True})
    state = State.new(2, 0, rules)
    state = state.apply(Roll((1, 2, 3), Face.BLANK))
    while state.phase is Phase.DISCARD:
        state = state.apply(DISCARD)
    r = Rig(state)
    r.play_to_the_end()
    assert r.state.round_pending
    r.press(1, NO)
    assert r.press(1, YES) == [RollOff(None)]
    r.ctl.show_rolloff([{0: 6, 1: 1}], 0, None, r.now)
    r.advance(3)
    assert r.commits()[-1] == NewRound(0) and r.state.round == 2


def test_idle_dims_then_saver_and_the_saver_waking_press_is_swallowed() -> None:
    r = rig(dim_after=10, screensaver_after=20)
    r.advance(9.9)
    assert not r.ctl.shell.dimmed
    r.advance(0.2)
    assert r.ctl.shell.dimmed and not r.ctl.shell.saver
    r.advance(10)
    assert r.ctl.shell.saver
    counter = r.ctl.shell.saver_counter
    r.advance(5)
    assert r.ctl.shell.saver_counter > counter
    r.press(0, YES)
    assert not r.ctl.shell.dimmed and not r.ctl.shell.saver and r.ctl.tumble is None
    r.press(0, YES)
    assert r.ctl.tumble is not None


def test_the_end_screen_yes_is_a_rematch_after_a_roll_off_and_no_a_new_game() -> None:
    r = Rig(State.new(2, 0, make_rules()), ("human", "easy"))
    r.play_to_the_end()
    assert r.ctl.finished
    assert r.press(1, YES) == [] and r.press(1, NO) == []  # the bot's seat does not answer
    assert r.press(0, CHIP) == []
    assert r.press(0, YES) == [RollOff(GameSetup.of(("human", "easy")))]
    assert r.press(0, NO) == [NewGame()]


def test_a_decided_points_match_offers_a_rematch_of_the_match() -> None:
    r = Rig(State.new(2, 0, make_rules("pressman-2003", {"points": True})))
    while True:
        r.play_to_the_end()
        if not r.state.round_pending:
            break
        assert r.press(1, NO) == []  # a round's end: only YES goes on (the game's own)
        r.apply(NewRound(r.state.round % 2))
    assert r.ctl.finished and r.state.match_winners
    assert r.setup.points and r.press(1, YES) == [RollOff(r.setup)]
    assert r.press(1, NO) == [NewGame()]


@pytest.mark.parametrize("button", list(Button))
def test_bot_seats_and_empty_seats_ignore_every_button(button: Button) -> None:
    r = rig(kinds=("human", "easy"))
    for seat in (1, 2, 3):
        assert r.press(seat, button) == []
    assert r.commits() == []
