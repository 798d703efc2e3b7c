"""The PASS/FAIL report of ``switch16 hil``: its steps, frames checked and press timings."""

from __future__ import annotations

from dataclasses import dataclass, field
from statistics import median

from firmware.games.hil_scenarios import StepFailed

__all__ = ["Report", "Step", "StepFailed"]


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
