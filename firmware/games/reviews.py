"""What every game's review answers about its decisions (``switch16 review``, the end
screens): a seat's decisions, its costliest ones and its total loss."""

from __future__ import annotations

from typing import Any, ClassVar


class ReviewedDecisions:
    """Queries over ``decisions`` (each with ``seat``, ``line`` and ``loss``); losses at or
    below ``noise`` are not mistakes."""

    decisions: list[Any]
    noise: ClassVar[float]

    def seat_decisions(self, seat: int) -> list[Any]:
        return [d for d in self.decisions if d.seat == seat]

    def mistakes(self, seat: int, count: int = 3) -> list[Any]:
        """The seat's costliest decisions (loss above noise), worst first."""
        worst = sorted(self.seat_decisions(seat), key=lambda d: (-d.loss, d.line))
        return [d for d in worst[:count] if d.loss > self.noise]

    def total_loss(self, seat: int) -> float:
        return sum(d.loss for d in self.seat_decisions(seat))
