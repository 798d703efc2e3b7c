"""Displays: a test pattern on every seat's panel (seat number, full border, an arrow)."""

from __future__ import annotations

from firmware.kernel.seats import seat_name
from firmware.screens import selftest as screens
from hal.config import DisplayConfig, seat_key

from .context import Ask, Context
from .report import Check, Status, Step

PATTERN_S = 4.0  #: how long the test patterns stay up


def bus_of(d: DisplayConfig, resolved: int | Exception | None = None) -> str:
    """Where a display is: ``I²C-22 0x3C``, ``I²C-24 ch2 0x3C`` (a mux channel and the
    bus it resolved to), ``mux ch2 ? 0x3C`` (unresolved) or ``SPI0 CE1 DC16``."""
    if d.bus == "spi":
        return f"SPI{d.port} CE{d.device} DC{d.dc}"
    address = f"0x{d.address or 0:02X}"
    if d.channel is None:
        return f"I²C-{d.port} {address}"
    if isinstance(resolved, int):
        return f"I²C-{resolved} ch{d.channel} {address}"
    return f"mux ch{d.channel} ? {address}"


def pattern_lines(d: DisplayConfig, resolved: int | None = None) -> tuple[str, str, str]:
    """The lines of a seat's test pattern."""
    return bus_of(d, resolved), d.driver, f"rotate {d.rotate}"


class Displays:
    """Each seat's pattern is sent; a bus error fails it and leaves that panel dark."""

    step = Step.DISPLAYS

    def plan(self, ctx: Context) -> list[Check]:
        return [
            Check(
                Step.DISPLAYS,
                f"{seat_name(s.index)} display",
                seat_key(s.index, "display"),
                f"{s.display.driver} {bus_of(s.display, ctx.resolved(s.index))} "
                f"rotate {s.display.rotate}",
                s.index,
            )
            for s in ctx.config.seats[: len(ctx.hal.seats)]
        ]

    def run(self, ctx: Context, checks: list[Check]) -> None:
        ctx.out(
            "Displays: each panel shows its seat number inside a full border, and an arrow "
            "that must point away from the player (if not, change that seat's display "
            "rotate; a cut or shifted border: the wrong driver)."
        )
        for check in checks:
            seat = check.seat
            assert seat is not None
            error = ctx.hal.seats[seat].display.last_error  # set: it failed to start
            if error is None:
                resolved = ctx.resolved(seat)
                lines = pattern_lines(
                    ctx.config.seats[seat].display, resolved if isinstance(resolved, int) else None
                )
                error = ctx.show(seat, screens.render_pattern(seat, lines))
            if error is None:
                check.done(Status.PASS, "pattern sent")
            else:
                ctx.dark.add(seat)
                check.done(Status.FAIL, f"{type(error).__name__}: {error}")
            ctx.say(check)
        ctx.asks = (Ask(Step.DISPLAYS),)
        ctx.pause(ctx.pattern_s)
