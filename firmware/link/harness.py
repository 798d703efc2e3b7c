"""``switch16 hil``: scripted games and a built-in suite, played through the link.

The harness only talks to the unit through :class:`~.client.LinkClient`: it presses
buttons (test mode), reads the state, the transcript and each seat's frame, and checks
every frame it looks at against :func:`firmware.screens.render_seat` of the position it
replays from the unit's own transcript. The same code runs against the unit on mocked
GPIO (a pty, ``socket://``, ``rfc2217://``), ``sim --headless --link`` and a real unit.

Script format (``*.hil``, one step a line, ``#`` comments; seats 0-based)::

    newgame human,human rules=tablier [points] [first=0]  # a preset game, its roll-off
                                    # (first=: who wins it)
    dice 6,6,6 block                # force the next roll (repeatable)
    press 0 yes [MS]  |  hold 0 chip  |  release 0 chip  |  shake 600
    wait 0.5                        # seconds (virtual clock: advanced)
    expect phase decide [turn 1]    # waits up to 5 s for it
    expect state {"chip": {"held_by": 0}}   # a subset of the STATE JSON
    expect text 1 "RISK"            # the seat's expected screen says it, and the glass
                                    # equals render_seat of the replayed position
    expect frame 1 golden.png       # the glass equals a golden image (1-bit)
    expect frame 1 render           # the glass equals render_seat of the position
"""

from __future__ import annotations

import base64
import contextlib
import functools
import json
import random
import shlex
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from statistics import median
from typing import Any

from firmware.engine.seats import seat_name, seat_number

from .client import LinkClient, LinkError

#: How long an ``expect`` waits for the unit to get there.
EXPECT_TIMEOUT_S = 5.0
#: A frame may differ from the position's render this long (a 2 s banner, a tumble).
SETTLE_S = 3.0
#: Polling on a real clock: this long between looks.
POLL_S = 0.02
#: Polling on a virtual clock: advance to the unit's next deadline, at most this far.
IDLE_MAX_S = 0.5


class StepFailed(AssertionError):
    pass


@dataclass
class Step:
    name: str
    ok: bool
    detail: str = ""
    seconds: float = 0.0


@dataclass
class Report:
    steps: list[Step] = field(default_factory=list)
    press_to_frame: list[float] = field(default_factory=list)  #: seconds
    frames_checked: int = 0  #: glass == render of the unit's view (any screen)
    plain_checked: int = 0  #: glass == render_seat(view_for(state)) as well (plain play)
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(s.ok for s in self.steps)

    def text(self) -> str:
        lines = []
        for s in self.steps:
            mark = "PASS" if s.ok else "FAIL"
            lines.append(
                f"{mark} {s.name} ({s.seconds:.2f} s){': ' + s.detail if s.detail else ''}"
            )
        return "\n".join([*lines, self.summary()])

    def summary(self) -> str:
        lines: list[str] = []
        lines.extend(f"note: {n}" for n in self.notes)
        lines.append(f"frames checked against render_seat: {self.frames_checked} "
                     f"({self.plain_checked} of them plain play, also against the "
                     f"engine-only view)")  # fmt: skip
        if self.press_to_frame:
            ms = sorted(t * 1000 for t in self.press_to_frame)
            p95 = ms[min(len(ms) - 1, int(len(ms) * 0.95))]
            lines.append(f"press -> frame over the link: n={len(ms)} median {median(ms):.1f} ms, "
                         f"p95 {p95:.1f} ms, max {ms[-1]:.1f} ms")  # fmt: skip
        passed = sum(s.ok for s in self.steps)
        lines.append(f"{'PASS' if self.ok else 'FAIL'}: {passed}/{len(self.steps)} steps")
        return "\n".join(lines)


def expected_frame(state: Any, kinds: tuple[str, ...], seat: int, shift_counter: int = 0) -> Any:
    """What ``seat`` shows for ``state`` when nothing else is up (no menu moved, no
    banner, no animation, no hint): render_seat of the game view."""
    from firmware.screens import render_seat
    from firmware.unit.ui_state import UiState
    from firmware.unit.views import seat_view

    return render_seat(seat_view(UiState.playing(state, kinds, shift_counter), seat))


