"""The self-test's report: one PASS/FAIL/SKIPPED :class:`Check` per item, and the table."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from hal.events import Button
from hal.header import HEADER_PIN


class Step(StrEnum):
    """The steps, in the order they run (displays first: later steps prompt on them)."""

    DISPLAYS = "displays"
    BUTTONS = "buttons"
    SHAKER = "shaker"
    BUZZER = "buzzer"
    LEDS = "leds"


STEPS = tuple(Step)


class Status(StrEnum):
    PASS = "PASS"
    FAIL = "FAIL"
    SKIPPED = "SKIPPED"


_TALLY = {Status.PASS: "passed", Status.FAIL: "failed", Status.SKIPPED: "skipped"}


def gpio(pin: int | None) -> str:
    """``GPIO 17 (pin 11)``: BCM number and header pin."""
    if pin is None:
        return "-"
    header = HEADER_PIN.get(pin)
    return f"GPIO {pin}" + (f" (pin {header})" if header else "")


@dataclass
class Check:
    """One report row: ``item`` (e.g. "seat 2 NO"), its config ``key`` and ``wiring``."""

    step: Step
    item: str
    key: str
    wiring: str
    seat: int | None = None
    button: Button | None = None
    status: Status | None = None  #: None until checked
    detail: str = ""

    def done(self, status: Status, detail: str = "") -> None:
        self.status, self.detail = status, detail

    def line(self) -> str:
        """The progress line printed once the check is done."""
        detail = f": {self.detail}" if self.detail else ""
        return f"  {self.status or '-'}: {self.item} [{self.key}, {self.wiring}]{detail}"


@dataclass
class Report:
    """Every check of a run; ``interrupted`` after Ctrl-C."""

    unit: str
    checks: list[Check]
    interrupted: bool = False

    def __getitem__(self, item: str) -> Check:
        """The check named ``item``, e.g. ``report["seat 2 NO"]``."""
        return next(c for c in self.checks if c.item == item)

    @property
    def failed(self) -> list[Check]:
        return [c for c in self.checks if c.status is Status.FAIL]

    @property
    def passed(self) -> bool:
        """Finished with no failures (skipped items do not fail the run)."""
        return not self.interrupted and not self.failed

    @property
    def exit_code(self) -> int:
        return 0 if self.passed else 1

    def format(self) -> str:
        """The report as a plain-text table and a verdict line."""
        head = ("item", "result", "config key", "wiring", "detail")
        rows = [head] + [
            (c.item, str(c.status or "-"), c.key, c.wiring, c.detail) for c in self.checks
        ]
        widths = [max(len(r[i]) for r in rows) for i in range(len(head) - 1)]
        lines = [f"Self-test report: {self.unit}"]
        for row in rows:
            cells = [cell.ljust(w) for cell, w in zip(row, widths, strict=False)]
            lines.append("  ".join([*cells, row[-1]]).rstrip())
        counts = {s: sum(c.status is s for c in self.checks) for s in Status}
        tally = ", ".join(f"{counts[s]} {word}" for s, word in _TALLY.items())
        failed = ", ".join(c.item for c in self.failed)
        if self.interrupted:
            verdict = "INTERRUPTED, " + (f"FAIL: {failed}" if failed else "no failures so far")
        else:
            verdict = f"FAIL: {failed}" if failed else "PASS"
        lines.append(f"Result: {verdict} ({tally})")
        return "\n".join(lines)
