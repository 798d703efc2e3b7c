"""The built-in suite of ``switch16 hil``: the protocol's refusals of bad input, a whole
game of every preset, a block mid-discard, a refused green switch, a points round and a
power cut, each a step of the driver's report."""

from __future__ import annotations

from collections.abc import Callable

from firmware.games.registry import DEFAULT_GAME
from firmware.games.switch16.engine import PRESETS
from firmware.kernel.seats import seat_name

from .client import LinkClient, LinkError
from .press_play import play_by_presses
from .protocol import encode
from .report import Report, StepFailed
from .unit_driver import UnitDriver

#: The game of the suite's presets (its transcripts name no game).
SWITCH16 = DEFAULT_GAME
#: The game the suite plays a whole game of by :func:`play_by_presses`, and the bots it
#: plays against there (the searching one is slow).
SWYTCH = "swytch"
SWYTCH_LEVELS = ("easy",)


def suite(d: UnitDriver, presets: list[str] | None = None, game_seconds: float = 90.0,
          restart: Callable[[], LinkClient] | None = None) -> Report:  # fmt: skip
    protocol_steps(d)
    if not d.hello.get("test_mode"):
        with d.step("production unit refuses test ops") as _:
            before = d.state()
            try:
                d.c.request("press", seat=0, button="yes")
                raise StepFailed("press was accepted")
            except LinkError as exc:
                if exc.code != "not_test_mode":
                    raise StepFailed(f"wrong error {exc.code}") from None
            if d.state()["state"] != before["state"]:
                raise StepFailed("the state changed")
        d.report.notes.append("not in test mode: games skipped")
        return d.report
    seen: dict[str, int] = {}
    for preset in presets or list(PRESETS):
        with d.step(f"whole game, {preset} (human vs expert, by presses)"):
            d.new_game(["human", "expert"], preset)
            play_by_presses(d, SWITCH16, game_seconds)
            d.check_all_frames("game over")
    for level in SWYTCH_LEVELS:
        with d.step(f"whole game, Swytch (human vs {level}, by presses)"):
            d.new_game_of(SWYTCH, ["human", level], first=0)
            play_by_presses(d, SWYTCH, game_seconds)
            d.check_all_frames("Swytch game over")
    with d.step("block mid-discard (forced dice)"):
        block_mid_discard(d, seen)
    with d.step("a refused green switch (the named seat holds the chip)"):
        refused_green(d, seen)
    with d.step("a points round"):
        d.new_game(["human", "easy"], "tablier", points=True)
        st = play_by_presses(d, SWITCH16, game_seconds, until=lambda st: st.round_pending)
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
    if restart is not None:
        with d.step("power cut mid-game: the unit resumes the same position"):
            d.new_game(["human", "expert"], "pressman-2003")
            play_by_presses(d, SWITCH16, game_seconds, max_turns=6)
            lines = d.c.request("transcript")["lines"]
            d.c = restart()
            d.hello = d.c.request("hello")
            d.c.request("subscribe", events=["frame", "action", "phase"])
            d.wait_for("resumed", lambda s: s["mode"] == "play", timeout=10)
            d.check_all_frames("the resumed game")
            after = d.c.request("transcript")["lines"]
            if after[: len(lines)] != lines:
                raise StepFailed("the resumed journal is not the one before the cut")
            d.check_all_frames("after the power cut")
    d.report.notes.append(f"seen while playing: {seen or 'nothing special'}")
    return d.report


def protocol_steps(d: UnitDriver) -> None:
    with d.step("hello"):
        h = d.hello
        if h.get("protocol") != 1:
            raise StepFailed(f"protocol {h.get('protocol')}")
    checks = [
        ("garbage", b"\x00\xff garbage \x7f\n", "framing"),
        ("bad checksum", encode({"id": 9, "op": "state"})[:-3] + b"00\n", "checksum"),
        ("overlong frame", b"x" * 5000 + b"\n", "overlong"),
        ("unknown op", encode({"id": 99001, "op": "explode"}), "unknown_op"),
        ("malformed field", encode({"id": 99002, "op": "frame", "seat": "one"}), "bad_field"),
        ("old version", b'{"v":0,"op":"hello"}*' + b"%08x" % 0 + b"\n", None),
    ]
    for name, data, code in checks:
        with d.step(f"bad input: {name}"):
            before = d.state()
            d.c.drain_events()
            d.c.write(data)
            got = d.c.wait_event(lambda m: m.get("ok") is False, 2.0)
            if got is None:
                raise StepFailed("no error reply")
            if code is not None and got.message["error"]["code"] != code:
                raise StepFailed(f"error {got.message['error']} (wanted {code})")
            after = d.state()
            if (after["state"], after["actions"]) != (before["state"], before["actions"]):
                raise StepFailed("the state changed")


def block_mid_discard(d: UnitDriver, seen: dict[str, int]) -> None:
    """Seat A rolls block (takes the chip), seat B rolls dice that discard; A
    presses CHIP during B's discards: the chip lands on B's deck."""
    st = d.new_game(["human", "human"], "tablier")
    state, _ = d.position()
    a = state.turn
    d.force_next(state, [6], "block")
    d.press(a, "yes")
    state = d.settle_until(lambda s: s.turn != a or s.phase.value == "decide")
    if state.turn == a:  # decide after the block roll: pass
        d.press(a, "no")
        state = d.settle_until(lambda s: s.turn != a)
    if state.chip_holder != a:
        raise StepFailed(f"{seat_name(a)} did not take the chip: {state.to_json()}")
    b = state.turn
    d.force_next(state, [1, 2, 3], "blank")
    d.skip_shown_roll(b)
    d.press(b, "yes")
    d.settle_until(lambda s: s.phase.value == "discard", timeout=3)
    d.press(a, "chip")
    seen["block mid-discard"] = seen.get("block mid-discard", 0) + 1
    state = d.settle_until(lambda s: s.chip_on_seat is not None)
    d.check_all_frames("after the block")
    del st


def refused_green(d: UnitDriver, seen: dict[str, int]) -> None:
    """A takes the chip (block); B rolls green and names A; A refuses with YES."""
    d.new_game(["human", "human"], "tablier")
    state, _ = d.position()
    a = state.turn
    d.force_next(state, [6], "block")
    d.press(a, "yes")
    state = d.settle_until(lambda s: s.turn != a or s.phase.value == "decide")
    if state.turn == a:
        d.press(a, "no")
        state = d.settle_until(lambda s: s.turn != a)
    b = state.turn
    d.force_next(state, [1, 2, 4], "green")
    d.skip_shown_roll(b)
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
    seen["refused green"] = seen.get("refused green", 0) + 1
    state = d.settle_until(lambda s: s.phase.value != "green_refusal")
    if state.phase.value == "green" and not state.refused_mask >> a & 1:
        raise StepFailed(f"{seat_name(a)}'s refusal is not in the position: {state.to_json()}")
    d.check_all_frames("green refused")
    if state.phase.value == "green":  # the roller names nobody else: "no switch"
        d.choose(b, state, lambda action: getattr(action, "target", 0) is None)
        d.settle_until(lambda s: s.phase.value != "green")
        d.check_all_frames("after the green switch")
