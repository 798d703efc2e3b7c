"""The harness plays a game's human seats through the link, for every game that says
how its actions are entered (:meth:`~firmware.games.game.Game.presses_for`): a random
legal action each turn (a random chance outcome, forced, when the seat rolls), entered
with the presses the game gives for the seat's UI state (rebuilt from the ``ui`` op),
every seat's glass checked at every human decision
(:meth:`~.unit_driver.UnitDriver.check_all_frames`)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from firmware.games.game import Game
from firmware.games.hil_scenarios import Rig
from firmware.games.registry import get_game
from firmware.kernel.errors import EngineError
from firmware.kernel.players import CHANCE
from firmware.kernel.seats import seat_name
from firmware.transcript import parse_line
from hal.events import Button

from .expected import replayed, ui_from_json
from .report import StepFailed


class Patience:
    """A game's time limit that runs only while the game stands still: it is spent when
    no action has been committed for ``seconds`` of the unit's time. A whole game takes
    as long as its timing makes it (minutes with the reference timing's think times);
    a stuck one still fails soon."""

    def __init__(self, driver: Rig, seconds: float) -> None:
        self.driver, self.seconds = driver, seconds
        self.actions: int | None = None
        self.since = driver.now()

    def check(self, actions: int) -> None:
        """Note the unit's action count; StepFailed once it stood still too long."""
        now = self.driver.now()
        if actions != self.actions:
            self.actions, self.since = actions, now
        elif now - self.since > self.seconds:
            raise StepFailed(f"no action for {self.seconds} s of the unit's time "
                             f"(after action {actions})")  # fmt: skip


def play_by_presses(d: Rig, name: str, stall_s: float, max_turns: int = 400,
                    until: Callable[[Any], bool] | None = None) -> Any:  # fmt: skip
    """Play game ``name``'s human seats until the game is over, ``until(position)`` or
    ``max_turns`` actions (a draw by the harness's patience); StepFailed after ``stall_s``
    of the unit's time without an action. Returns the last position."""
    game = get_game(name)
    patience = Patience(d, stall_s)
    last_checked = -1
    while True:
        info = d.state()
        patience.check(info["actions"])
        state, kinds = d.position()
        if state is None or info["mode"] != "play":
            d.idle()
            continue
        if state.game_over or info["actions"] >= max_turns or (until and until(state)):
            return state
        seat = game.waiting_seat(state)
        if seat is None or kinds[seat] != "human":
            d.idle()
            continue
        if info["actions"] != last_checked:
            d.check_all_frames(f"{name} after action {info['actions']}")
            last_checked = info["actions"]
        take_turn(d, game, seat, state)


def take_turn(d: Rig, game: Game, seat: int, state: Any) -> None:
    """``seat`` enters a random action by the presses ``game`` gives for its UI state: a
    legal one it has presses for, or a chance outcome (the ``chance`` op forces it) when
    chance acts while the table waits for ``seat`` (a roll); the unit must commit
    exactly that action (after any other seat's move out of turn).

    After each press the presses left are planned again from the UI state the press
    left (:func:`enter`): a timer of the unit's that changed the screen between a look
    and a press (an opponent's last turn taken off the board) changes the plan, not the
    action."""
    snap = d.request("ui")
    ui = ui_from_json(snap, state)
    chance = state.current_player() == CHANCE
    if chance:
        outcomes = [outcome for outcome, _ in state.chance_outcomes()]
        candidates = [d.rng.choice(outcomes)]
    else:
        candidates = list(state.legal_actions())
        d.rng.shuffle(candidates)
    action, presses = next(((a, p) for a in candidates
                            if (p := game.presses_for(ui, seat, a)) is not None),
                           (candidates[0], None))  # fmt: skip
    if presses is None:
        raise StepFailed(f"{game.name}: {seat_name(seat)} is on turn but has no presses for "
                         f"{game.action_text(action)}")  # fmt: skip
    if chance:
        d.request("chance", outcomes=[game.action_to_json(action)])
    before = snap["actions"]
    enter(d, game, seat, state, action, presses, snap)
    with contextlib.suppress(StepFailed):
        d.wait_for("the action", lambda s: s["actions"] != before
                   and own_action(d, game, seat, before) is not None, timeout=3)  # fmt: skip
    found = own_action(d, game, seat, before)
    if found is None:
        raise StepFailed(f"{game.name}: the presses for {game.action_text(action)} "
                         "committed nothing")  # fmt: skip
    position, committed = found
    try:
        wanted = position.apply(action)
    except EngineError:
        wanted = None
    if position.apply(committed) != wanted:
        raise StepFailed(f"{game.name}: the unit committed {game.action_text(committed)}, "
                         f"not {game.action_text(action)}")  # fmt: skip


def enter(d: Rig, game: Game, seat: int, state: Any, action: Any,
          presses: tuple[Button, ...], snap: dict[str, Any]) -> None:  # fmt: skip
    """Press ``presses`` for ``action`` from the UI state ``snap``: each press once the
    unit has taken the one before (its ``presses`` count), the rest planned again from
    the UI state it left; done when the unit commits ``seat``'s action or the game has
    nothing left to press for it. Another seat's move out of turn meanwhile leaves the
    rest pressed as planned (that UI state is of another position). StepFailed when the
    action has no presses from a UI state, or still wants some after twice the presses
    first planned."""
    before = snap["actions"]
    for _ in range(2 * len(presses) + 2):
        if not presses:
            return
        d.press(seat, presses[0].value)
        d.wait_for("the press taken", taken_after(snap["presses"]))
        snap = d.request("ui")
        if snap["actions"] != before:
            if own_action(d, game, seat, before) is None:
                for button in presses[1:]:
                    d.press(seat, button.value)
            return
        again = game.presses_for(ui_from_json(snap, state), seat, action)
        if again is None:
            raise StepFailed(f"{game.name}: after a press {seat_name(seat)} has no presses "
                             f"left for {game.action_text(action)}")  # fmt: skip
        presses = again
    raise StepFailed(f"{game.name}: {seat_name(seat)} still presses for "
                     f"{game.action_text(action)} after twice the presses planned")  # fmt: skip


def taken_after(pressed: int) -> Callable[[dict[str, Any]], bool]:
    """Whether a ``state`` reply shows a press taken after the first ``pressed``."""
    return lambda reply: reply["presses"] > pressed


def own_action(d: Rig, game: Game, seat: int, before: int) -> tuple[Any, Any] | None:
    """The first action the unit committed after its first ``before`` that is not
    another seat's (a bot's move out of turn, as Switch 16's chip, may come first), and
    the position it was committed in; None: none yet."""
    lines = d.request("transcript")["lines"]
    position = replayed("the turn entered", lines[: before + 1])
    for line in lines[before + 1 :]:
        committed = game.action_from_json(parse_line(line))
        if position.actor(committed) in (None, seat):
            return position, committed
        position = position.apply(committed)
    return None
