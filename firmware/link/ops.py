"""The link's op handlers: each request's fields checked by :class:`Args` (a refusal
names the field), the read ops answered from a :class:`~.snapshot.UnitSnapshot`, the
test ops given to the unit through the HAL (:class:`~.fingers.Fingers`), its clock, its
forced rolls and :meth:`~firmware.unit.loop.Unit.new_game`."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from firmware import package_version
from firmware.games.options import read_options
from firmware.games.registry import DEFAULT_GAME, UnknownGameError, get_game
from firmware.jsonsafe import short_repr
from firmware.kernel.seats import seat_name
from hal.clock import VirtualClock
from hal.events import Button

from .fingers import Fingers
from .protocol import MAX_REQUEST, PROTOCOL_VERSION
from .snapshot import UnitSnapshot, encode_image
from .transport import Counters

if TYPE_CHECKING:
    from firmware.unit import Unit

#: Events a subscription may ask for.
EVENT_KINDS = ("action", "phase", "frame")
#: Operations answered whatever the mode, and those that need ``test_mode``.
READ_OPS = ("hello", "state", "frame", "ui", "transcript", "subscribe", "stats")
TEST_OPS = ("press", "hold", "release", "shake", "dice", "chance", "advance", "newgame")
#: Most forced chance outcomes (rolls) that may wait at once.
MAX_FORCED = 1000
#: Longest press, hold or shake a test may ask for (ms).
MAX_MS = 60_000
#: A test shake's edges of the vibration switch come this often.
SHAKE_EDGE_MS = 20

#: Longest text of an exception quoted in an error message.
MESSAGE_CUT = 200

#: Run a callable at a time of the unit's clock (the server's timers).
Later = Callable[[float, Callable[[], None]], None]


def short(value: Any) -> str:
    """``value``'s repr for a message (a value a peer sent may be as wide or deep as its
    frame allows): cut short while it is written, never walked whole."""
    return short_repr(value, 40)


def cut(exc: Exception) -> str:
    """An exception's text for a message, cut short."""
    text = str(exc)
    return text if len(text) <= MESSAGE_CUT else text[:MESSAGE_CUT] + "…"


