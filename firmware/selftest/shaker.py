"""Shaker: the maker shakes the unit; a ShakeStarted then a ShakeStopped pass it, with a
live edge count on every screen (where the backend counts edges)."""

from __future__ import annotations

from firmware.screens import selftest as screens
from hal.events import ShakeStarted, ShakeStopped

from .context import RESULT_S, Ask, Context
from .report import Check, Status, Step, gpio

REFRESH_S = 0.25  #: live edge-count refresh while waiting for a shake


class Shaker:
    """One shake within the timeout; a failure says what the edge count suggests."""

    step = Step.SHAKER

    def plan(self, ctx: Context) -> list[Check]:
        return [Check(Step.SHAKER, "shaker", "shaker.pin", gpio(ctx.config.shaker.pin))]

    def run(self, ctx: Context, checks: list[Check]) -> None:
        (check,) = checks
        sh, shaker, clock, timeout = ctx.config.shaker, ctx.hal.shaker, ctx.hal.clock, ctx.timeout
        base: int | None = getattr(shaker, "samples", None)

        def edges() -> int | None:
            """Edges seen since the step began (None: the backend does not count them)."""
            return None if base is None else int(getattr(shaker, "samples", base)) - base

        def draw(status: str) -> None:
            count = "?" if (n := edges()) is None else str(n)
            ctx.show_all(
                screens.render_message("SHAKER", ("Shake the unit now!", f"edges: {count}", status))
            )

        ms = round(sh.start_window_s * 1000)
        ctx.out(
            f"Shaker on {check.wiring}: shake the unit now ({timeout:g} s). A shake "
            f"starts at {sh.start_edges} edges within {ms} ms."
        )
        start = clock.now()
        started: ShakeStarted | None = None
        status = "waiting for a shake"
        shown: tuple[int | None, str] | None = None
        ctx.asks = (Ask(Step.SHAKER),)
        while check.status is None:
            seen = (edges(), status)
            if seen != shown:
                draw(status)
                shown = seen
            if started is None:
                limit = start + timeout
            else:  # a shake always ends: quiet, or capped at max_roll
                limit = started.t + sh.max_roll_s + sh.stop_quiet_s + 1.0
            now = clock.now()
            if now >= limit:
                break
            event = ctx.next_event(min(limit, now + REFRESH_S))
            if isinstance(event, ShakeStarted):
                started = event
                status = "shaking..."
                ctx.out(f"  ShakeStarted at +{event.t - start:.2f} s ({edges()} edges so far)")
            elif isinstance(event, ShakeStopped) and started is not None:
                capped = ", capped" if event.capped else ""
                detail = f"{event.duration:.2f} s shake, {event.edges} edges{capped}"
                ctx.out(f"  ShakeStopped: {detail}")
                status = f"ok: {event.duration:.2f} s, {event.edges} edges"
                check.done(Status.PASS, detail)
        if check.status is None:
            n = edges()
            if started is not None:
                detail = "started but never stopped"
            elif n is None:
                detail = f"no shake within {timeout:g} s"
            elif n == 0:
                detail = f"no edges within {timeout:g} s: check the sensor's wiring and power"
            else:
                detail = (
                    f"{n} edges, never {sh.start_edges} within {ms} ms: shake harder, "
                    "or turn the sensor's sensitivity pot"
                )
            check.done(Status.FAIL, detail)
            status = "FAILED"
        ctx.say(check)
        draw(status)
        ctx.asks = ()
        ctx.pause(RESULT_S)
