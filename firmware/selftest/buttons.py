"""Buttons: YES, then NO, then CHIP on every seat at once, each press ticked off on its
seat's screen; a press of another button names the pins (swapped wires)."""

from __future__ import annotations

from firmware.kernel.seats import seat_name
from firmware.screens import selftest as screens
from hal.config import seat_key
from hal.events import Button, ButtonDown

from .context import RESULT_S, Ask, Context
from .report import Check, Status, Step, gpio

ORDER = (Button.YES, Button.NO, Button.CHIP)


def _mark(check: Check, now: bool) -> str:
    """A button's mark on its seat's screen: ticked, failed, asked now, or to do."""
    if check.status is Status.PASS:
        return screens.OK
    if check.status is Status.FAIL:
        return screens.FAIL
    return screens.NOW if now else screens.TODO


class Buttons:
    """Every seat's buttons in :data:`ORDER`, the seats in parallel, each within the timeout."""

    step = Step.BUTTONS

    def plan(self, ctx: Context) -> list[Check]:
        return [
            Check(
                Step.BUTTONS,
                f"{seat_name(s.index)} {b.name}",
                seat_key(s.index, f"buttons.{b}"),
                gpio(s.buttons[b]),
                s.index,
                b,
            )
            for s in ctx.config.seats[: len(ctx.hal.seats)]
            for b in ORDER
        ]

    def run(self, ctx: Context, checks: list[Check]) -> None:
        hal, timeout = ctx.hal, ctx.timeout
        rows = {(c.seat, c.button): c for c in checks}
        seats = sorted({c.seat for c in checks if c.seat is not None})
        ctx.out(
            f"Buttons: on every seat press YES, then NO, then CHIP ({timeout:g} s "
            "each). Each press ticks off on its seat's screen (go seat by seat to see "
            "that the ticks land on the right one)."
        )
        hal.poll()  # a button held low since start-up shows up now
        hal.events.drain()
        for seat in seats:
            for b in ORDER:
                if hal.seats[seat].is_pressed(b):
                    rows[(seat, b)].done(
                        Status.FAIL, "down before it was asked: stuck, or shorted to GND"
                    )
                    ctx.say(rows[(seat, b)])
        asked: dict[int, Button | None] = {}
        since: dict[int, float] = {}
        wrong: dict[int, list[Button]] = {}  # presses of other buttons while one was asked
        got: dict[int, str] = {}

        def ask_next(seat: int, now: float) -> None:
            todo = [b for b in ORDER if rows[(seat, b)].status is None]
            asked[seat] = todo[0] if todo else None
            since[seat], wrong[seat], got[seat] = now, [], ""

        def draw(seat: int) -> None:
            marks = [(b.name, _mark(rows[(seat, b)], b is asked[seat])) for b in ORDER]
            ctx.show(seat, screens.render_buttons(seat, marks, got[seat]))

        def pins(buttons: list[Button], seat: int) -> str:
            return ", ".join(
                f"{b.name} ({gpio(ctx.config.seats[seat].buttons[b])})" for b in buttons
            )

        now = hal.clock.now()
        for seat in seats:
            ask_next(seat, now)
            draw(seat)
        while pending := [s for s in seats if asked[s] is not None]:
            ctx.asks = tuple(Ask(Step.BUTTONS, s, asked[s]) for s in pending)
            event = ctx.next_event(min(since[s] for s in pending) + timeout)
            now = hal.clock.now()
            if isinstance(event, ButtonDown) and event.seat in pending:
                seat, want = event.seat, asked[event.seat]
                assert want is not None
                row = rows[(seat, want)]
                if event.button is want:
                    if wrong[seat]:
                        row.done(
                            Status.FAIL,
                            f"got {pins(wrong[seat], seat)} first: swapped "
                            f"wires, or a wrong press (then {want.name} worked)",
                        )
                    else:
                        row.done(Status.PASS, f"pressed after {event.t - since[seat]:.1f} s")
                    ctx.say(row)
                    ask_next(seat, now)
                else:
                    wrong[seat].append(event.button)
                    got[seat] = event.button.name
                    ctx.out(
                        f"  {seat_name(seat)}: got {pins([event.button], seat)} when "
                        f"{want.name} was asked: wrong button, or swapped wires?"
                    )
                draw(seat)
            for seat in pending:
                want = asked[seat]
                if want is not None and now >= since[seat] + timeout:
                    detail = f"not pressed within {timeout:g} s"
                    if wrong[seat]:
                        detail += f"; got {pins(wrong[seat], seat)} instead: swapped wires?"
                    rows[(seat, want)].done(Status.FAIL, detail)
                    ctx.say(rows[(seat, want)])
                    ask_next(seat, now)
                    draw(seat)
        ctx.asks = ()
        ctx.pause(RESULT_S)
