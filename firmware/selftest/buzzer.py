"""Buzzer: a major scale around ``buzzer.mid_tone``; the maker says whether it was heard."""

from __future__ import annotations

import re

from firmware.screens import selftest as screens

from .context import Ask, Context
from .report import Check, Status, Step, gpio

NOTE_S = 0.25  #: length of each note of the buzzer's scale
_MAJOR = (0, 2, 4, 5, 7, 9, 11, 12)
_NOTES = ("C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B")


def scale(mid_tone: str, seconds: float = NOTE_S) -> list[tuple[str | None, float]]:
    """A major scale up one octave from ``mid_tone`` (a buzzer plays ±1 octave of it)."""
    m = re.fullmatch(r"([A-G])([#b]?)(\d)", mid_tone)
    if m is None:
        raise ValueError(f"{mid_tone!r} is not a note name like 'A4'")
    letter, accidental, octave = m.groups()
    midi = 12 * (int(octave) + 1) + _NOTES.index(letter) + {"#": 1, "b": -1, "": 0}[accidental]
    names = [f"{_NOTES[(midi + s) % 12]}{(midi + s) // 12 - 1}" for s in _MAJOR]
    return [(name, seconds) for name in names]


class Buzzer:
    """The scale plays (CHIP: again); YES on any seat passes, NO or no answer fails."""

    step = Step.BUZZER

    def plan(self, ctx: Context) -> list[Check]:
        pin = None if ctx.config.buzzer is None else ctx.config.buzzer.pin
        return [Check(Step.BUZZER, "buzzer", "buzzer.pin", gpio(pin))]

    def run(self, ctx: Context, checks: list[Check]) -> None:
        (check,) = checks
        config, buzzer = ctx.config.buzzer, ctx.hal.buzzer
        if config is None or buzzer is None:
            check.done(Status.SKIPPED, "not configured")
            ctx.say(check)
            return
        if getattr(config, "mute", False):
            check.done(Status.SKIPPED, "muted (buzzer.mute = true)")
            ctx.say(check)
            return
        tune = scale(config.mid_tone)
        try:
            buzzer.play(tune)
        except Exception as exc:  # an out-of-range note, a PWM error: report it
            check.done(Status.FAIL, f"{type(exc).__name__}: {exc}")
            ctx.say(check)
            return
        ctx.out(
            f"Buzzer on {check.wiring}: playing a scale. Heard it? YES or NO on any seat "
            "(CHIP plays it again)."
        )
        screen = screens.render_message(
            "BUZZER",
            ("Did you hear", "a scale?", "CHIP: play it again"),
            (("YES", "heard it"), ("NO", "no")),
        )
        ctx.show_all(screen)
        answer = ctx.yes_no(Ask(Step.BUZZER), again=lambda: buzzer.play(tune))
        buzzer.stop()
        ctx.conclude(
            check, answer, "heard", "not heard: a passive piezo on a PWM pin, wired to GND?"
        )
