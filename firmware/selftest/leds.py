"""LEDs: each seat's LED lit in turn; the maker says on any seat whether it is lit."""

from __future__ import annotations

from firmware.kernel.seats import seat_name
from firmware.screens import selftest as screens
from hal.config import seat_key

from .context import Ask, Context
from .report import Check, Status, Step, gpio


class Leds:
    """One row per configured LED (or a single SKIPPED "LEDs" row when there are none)."""

    step = Step.LEDS

    def plan(self, ctx: Context) -> list[Check]:
        leds = [
            Check(
                Step.LEDS,
                f"{seat_name(s.index)} LED",
                seat_key(s.index, "led"),
                gpio(s.led),
                s.index,
            )
            for s in ctx.config.seats[: len(ctx.hal.seats)]
            if s.led is not None
        ]
        return leds or [Check(Step.LEDS, "LEDs", "[[seats]] led", "-")]

    def run(self, ctx: Context, checks: list[Check]) -> None:
        if checks[0].seat is None:
            checks[0].done(Status.SKIPPED, "none configured")
            ctx.say(checks[0])
            return
        ctx.out("LEDs: one after the other; say on any seat whether it is lit (YES) or not (NO).")
        for led in ctx.hal.leds:
            if led is not None:
                led.set(False)
        for check in checks:
            seat = check.seat
            assert seat is not None
            led = ctx.hal.seats[seat].led
            if led is None:
                check.done(Status.SKIPPED, "this backend has no LEDs")
                ctx.say(check)
                continue
            led.set(True)
            for other in range(len(ctx.hal.seats)):
                lines = (
                    ("Is this seat's", "LED lit?")
                    if other == seat
                    else (f"Is {seat_name(seat)}'s", "LED lit?")
                )
                ctx.show(
                    other, screens.render_message("LED", lines, (("YES", "lit"), ("NO", "dark")))
                )
            answer = ctx.yes_no(Ask(Step.LEDS, seat))
            led.set(False)
            ctx.conclude(check, answer, "lit", "not lit: check its polarity and resistor")