def expected_frames(snap: dict[str, Any], state: Any, seat: int) -> tuple[Any, Any]:
    """What ``seat`` must show for a ``ui`` snapshot and the replayed ``state``: (the
    render of :func:`~firmware.unit.views.seat_view` of the unit's UI state over that
    position, the NOT SAVED notice included; the render of the plain game view when
    the seat shows plain play, else None)."""
    from firmware.screens import render_seat
    from firmware.screens.notice import with_notice
    from firmware.unit.loop import NOT_SAVED
    from firmware.unit.ui_state import UiState
    from firmware.unit.views import seat_view

    ui = UiState.from_json(snap, state)
    image = render_seat(seat_view(ui, seat))
    if not snap["saving"]:
        image = with_notice(image, NOT_SAVED)
    plain = None
    if snap["saving"] and ui.plain(seat):
        plain = expected_frame(state, ui.kinds, seat, ui.shift_counter)
    return image, plain


def _ui_of(snap: dict[str, Any], seat: int) -> str:
    from firmware.unit.ui_state import UiState

    return ", ".join(UiState.from_json(snap, None).extras(seat)) or "plain"


def _replay(lines: list[str]) -> Any:
    from firmware.transcript import replay_lines

    return replay_lines(lines)


class Harness:
    """Drives one unit through a connected :class:`LinkClient`."""

    def __init__(self, client: LinkClient, *, seed: int = 1, check_frames: bool = True,
                 progress: Callable[[str], None] | None = None,
                 mismatch_dir: Path | None = None) -> None:  # fmt: skip
        self.progress = progress
        self.mismatch_dir = mismatch_dir
        self.c = client
        self.report = Report()
        self.rng = random.Random(seed)
        self.check_frames = check_frames
        self.hello = client.request("hello")
        self.virtual = self.hello.get("clock") == "virtual"
        #: the unit's time as the last advance left it (virtual clock)
        self._unit_time = float(client.request("state")["time"]) if self.virtual else 0.0
        self._kinds: tuple[str, ...] = ()
        self.c.request("subscribe", events=["frame", "action", "phase"])

    # ----------------------------------------------------------- plumbing
    @contextmanager
    def step(self, name: str) -> Iterator[Step]:
        started = time.perf_counter()
        step = Step(name, True)
        try:
            yield step
        except (StepFailed, LinkError) as exc:
            step.ok, step.detail = False, str(exc)
        step.seconds = time.perf_counter() - started
        self.report.steps.append(step)
        if self.progress is not None:
            detail = f": {step.detail}" if step.detail else ""
            self.progress(f"{'PASS' if step.ok else 'FAIL'} {name} ({step.seconds:.2f} s){detail}")

    def pause(self, seconds: float) -> None:
        if self.virtual:
            self.advance(seconds)
        else:
            time.sleep(seconds)

    def advance(self, seconds: float, to_next: bool = False) -> None:
        extra = {"next": True} if to_next else {}
        self._unit_time = float(self.c.request("advance", seconds=seconds, **extra)["time"])

    def idle(self, real_s: float = POLL_S) -> None:
        """Let the unit get on between two looks: on a virtual clock up to its next
        deadline (so no state it passes through is skipped), else ``real_s``."""
        if self.virtual:
            self.advance(IDLE_MAX_S, to_next=True)
        else:
            time.sleep(real_s)

    def now(self) -> float:
        """The clock every wait and time limit of the harness runs on: the unit's time
        on a virtual clock (however slow the link), else real time."""
        return self._unit_time if self.virtual else time.monotonic()

    def state(self) -> dict[str, Any]:
        return self.c.request("state")

    def position(self) -> tuple[Any, tuple[str, ...]]:
        """The replayed position of the unit's transcript and the seats' kinds."""
        from firmware.transcript import replay_lines

        lines = self.c.request("transcript")["lines"]
        if not lines:
            return None, ()
        result = replay_lines(lines)
        if not result.ok:
            raise StepFailed(f"the unit's transcript does not replay: {result.error}")
        assert result.state is not None
        kinds = tuple(json.loads(lines[0]).get("seats") or ("human",) * result.state.players)
        self._kinds = kinds
        return result.state, kinds

    def wait_for(self, what: str, pred: Callable[[dict[str, Any]], bool],
                 timeout: float = EXPECT_TIMEOUT_S) -> dict[str, Any]:  # fmt: skip
        end = self.now() + timeout
        while True:
            st = self.state()
            if pred(st):
                return st
            if self.now() > end:
                raise StepFailed(f"{what}: not within {timeout} s; the unit has "
                                 f"{json.dumps(st.get('state'))} ({st.get('mode')})")  # fmt: skip
            self.idle()

    def press(self, seat: int, button: str, ms: float = 60) -> None:
        """Press and time the first frame that follows."""
        self.c.drain_events()
        sent = time.perf_counter()
        self.c.request("press", seat=seat, button=button, ms=ms)
        if self.virtual:
            self.advance(ms / 1000 + 0.05)
        got = self.c.wait_event(lambda m: m.get("event") == "frame", 1.0)
        if got is not None:
            self.report.press_to_frame.append(got.at - sent)

    def check_all_frames(self, what: str) -> None:
        """Every seat's glass equals what the harness renders itself for that moment.

        One ``ui`` request gives the unit's UI state and every seat's glass from the
        same moment of its loop; the harness replays the unit's transcript up to the
        line that state reflects (it must equal the state the unit plays), builds each
        seat's view with :func:`firmware.unit.views.seat_view` over that replayed state
        and the reported UI (menus, banners, dice tumbling, the set-up, the roll-off,
        points tables and end screens alike), renders it with ``render_seat`` and
        compares. Where the seat shows plain play (no menu moved, no banner, no
        animation, no hint, no message) the glass must also equal ``render_seat`` of
        :func:`expected_frame`, built from the engine state alone. Only a moment in
        which the loop still owes a display its frame is waited out (up to
        :data:`SETTLE_S`); any mismatch fails the step.
        """
        if not self.check_frames:
            return
        end = self.now() + SETTLE_S
        while True:
            snap = self.c.request("ui", glass=True)
            if not snap["pending"]:
                break
            if self.now() > end:
                raise StepFailed(f"{what}: the displays were still being refreshed after "
                                 f"{SETTLE_S} s")  # fmt: skip
            self.idle()
        lines = self.c.request("transcript")["lines"][: snap["lines"]]
        state = None
        if lines:
            result = _replay(lines)
            if not result.ok:
                raise StepFailed(f"{what}: the unit's transcript does not replay: {result.error}")
            state = result.state
        if snap["state"] is not None and (state is None or state.to_json() != snap["state"]):
            replayed = None if state is None else json.dumps(state.to_json())
            raise StepFailed(f"{what}: the unit plays {json.dumps(snap['state'])} but its "
                             f"transcript replays to {replayed}")  # fmt: skip
        if snap["state"] is None:
            state = None
        bad = []
        for seat, glass in enumerate(snap["glass"]):
            data = base64.b64decode(glass["data"])
            want, plain = expected_frames(snap, state, seat)
            if data != want.tobytes():
                bad.append(f"{seat_name(seat)} ≠ its render ({snap['mode']}, {_ui_of(snap, seat)})")
                self._save_mismatch(what, seat, data, want)
                continue
            self.report.frames_checked += 1
            if plain is not None:
                if data != plain.tobytes():
                    bad.append(f"{seat_name(seat)} ≠ render_seat of the plain game view")
                    self._save_mismatch(what, seat, data, plain)
                    continue
                self.report.plain_checked += 1
        if bad:
            where = json.dumps(state.to_json()) if state is not None else "no game"
            raise StepFailed(f"{what}: {'; '.join(bad)} at {where}")

    def seat_view(self, seat: int) -> Any:
        """The view ``seat`` shows now, drawn from a ``ui`` snapshot over the replayed
        transcript (as :meth:`check_all_frames` renders it)."""
        from firmware.unit.ui_state import UiState
        from firmware.unit.views import seat_view

        snap = self.c.request("ui")
        lines = self.c.request("transcript")["lines"][: snap["lines"]]
        state = _replay(lines).state if lines and snap["state"] is not None else None
        return seat_view(UiState.from_json(snap, state), seat)

    def _save_mismatch(self, what: str, seat: int, glass: bytes, want: Any) -> None:
        if self.mismatch_dir is None:
            return
        from PIL import Image

        self.mismatch_dir.mkdir(parents=True, exist_ok=True)
        n = len(list(self.mismatch_dir.glob("*-glass.png")))
        stem = f"{n:03d}-seat{seat_number(seat)}"
        Image.frombytes("1", want.size, glass).save(self.mismatch_dir / f"{stem}-glass.png")
        want.save(self.mismatch_dir / f"{stem}-render.png")
        where = self.mismatch_dir / stem
        self.report.notes.append(f"mismatch {what!r} {seat_name(seat)}: {where}-*.png")

    # ------------------------------------------------------------ playing
    def new_game(self, seats: list[str], rules: str, points: bool = False,
                 first: int | None = None) -> dict[str, Any]:  # fmt: skip
        extra = {} if first is None else {"first": first}
        self.c.request("newgame", seats=seats, rules=rules, points=points, **extra)
        self.check_all_frames("the new game's roll-off")
        return self.wait_for("the game starts", lambda s: s["mode"] == "play"
                             and s["state"] is not None, timeout=10)  # fmt: skip

    def move(self, state: Any, kinds: tuple[str, ...], seen: dict[str, int]) -> bool:
        """Press the button a human seat must press now (the one
        :data:`firmware.unit.controls.CONTROLS` binds to what it chose); False if none
        is due."""
        from firmware.engine import ACCEPT, LEAVE, PASS, REFUSE, RISK, TAKE, Phase
        from firmware.unit.controller import waiting_seat
        from firmware.unit.controls import Do, button_for, row

        human = [k == "human" for k in kinds]
        phase = state.phase
        if phase is Phase.OVER:
            return False
        if phase is Phase.DISCARD:
            holder = state.chip_holder
            if holder is not None and holder != state.turn and human[holder]:
                seen["block mid-discard"] = seen.get("block mid-discard", 0) + 1
                self.press(holder, button_for(row(state, holder), Do.BLOCK).value)
                return True
            return False
        seat = waiting_seat(state)
        if seat is None or not human[seat]:
            return False
        wanted: Any
        menu = None
        if phase is Phase.ROLL:
            wanted = Do.ROLL
        elif phase is Phase.DECIDE:
            wanted = RISK if self.rng.random() < 0.35 else PASS
        elif phase is Phase.GREEN_REFUSAL:
            refuse = self.rng.random() < 0.7
            if refuse:
                seen["refused green"] = seen.get("refused green", 0) + 1
            wanted = REFUSE if refuse else ACCEPT
        elif phase is Phase.BLOCK:
            wanted = TAKE if self.rng.random() < 0.5 else LEAVE
        else:  # green, red: confirm the highlighted option
            wanted, menu = Do.OK, False
        self.press(seat, button_for(row(state, seat, menu), wanted).value)
        return True

    def play(self, until: Callable[[Any], bool], max_s: float, seen: dict[str, int],
             force: Callable[[Any], None] | None = None) -> Any:  # fmt: skip
        """Play the human seats until ``until(state)``; checks frames at every human
        decision. Returns the last position."""
        from firmware.unit.controller import waiting_seat

        end = self.now() + max_s
        last_actions = -1
        while self.now() < end:
            info = self.state()
            state, kinds = self.position()
            if state is None:
                self.idle(0.05)
                continue
            if until(state):
                return state
            seat = waiting_seat(state)
            if info["actions"] != last_actions and seat is not None:
                if kinds[seat] == "human":
                    self.check_all_frames(f"after action {info['actions']}")
                last_actions = info["actions"]
            if force is not None:
                force(state)
            before = info["actions"]
            if self.move(state, kinds, seen):
                # no action: a block pressed after the window closed, a swallowed press
                with contextlib.suppress(StepFailed):
                    self.wait_for("the press to act",
                                  functools.partial(_changed, before), timeout=3)  # fmt: skip
            else:
                self.idle(0.03)
        raise StepFailed(f"not finished within {max_s} s")

    # ------------------------------------------------------------ suites
    def suite(self, presets: list[str] | None = None, game_seconds: float = 60.0,
              restart: Callable[[], LinkClient] | None = None) -> Report:  # fmt: skip
        from firmware.engine import PRESETS

        self._protocol_steps()
        if not self.hello.get("test_mode"):
            with self.step("production unit refuses test ops") as _:
                before = self.state()
                try:
                    self.c.request("press", seat=0, button="yes")
                    raise StepFailed("press was accepted")
                except LinkError as exc:
                    if exc.code != "not_test_mode":
                        raise StepFailed(f"wrong error {exc.code}") from None
                if self.state()["state"] != before["state"]:
                    raise StepFailed("the state changed")
            self.report.notes.append("not in test mode: games skipped")
            return self.report
        seen: dict[str, int] = {}
        for preset in presets or list(PRESETS):
            with self.step(f"whole game, {preset} (human vs expert, by presses)"):
                self.new_game(["human", "expert"], preset)
                self.play(lambda st: st.game_over, game_seconds, seen)
                self.check_all_frames("game over")
        with self.step("block mid-discard (forced dice)"):
            self._block_mid_discard(seen)
        with self.step("a refused green switch (the named seat holds the chip)"):
            self._refused_green(seen)
        with self.step("a points round"):
            self.new_game(["human", "easy"], "tablier", points=True)
            st = self.play(lambda st: st.round_pending or st.game_over, game_seconds, seen)
            if st.scores is None:
                raise StepFailed("no scores in a points game")
            self.check_all_frames("the points table")
            if st.round_pending:  # YES on the table: the next round's roll-off, then play
                winner = next(s for s in range(st.players) if self._kinds[s] == "human")
                before = self.state()["actions"]
                self.press(winner, "yes")
                self.check_all_frames("the next round's roll-off")
                self.wait_for("the next round", lambda s: s["actions"] > before
                              and s["mode"] == "play", timeout=10)  # fmt: skip
                self.check_all_frames("the next round")
        if restart is not None:
            with self.step("power cut mid-game: the unit resumes the same position"):
                self.new_game(["human", "expert"], "pressman-2003")
                self.play(lambda st: len(self.c.request("transcript")["lines"]) > 6,
                          game_seconds, seen)  # fmt: skip
                lines = self.c.request("transcript")["lines"]
                self.c = restart()
                self.hello = self.c.request("hello")
                self.c.request("subscribe", events=["frame", "action", "phase"])
                self.wait_for("resumed", lambda s: s["mode"] == "play", timeout=10)
                self.check_all_frames("the resumed game")
                after = self.c.request("transcript")["lines"]
                if after[: len(lines)] != lines:
                    raise StepFailed("the resumed journal is not the one before the cut")
                self.check_all_frames("after the power cut")
        self.report.notes.append(f"seen while playing: {seen or 'nothing special'}")
        return self.report

    def _protocol_steps(self) -> None:
        from .protocol import encode

        with self.step("hello"):
            h = self.hello
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
            with self.step(f"bad input: {name}"):
                before = self.state()
                self.c.drain_events()
                self.c.write(data)
                got = self.c.wait_event(lambda m: m.get("ok") is False, 2.0)
                if got is None:
                    raise StepFailed("no error reply")
                if code is not None and got.message["error"]["code"] != code:
                    raise StepFailed(f"error {got.message['error']} (wanted {code})")
                after = self.state()
                if (after["state"], after["actions"]) != (before["state"], before["actions"]):
                    raise StepFailed("the state changed")

    def _force_next(self, state: Any, dice: list[int], face: str) -> None:
        n = state.dice_count()
        self.c.request("dice", rolls=[{"dice": (dice * 6)[:n], "switch": face}])

    def _block_mid_discard(self, seen: dict[str, int]) -> None:
        """Seat A rolls block (takes the chip), seat B rolls dice that discard; A
        presses CHIP during B's discards: the chip lands on B's deck."""
        st = self.new_game(["human", "human"], "tablier")
        state, _ = self.position()
        a = state.turn
        self._force_next(state, [6], "block")
        self.press(a, "yes")
        state = self._settle_until(lambda s: s.turn != a or s.phase.value == "decide")
        if state.turn == a:  # decide after the block roll: pass
            self.press(a, "no")
            state = self._settle_until(lambda s: s.turn != a)
        if state.chip_holder != a:
            raise StepFailed(f"{seat_name(a)} did not take the chip: {state.to_json()}")
        b = state.turn
        self._force_next(state, [1, 2, 3], "blank")
        self.press(b, "yes")
        self._settle_until(lambda s: s.phase.value == "discard", timeout=3)
        self.press(a, "chip")
        seen["block mid-discard"] = seen.get("block mid-discard", 0) + 1
        state = self._settle_until(lambda s: s.chip_on_seat is not None)
        self.check_all_frames("after the block")
        del st

    def _refused_green(self, seen: dict[str, int]) -> None:
        """A takes the chip (block); B rolls green and names A; A refuses with YES."""
        self.new_game(["human", "human"], "tablier")
        state, _ = self.position()
        a = state.turn
        self._force_next(state, [6], "block")
        self.press(a, "yes")
        state = self._settle_until(lambda s: s.turn != a or s.phase.value == "decide")
        if state.turn == a:
            self.press(a, "no")
            state = self._settle_until(lambda s: s.turn != a)
        b = state.turn
        self._force_next(state, [1, 2, 4], "green")
        self.press(b, "yes")
        end = self.now() + 5
        while True:
            state = self._settle_until(lambda s: s.phase.value in ("green", "decide", "roll"))
            if state.phase.value == "green":
                break
            if state.turn != b or self.now() > end:
                raise StepFailed(f"no green switch to name: {state.to_json()}")
            self.press(b, "no")  # decide: pass
            self._settle_until(lambda s: s.phase.value != "decide")
        self.check_all_frames("the green menu")
        self._choose(b, state, lambda action: getattr(action, "target", None) == a)
        state = self._settle_until(lambda s: s.phase.value != "green")
        if state.phase.value != "green_refusal":
            raise StepFailed(f"{seat_name(a)} was not asked: {state.to_json()}")
        self.check_all_frames("green asked")
        self.press(a, "yes")
        seen["refused green"] = seen.get("refused green", 0) + 1
        state = self._settle_until(lambda s: s.phase.value != "green_refusal")
        if state.phase.value == "green" and not state.refused_mask >> a & 1:
            raise StepFailed(f"{seat_name(a)}'s refusal is not in the position: {state.to_json()}")
        self.check_all_frames("green refused")
        if state.phase.value == "green":  # the roller names nobody else: "no switch"
            self._choose(b, state, lambda action: getattr(action, "target", 0) is None)
            self._settle_until(lambda s: s.phase.value != "green")
            self.check_all_frames("after the green switch")

    def _choose(self, seat: int, state: Any, want: Callable[[Any], bool]) -> None:
        """In ``seat``'s open menu, step to the option whose action ``want``s, then take it."""
        from firmware.unit.controls import Do, button_for, row
        from firmware.unit.game_views import choices

        options = choices(state, seat)
        index = next((i for i, (_, action) in enumerate(options) if want(action)), None)
        if index is None:
            labels = [o for o, _ in options]
            raise StepFailed(f"{seat_name(seat)}'s menu has no such option: {labels}")
        menu = self._menu(seat)
        if menu is None:
            raise StepFailed(f"{seat_name(seat)} has no menu open")
        keys = row(state, seat, menu.placing)
        for _ in range((index - menu.highlight) % len(options)):
            self.press(seat, button_for(keys, Do.NEXT).value)
        highlight = None if (menu := self._menu(seat)) is None else menu.highlight
        if highlight != index:
            raise StepFailed(f"{seat_name(seat)}'s menu highlights {highlight}, not {index}")
        self.press(seat, button_for(keys, Do.OK).value)

    def _menu(self, seat: int) -> Any:
        """``seat``'s open menu now (an :class:`~firmware.unit.ui_state.OpenMenu`) or None."""
        from firmware.unit.ui_state import UiState

        return UiState.from_json(self.c.request("ui"), None).menu(seat)

    def _settle_until(self, pred: Callable[[Any], bool], timeout: float = 5.0) -> Any:
        end = self.now() + timeout
        while True:
            state, _ = self.position()
            if state is not None and pred(state):
                return state
            if self.now() > end:
                raise StepFailed(f"not reached: {None if state is None else state.to_json()}")
            self.idle(0.03)

    # ------------------------------------------------------------ scripts
    def run_script(self, path: Path) -> Report:
        for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            line = raw.split("#", 1)[0].strip() if not raw.lstrip().startswith("expect state") \
                else raw.strip()  # fmt: skip
            if not line:
                continue
            with self.step(f"{path.name}:{number} {line}"):
                self._script_line(line, path.parent)
        return self.report

    def _script_line(self, line: str, base: Path) -> None:
        from PIL import Image

        if line.startswith("expect state "):
            want = json.loads(line[len("expect state ") :])
            self.wait_for(line, lambda s: _subset(want, s["state"]))
            return
        words = shlex.split(line)
        cmd, args = words[0], words[1:]
        if cmd == "newgame":
            opts = dict(a.split("=", 1) for a in args[1:] if "=" in a)
            first = int(opts["first"]) if "first" in opts else None
            self.new_game(args[0].split(","), opts.get("rules", "pressman-2003"),
                          "points" in args[1:], first)  # fmt: skip
        elif cmd == "dice":
            dice = [int(d) for d in args[0].split(",")]
            self.c.request("dice", rolls=[{"dice": dice, "switch": args[1] if len(args) > 1
                                           else "blank"}])  # fmt: skip
        elif cmd == "press":
            self.press(int(args[0]), args[1], float(args[2]) if len(args) > 2 else 60)
        elif cmd in ("hold", "release"):
            self.c.request(cmd, seat=int(args[0]), button=args[1])
        elif cmd == "shake":
            self.c.request("shake", ms=float(args[0]))
        elif cmd == "wait":
            self.pause(float(args[0]))
        elif cmd == "expect" and args[0] == "phase":
            turn = int(args[3]) if len(args) > 3 and args[2] == "turn" else None
            self.wait_for(line, lambda s: s["state"] is not None
                          and s["state"]["phase"] == args[1]
                          and (turn is None or s["state"]["turn"] == turn))  # fmt: skip
        elif cmd == "expect" and args[0] == "text":
            seat, text = int(args[1]), args[2]
            self.check_all_frames(line)
            view = self.seat_view(seat)
            if text.lower() not in repr(view).lower():
                raise StepFailed(f"{seat_name(seat)}'s screen has no {text!r}: {view!r}")
        elif cmd == "expect" and args[0] == "frame":
            seat, what = int(args[1]), args[2]
            if what == "render":
                self.check_all_frames(line)
                return
            golden = Image.open(base / what).convert("1")
            if self.c.frame(seat)[0] != golden.tobytes():
                raise StepFailed(f"{seat_name(seat)}'s glass differs from {what}")
        else:
            raise StepFailed(f"unknown step {line!r}")


def _changed(before: int, info: dict[str, Any]) -> bool:
    return bool(info["actions"] != before)


def _subset(want: Any, have: Any) -> bool:
    if isinstance(want, dict):
        return isinstance(have, dict) and all(k in have and _subset(v, have[k])
                                              for k, v in want.items())  # fmt: skip
    if isinstance(want, list):
        return isinstance(have, list) and len(want) == len(have) and all(
            _subset(w, h) for w, h in zip(want, have, strict=True))  # fmt: skip
    return bool(want == have)
