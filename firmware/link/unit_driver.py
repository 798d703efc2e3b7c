"""The unit driver of ``switch16 hil``: talks to one unit through a
:class:`~.client.LinkClient` only (presses buttons in test mode, reads the state, the
transcript and each seat's glass), waits on the unit's clock, steps through menus, and
has every seat's glass checked by :func:`.expected.check_glass`; :mod:`.press_play`
plays a game's human seats by the presses the game gives. It is the
:class:`~firmware.games.hil_scenarios.Rig` a game's scenarios drive; the built-in suite
(:mod:`.suite`) and the script interpreter (:mod:`.script`) are written in its terms."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from PIL import Image

from firmware.games.options import read_options
from firmware.games.registry import UnknownGameError, get_game
from firmware.kernel.seats import seat_name, seat_number
from firmware.transcript import replay_lines
from hal.events import Button

from .client import LinkClient, LinkError
from .expected import check_glass, replayed, ui_from_json
from .press_play import play_by_presses
from .report import Report, Step, StepFailed

#: How long an ``expect`` waits for the unit to get there.
EXPECT_TIMEOUT_S = 5.0
#: A frame may differ from the position's render this long (a 2 s banner, a tumble).
SETTLE_S = 3.0
#: Polling on a real clock: this long between looks.
POLL_S = 0.02
#: Polling on a virtual clock: advance to the unit's next deadline, at most this far.
IDLE_MAX_S = 0.5
#: How long an ``advance`` may take to answer: on a virtual clock the unit does its slow
#: work inline (a searching bot, the end-of-game review), as fast as the host's CPU.
ADVANCE_REPLY_S = 120.0


class UnitDriver:
    """Drives one unit through a connected :class:`LinkClient`: a game given up when it
    has had no action for ``game_seconds`` of the unit's time; ``restart`` cuts the
    unit's power and connects to it again (a rig that can)."""

    def __init__(self, client: LinkClient, *, seed: int = 1, check_frames: bool = True,
                 progress: Callable[[str], None] | None = None,
                 mismatch_dir: Path | None = None, game_seconds: float = 90.0,
                 restart: Callable[[], LinkClient] | None = None) -> None:  # fmt: skip
        self.progress = progress
        self.game_seconds = game_seconds
        self.restart = restart
        #: what was worth noting while playing (:meth:`saw`), how often
        self.seen: dict[str, int] = {}
        self.mismatch_dir = mismatch_dir
        self.c = client
        self.report = Report()
        self.rng = random.Random(seed)
        self.check_frames = check_frames
        self.hello = client.request("hello")
        self.virtual = self.hello.get("clock") == "virtual"
        #: the unit's time as the last advance left it (virtual clock)
        self._unit_time = float(client.request("state")["time"]) if self.virtual else 0.0
        #: the seats' kinds in the unit's transcript, as last read
        self.kinds_seen: tuple[str, ...] = ()
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
        wait = max(self.c.timeout, ADVANCE_REPLY_S)
        self._unit_time = float(self.c.request("advance", wait, seconds=seconds, **extra)["time"])

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

    def request(self, op: str, **fields: Any) -> dict[str, Any]:
        return self.c.request(op, **fields)

    def state(self) -> dict[str, Any]:
        return self.c.request("state")

    def saw(self, what: str) -> None:
        self.seen[what] = self.seen.get(what, 0) + 1

    def position(self) -> tuple[Any, tuple[str, ...]]:
        """The replayed position of the unit's transcript and the seats' kinds."""
        lines = self.c.request("transcript")["lines"]
        if not lines:
            return None, ()
        result = replay_lines(lines)
        if not result.ok:
            raise StepFailed(f"the unit's transcript does not replay: {result.error}")
        assert result.state is not None
        kinds = tuple(json.loads(lines[0]).get("seats") or ("human",) * result.state.players)
        self.kinds_seen = kinds
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
        seat's view with the game's :meth:`~firmware.games.game.Game.seat_view` over that replayed
        state
        and the reported UI (menus, banners, dice tumbling, the set-up, the roll-off,
        points tables and end screens alike), renders it with ``render_seat`` and
        compares. Where the seat shows plain play (no menu moved, no banner, no
        animation, no hint, no message) the glass must also equal the render of
        :meth:`~firmware.games.game_ui.GameUi.bare`, built from the engine state alone.
        Only a moment in which the loop still owes a display its frame is waited out (up to
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
        check = check_glass(what, snap, lines)
        self.report.frames_checked += check.checked
        self.report.plain_checked += check.plain
        for m in check.mismatches:
            self._save_mismatch(what, m.seat, m.glass, m.want)
        if check.why:
            raise StepFailed(check.why)

    def seat_view(self, seat: int) -> Any:
        """The view ``seat`` shows now, drawn from a ``ui`` snapshot over the replayed
        transcript (as :meth:`check_all_frames` renders it)."""
        snap = self.c.request("ui")
        lines = self.c.request("transcript")["lines"][: snap["lines"]]
        state = replayed("the seat's view", lines) if snap["state"] is not None else None
        return get_game(snap["game"]).seat_view(ui_from_json(snap, state), seat)

    def _save_mismatch(self, what: str, seat: int, glass: bytes, want: Any) -> None:
        if self.mismatch_dir is None:
            return
        self.mismatch_dir.mkdir(parents=True, exist_ok=True)
        n = len(list(self.mismatch_dir.glob("*-glass.png")))
        stem = f"{n:03d}-seat{seat_number(seat)}"
        Image.frombytes("1", want.size, glass).save(self.mismatch_dir / f"{stem}-glass.png")
        want.save(self.mismatch_dir / f"{stem}-render.png")
        where = self.mismatch_dir / stem
        self.report.notes.append(f"mismatch {what!r} {seat_name(seat)}: {where}-*.png")

    # ------------------------------------------------------------ playing
    def new_game(self, game: str, seats: Sequence[str], first: int | None = None,
                 **options: Any) -> dict[str, Any]:  # fmt: skip
        """A preset game of ``game`` past its roll-off (frames checked on it), its set-up
        the defaults of the game's options (:attr:`~firmware.games.game.Game.options`)
        but those given, so the unit's own defaults play no part; StepFailed names an
        unknown game or option or a bad value."""
        try:
            spec = get_game(game).options
            options = {o.name: o.default for o in spec} | read_options(spec, options)
        except (UnknownGameError, ValueError) as exc:
            raise StepFailed(f"newgame: {exc}") from None
        extra = {} if first is None else {"first": first}
        self.c.request("newgame", game=game, seats=list(seats), **options, **extra)
        self.check_all_frames("the new game's roll-off")
        return self.wait_for("the game starts", lambda s: s["mode"] == "play"
                             and s["state"] is not None, timeout=10)  # fmt: skip

    def play_by_presses(self, game: str, *, until: Callable[[Any], bool] | None = None,
                        max_turns: int = 400) -> Any:  # fmt: skip
        """:func:`.press_play.play_by_presses` with this driver's ``game_seconds``."""
        return play_by_presses(self, game, self.game_seconds, max_turns, until)

    def power_cut(self) -> None:
        """Cut the unit's power mid-game (``restart``) and talk to it again once back."""
        if self.restart is None:
            raise StepFailed("this rig cannot cut the unit's power")
        self.c = self.restart()
        self.hello = self.c.request("hello")
        self.c.request("subscribe", events=["frame", "action", "phase"])

    def choose(self, seat: int, state: Any, want: Callable[[Any], bool]) -> None:
        """Enter the legal action ``seat`` ``want``s by the presses its game gives
        (:meth:`~firmware.games.game.Game.presses_for`: a menu stepped to its option and
        confirmed); before the last press, that press must be all that is left."""
        presses = self._presses(seat, state, want)
        for button in presses[:-1]:
            self.press(seat, button.value)
        if (left := self._presses(seat, state, want)) != presses[-1:]:
            raise StepFailed(f"{seat_name(seat)} has {[b.value for b in left]} left to press, "
                             f"not {presses[-1].value}")  # fmt: skip
        self.press(seat, presses[-1].value)

    def _presses(self, seat: int, state: Any, want: Callable[[Any], bool]) -> tuple[Button, ...]:
        """The presses that enter ``seat``'s first legal action in ``state`` it ``want``s,
        from the unit's UI state now."""
        snap = self.c.request("ui")
        game, ui = get_game(snap["game"]), ui_from_json(snap, state)
        for action in state.legal_actions():
            if want(action) and (presses := game.presses_for(ui, seat, action)):
                return presses
        raise StepFailed(f"{seat_name(seat)} cannot enter such an action now by presses")

    def settle_until(self, pred: Callable[[Any], bool], timeout: float = 5.0) -> Any:
        end = self.now() + timeout
        while True:
            state, _ = self.position()
            if state is not None and pred(state):
                return state
            if self.now() > end:
                raise StepFailed(f"not reached: {None if state is None else state.to_json()}")
            self.idle(0.03)