class RequestError(Exception):
    """A request refused: ``code`` for the reply, the message names the field."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class Ops:
    """Answers one request at a time, on the loop thread (:meth:`answer`)."""

    def __init__(self, unit: Unit, snapshot: UnitSnapshot, counters: Counters, later: Later,
                 *, test_mode: bool, config_hash: str) -> None:  # fmt: skip
        self.unit = unit
        self.snapshot = snapshot
        self.counters = counters
        self.later = later
        self.test_mode = test_mode
        self.config_hash = config_hash
        self.fingers = Fingers(unit.hal)
        self.subscribed: set[str] = set()
        self._advancing = False
        #: (seat, button) -> when the finger of the last ``press`` lifts (unit clock)
        self._lifts: dict[tuple[int, Button], float] = {}

    def answer(self, op: str, message: dict[str, Any]) -> dict[str, Any]:
        """The result of ``op`` (one of :data:`READ_OPS`, :data:`TEST_OPS`) or a
        :class:`RequestError`."""
        result: dict[str, Any] = getattr(self, f"_op_{op}")(Args(message))
        return result

    # ------------------------------------------------------------ read ops
    def _op_hello(self, args: Args) -> dict[str, Any]:
        args.done()
        clock = "virtual" if isinstance(self.unit.clock, VirtualClock) else "real"
        return {"protocol": PROTOCOL_VERSION, "firmware": package_version(),
                "config_hash": self.config_hash, "seats": len(self.unit.hal.seats),
                "test_mode": self.test_mode, "clock": clock, "input": self.fingers.path,
                "max_request": MAX_REQUEST}  # fmt: skip

    def _op_state(self, args: Args) -> dict[str, Any]:
        args.done()
        return self.snapshot.state()

    def _op_frame(self, args: Args) -> dict[str, Any]:
        seat = args.seat(len(self.unit.hal.seats))
        args.done()
        source, image = self.snapshot.image(seat)
        if image is None:
            raise RequestError("no_frame", f"{seat_name(seat)} has shown no frame yet")
        return {"seat": seat, "source": source, **encode_image(image)}

    def _op_ui(self, args: Args) -> dict[str, Any]:
        """:meth:`UnitSnapshot.ui`, with ``glass`` every seat's frame of the same moment."""
        with_glass = args.get("glass", bool, False)
        args.done()
        glass = None
        if with_glass:
            glass = [self._op_frame(Args({"seat": s})) for s in range(len(self.unit.hal.seats))]
        return self.snapshot.ui(glass)

    def _op_transcript(self, args: Args) -> dict[str, Any]:
        args.done()
        return {"lines": self.snapshot.transcript()[0]}

    def _op_subscribe(self, args: Args) -> dict[str, Any]:
        kinds = args.get("events", list, list(EVENT_KINDS))
        unknown = [k for k in kinds if k not in EVENT_KINDS]
        if unknown:
            raise RequestError("bad_field", f"field 'events': unknown {short(unknown)} (of "
                               f"{', '.join(EVENT_KINDS)})")  # fmt: skip
        args.done()
        self.subscribed = set(kinds)
        return {"events": sorted(self.subscribed)}

    def _op_stats(self, args: Args) -> dict[str, Any]:
        args.done()
        c = self.counters
        return {"received": c.received, "bad": c.bad, "dropped": c.dropped,
                "unanswered": c.unanswered, "rejected": c.rejected, "sent": c.sent,
                "send_dropped": c.send_dropped, "reopened": c.reopened,
                "by_code": dict(c.by_code)}  # fmt: skip

    def _op_press(self, args: Args) -> dict[str, Any]:
        seat, button = args.seat(len(self.unit.hal.seats)), args.button()
        ms = args.number("ms", 80, 1, MAX_MS)
        args.done()
        now = self.unit.clock.now()
        key = (seat, button)
        lifts = self._lifts.get(key)
        if lifts is not None:
            # the finger of the previous press is still down (until its lift has run, even
            # when due now): a finger lifts before it presses again, so this press goes
            # down a debounce time after that one lifts
            down = max(lifts, now) + 2 * self._debounce()
            self.later(down, lambda: self.fingers.button(seat, button, True))
        else:
            down = now
            self.fingers.button(seat, button, True)
        up = self._lifts[key] = down + ms / 1000

        def lift() -> None:
            self.fingers.button(seat, button, False)
            if self._lifts.get(key) == up:  # no later press of this button waits
                del self._lifts[key]

        self.later(up, lift)
        return {"seat": seat, "button": button.value, "ms": ms, "delay": round(down - now, 4)}

    def _debounce(self) -> float:
        return self.unit.hal.config.timing.debounce_s

    def _op_hold(self, args: Args) -> dict[str, Any]:
        seat, button = args.seat(len(self.unit.hal.seats)), args.button()
        args.done()
        self.fingers.button(seat, button, True)
        return {"seat": seat, "button": button.value}

    def _op_release(self, args: Args) -> dict[str, Any]:
        seat, button = args.seat(len(self.unit.hal.seats)), args.button()
        args.done()
        self.fingers.button(seat, button, False)
        return {"seat": seat, "button": button.value}

    def _op_shake(self, args: Args) -> dict[str, Any]:
        ms = args.number("ms", 500, 1, MAX_MS)
        args.done()
        edges = max(1, int(ms // SHAKE_EDGE_MS))
        self._shake(self.unit.clock.now(), 0, edges)
        return {"ms": ms, "edges": edges}

    def _shake(self, start: float, edge: int, edges: int) -> None:
        """Edge ``edge`` of a shake of ``edges`` at ``start`` + 20 ms each: one timer
        waits at a time (a minute's shake is not 3,000 timers at once)."""

        def due() -> None:
            self.fingers.shake_edge()
            if edge + 1 < edges:
                self._shake(start, edge + 1, edges)

        self.later(start + edge * SHAKE_EDGE_MS / 1000, due)

    def _op_dice(self, args: Args) -> dict[str, Any]:
        """Queue ``rolls`` of dice (``{"dice": [...], "switch": face}``), each made a
        chance outcome by the default game's :meth:`Game.chance_from_dice` (the op is
        older than games had names, as ``newgame``'s default game); any game's chance:
        the ``chance`` op."""
        rolls = args.get("rolls", list)
        game = get_game(DEFAULT_GAME)
        parsed = []
        for i, item in enumerate(rolls):
            if not isinstance(item, dict):
                raise RequestError("bad_field", f"rolls[{i}] must be an object")
            try:
                parsed.append(game.chance_from_dice(item))
            except ValueError as exc:
                raise RequestError("bad_field", f"rolls[{i}].{exc}") from None
        return self._force(args, parsed)

    def _op_chance(self, args: Args) -> dict[str, Any]:
        """Queue chance ``outcomes`` of the unit's game, each as its action JSON (Switch
        16's rolls, any game's chance), drawn before the rng's from the next chance on;
        one that is not legal when chance comes is skipped (the log says so)."""
        outcomes = args.get("outcomes", list)
        game = self.unit.game
        parsed = []
        for i, item in enumerate(outcomes):
            try:
                parsed.append(game.action_from_json(item))
            except (ValueError, TypeError, KeyError) as exc:  # the game's notation errors
                raise RequestError("bad_field", f"outcomes[{i}]: {cut(exc)}") from None
        return self._force(args, parsed)

    def _force(self, args: Args, outcomes: list[Any]) -> dict[str, Any]:
        if len(outcomes) + len(self.unit.forced_rolls) > MAX_FORCED:
            raise RequestError("bad_field", f"at most {MAX_FORCED} forced rolls may wait")
        args.done()
        self.unit.forced_rolls.extend(outcomes)
        return {"queued": len(self.unit.forced_rolls)}

    def _op_advance(self, args: Args) -> dict[str, Any]:
        """``seconds`` of virtual time; with ``next``, only up to the unit's next
        deadline (the next thing it does by itself), at most ``seconds``."""
        seconds = args.number("seconds", None, 0, 86_400)
        to_next = args.get("next", bool, False)
        args.done()
        if not isinstance(self.unit.clock, VirtualClock):
            raise RequestError("real_clock", "this unit runs on a real clock: nothing to advance")
        if self._advancing:
            raise RequestError("busy", "already advancing the clock")
        self._advancing = True
        try:
            due = self.unit.next_deadline() if to_next else None
            if due is not None:
                seconds = min(seconds, max(0.001, due - self.unit.clock.now()))
            self.unit.run_for(seconds)
        finally:
            self._advancing = False
        return {"time": self.unit.clock.now()}

    def _op_newgame(self, args: Args) -> dict[str, Any]:
        """Archive the game, start a preset one of ``game`` (default Switch 16's, as before
        games had names) with its set-up options (:attr:`Game.options`; those not given
        are the unit's defaults'): the unit decides what set-up it plays
        (:meth:`~firmware.unit.loop.Unit.new_game`); its refusal names the field."""
        name = args.get("game", str, DEFAULT_GAME)
        try:
            game = get_game(name)
        except UnknownGameError as exc:
            raise RequestError("bad_field", f"field 'game': {cut(exc)}") from None
        seats = args.get("seats", list)
        first = args.get("first", int, None)
        if first is not None and not 0 <= first < len(seats):
            raise RequestError("bad_field", f"field 'first' must be 0…{len(seats) - 1}")
        given = {o.name: args.message[o.name] for o in game.options if o.name in args.message}
        args.used.update(given)
        args.done()
        options = game.setup_options(self.unit.setup_defaults(name))
        for key, value in given.items():
            try:
                options[key] = read_options(game.options, {key: value})[key]
            except ValueError as exc:
                raise RequestError("bad_field", f"field {key!r}: {cut(exc)}") from None
        try:
            setup = game.setup_with(tuple(seats), options)
        except (ValueError, TypeError) as exc:
            raise RequestError("bad_field", f"field 'seats': {cut(exc)}") from None
        try:
            self.unit.new_game(setup, first, game=name)
        except ValueError as exc:
            raise RequestError("bad_field", f"field 'seats': {cut(exc)}") from None
        out = {"game": name, "seats": seats, **options}
        return out if first is None else {**out, "first": first}


class Args:
    """A request's fields, checked one by one; :meth:`done` names any left over."""

    def __init__(self, message: dict[str, Any]) -> None:
        self.message = message
        self.used = {"v", "id", "op"}

    def get(self, name: str, kind: type, default: Any = ...) -> Any:
        self.used.add(name)
        if name not in self.message:
            if default is ...:
                raise RequestError("bad_field", f"field {name!r} is missing")
            return default
        value = self.message[name]
        if not isinstance(value, kind) or (kind is not bool and isinstance(value, bool)):
            raise RequestError("bad_field", f"field {name!r} must be {kind.__name__}, not "
                               f"{type(value).__name__}")  # fmt: skip
        return value

    def number(self, name: str, default: Any, low: float, high: float) -> float:
        self.used.add(name)
        value = self.message.get(name, default)
        if value is None or isinstance(value, bool) or not isinstance(value, int | float):
            raise RequestError("bad_field", f"field {name!r} must be a number")
        if not low <= value <= high:
            raise RequestError(
                "bad_field", f"field {name!r} must be {low}…{high}, not {short(value)}"
            )
        return float(value)

    def seat(self, seats: int) -> int:
        seat = self.get("seat", int)
        if not 0 <= seat < seats:
            raise RequestError("bad_field", f"field 'seat' must be 0…{seats - 1}, not {seat}")
        return int(seat)

    def button(self) -> Button:
        name = self.get("button", str)
        try:
            return Button(name)
        except ValueError:
            names = ", ".join(b.value for b in Button)
            raise RequestError(
                "bad_field", f"field 'button' must be one of {names}, not {name[:20]!r}"
            ) from None

    def done(self) -> None:
        extra = sorted(set(self.message) - self.used)
        if extra:
            raise RequestError("bad_field", f"unknown field(s) {', '.join(map(repr, extra[:5]))}")
