"""The unit driver of ``switch16 hil``: talks to one unit through a
:class:`~.client.LinkClient` only (presses buttons in test mode, reads the state, the
transcript and each seat's glass), waits on the unit's clock, steps through menus, and
has every seat's glass checked by :func:`.expected.check_glass`; :mod:`.press_play`
plays a game's human seats by the presses the game gives. The built-in suite (:mod:`.suite`) and the
script interpreter (:mod:`.script`) are written in its terms."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from PIL import Image

from firmware.games.registry import get_game
from firmware.games.switch16.controls import row
from firmware.games.switch16.game_views import choices
from firmware.games.switch16.ui_state import UiState
from firmware.kernel.seats import seat_name, seat_number
from firmware.transcript import replay_lines
from firmware.unit.controls import Do, button_for

from .client import LinkClient, LinkError
from .expected import check_glass, replayed, ui_from_json
from .report import Report, Step, StepFailed

#: How long an ``expect`` waits for the unit to get there.
EXPECT_TIMEOUT_S = 5.0
#: A frame may differ from the position's render this long (a 2 s banner, a tumble).
SETTLE_S = 3.0
#: Polling on a real clock: this long between looks.
POLL_S = 0.02
#: Polling on a virtual clock: advance to the unit's next deadline, at most this far.
IDLE_MAX_S = 0.5


class Patience:
    """A game's time limit that runs only while the game stands still: it is spent when
    no action has been committed for ``seconds`` of the unit's time. A whole game takes
    as long as its timing makes it (minutes with the reference timing's think times);
    a stuck one still fails soon."""

    def __init__(self, driver: UnitDriver, seconds: float) -> None:
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


class UnitDriver:
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
        seat's view with :func:`~firmware.games.switch16.seat_views.seat_view` over that replayed
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
    def new_game(self, seats: list[str], rules: str, points: bool = False,
                 first: int | None = None) -> dict[str, Any]:  # fmt: skip
        """A preset Switch 16 game, past its roll-off (frames checked on it)."""
        return self.new_game_of("switch16", seats, first, rules=rules, points=points)

    def new_game_of(self, game: str, seats: list[str], first: int | None = None,
                    **options: Any) -> dict[str, Any]:  # fmt: skip
        """A preset game of ``game`` with its set-up ``options``, past its roll-off."""
        extra = {} if first is None else {"first": first}
        self.c.request("newgame", game=game, seats=seats, **options, **extra)
        self.check_all_frames("the new game's roll-off")
        return self.wait_for("the game starts", lambda s: s["mode"] == "play"
                             and s["state"] is not None, timeout=10)  # fmt: skip

    def force_next(self, state: Any, dice: list[int], face: str) -> None:
        """Force the next roll: ``dice`` (repeated to the number rolled), ``face`` up."""
        n = state.dice_count()
        self.c.request("dice", rolls=[{"dice": (dice * 6)[:n], "switch": face}])

    def choose(self, seat: int, state: Any, want: Callable[[Any], bool]) -> None:
        """In ``seat``'s open menu, step to the option whose action ``want``s, then take it."""
        options = choices(state, seat)
        index = next((i for i, (_, action) in enumerate(options) if want(action)), None)
        if index is None:
            labels = [o for o, _ in options]
            raise StepFailed(f"{seat_name(seat)}'s menu has no such option: {labels}")
        menu = self.menu(seat)
        if menu is None:
            raise StepFailed(f"{seat_name(seat)} has no menu open")
        keys = row(state, seat, menu.placing)
        for _ in range((index - menu.highlight) % len(options)):
            self.press(seat, button_for(keys, Do.NEXT).value)
        highlight = None if (menu := self.menu(seat)) is None else menu.highlight
        if highlight != index:
            raise StepFailed(f"{seat_name(seat)}'s menu highlights {highlight}, not {index}")
        self.press(seat, button_for(keys, Do.OK).value)

    def menu(self, seat: int) -> Any:
        """``seat``'s open menu now (an :class:`~firmware.unit.ui_state.OpenMenu`) or None."""
        return UiState.from_json(self.c.request("ui"), None).menu(seat)

    def skip_shown_roll(self, seat: int) -> None:
        """A turn-ending roll left up (``roll_show_s``) takes the next press of any seat
        and does nothing else: ``seat`` presses it away before it acts."""
        if self.c.request("ui").get("roll_shown") is None:
            return
        self.press(seat, "no")
        self.wait_for(
            "the shown roll to go",
            lambda _: self.c.request("ui").get("roll_shown") is None,
            timeout=3,
        )

    def settle_until(self, pred: Callable[[Any], bool], timeout: float = 5.0) -> Any:
        end = self.now() + timeout
        while True:
            state, _ = self.position()
            if state is not None and pred(state):
                return state
            if self.now() > end:
                raise StepFailed(f"not reached: {None if state is None else state.to_json()}")
            self.idle(0.03)
