"""Switch 16's scenarios for ``switch16 hil``'s built-in suite
(:mod:`firmware.games.hil_scenarios`): a whole game of every rules preset by presses, a
block mid-discard and a refused green switch on forced dice, a points round and a power
cut mid-game."""

from __future__ import annotations

from typing import Any

from firmware.games.hil_scenarios import (
    Rig,
    Scenario,
    StepFailed,
    power_cut_mid_game,
    whole_game,
)
from firmware.kernel.seats import seat_name

from .engine import PRESETS
from .engine.notation import Header

NAME = Header.game


def scenarios() -> list[Scenario]:
    """The suite's steps for Switch 16, in the order it plays them."""
    whole = [whole_game(f"whole game, {preset} (human vs expert, by presses)", NAME,
                        ["human", "expert"], preset=preset, rules=preset)
             for preset in PRESETS]  # fmt: skip
    return [
        *whole,
        Scenario("block mid-discard (forced dice)", block_mid_discard),
        Scenario("a refused green switch (the named seat holds the chip)", refused_green),
        Scenario("a points round", points_round),
        power_cut_mid_game(NAME, ["human", "expert"], rules="pressman-2003"),
    ]


def force_next(d: Rig, state: Any, dice: list[int], face: str) -> None:
    """Force the next roll: ``dice`` (repeated to the number rolled), ``face`` up."""
    n = state.dice_count()
    d.request("dice", rolls=[{"dice": (dice * 6)[:n], "switch": face}])


def skip_shown_roll(d: Rig, seat: int) -> None:
    """A turn-ending roll left up (``roll_show_s``) takes the next press of any seat
    and does nothing else: ``seat`` presses it away before it acts."""
    if d.request("ui").get("roll_shown") is None:
        return
    d.press(seat, "no")
    d.wait_for("the shown roll to go", lambda _: d.request("ui").get("roll_shown") is None,
               timeout=3)  # fmt: skip


def _chip_taken(d: Rig) -> tuple[int, Any]:
    """A two-human tablier game in which the seat to start rolls block, takes the chip
    and passes: that seat and the next position (the other seat to roll)."""
    d.new_game(NAME, ["human", "human"], rules="tablier")
    state, _ = d.position()
    a = state.turn
    force_next(d, state, [6], "block")
    d.press(a, "yes")
    state = d.settle_until(lambda s: s.turn != a or s.phase.value == "decide")
    if state.turn == a:  # decide after the block roll: pass
        d.press(a, "no")
        state = d.settle_until(lambda s: s.turn != a)
    return a, state


def block_mid_discard(d: Rig) -> None:
    """Seat A rolls block (takes the chip), seat B rolls dice that discard; A
    presses CHIP during B's discards: the chip lands on B's deck."""
    a, state = _chip_taken(d)
    if state.chip_holder != a:
        raise StepFailed(f"{seat_name(a)} did not take the chip: {state.to_json()}")
    b = state.turn
    force_next(d, state, [1, 2, 3], "blank")
    skip_shown_roll(d, b)
    d.press(b, "yes")
    d.settle_until(lambda s: s.phase.value == "discard", timeout=3)
    d.press(a, "chip")
    d.saw("block mid-discard")
    d.settle_until(lambda s: s.chip_on_seat is not None)
    d.check_all_frames("after the block")


def refused_green(d: Rig) -> None:
    """A takes the chip (block); B rolls green and names A; A refuses with YES."""
    a, state = _chip_taken(d)
    b = state.turn
    force_next(d, state, [1, 2, 4], "green")
    skip_shown_roll(d, b)
    d.press(b, "yes")
    end = d.now() + 5
    while True:
        state = d.settle_until(lambda s: s.phase.value in ("green", "decide", "roll"))
        if state.phase.value == "green":
            break
        if state.turn != b or d.now() > end:
            raise StepFailed(f"no green switch to name: {state.to_json()}")
        d.press(b, "no")  # decide: pass
        d.settle_until(lambda s: s.phase.value != "decide")
    d.check_all_frames("the green menu")
    d.choose(b, state, lambda action: getattr(action, "target", None) == a)
    state = d.settle_until(lambda s: s.phase.value != "green")
    if state.phase.value != "green_refusal":
        raise StepFailed(f"{seat_name(a)} was not asked: {state.to_json()}")
    d.check_all_frames("green asked")
    d.press(a, "yes")
    d.saw("refused green")
    state = d.settle_until(lambda s: s.phase.value != "green_refusal")
    if state.phase.value == "green" and not state.refused_mask >> a & 1:
        raise StepFailed(f"{seat_name(a)}'s refusal is not in the position: {state.to_json()}")
    d.check_all_frames("green refused")
    if state.phase.value == "green":  # the roller names nobody else: "no switch"
        d.choose(b, state, lambda action: getattr(action, "target", 0) is None)
        d.settle_until(lambda s: s.phase.value != "green")
        d.check_all_frames("after the green switch")


def points_round(d: Rig) -> None:
    """A points game played by presses to the end of its first round; YES on the
    points table starts the next round's roll-off, then play."""
    d.new_game(NAME, ["human", "easy"], rules="tablier", points=True)
    st = d.play_by_presses(NAME, until=lambda st: st.round_pending)
    if st.scores is None:
        raise StepFailed("no scores in a points game")
    d.check_all_frames("the points table")
    if st.round_pending:  # YES on the table: the next round's roll-off, then play
        winner = next(s for s in range(st.players) if d.kinds_seen[s] == "human")
        before = d.state()["actions"]
        d.press(winner, "yes")
        d.check_all_frames("the next round's roll-off")
        d.wait_for("the next round", lambda s: s["actions"] > before
                   and s["mode"] == "play", timeout=10)  # fmt: skip
        d.check_all_frames("the next round")
