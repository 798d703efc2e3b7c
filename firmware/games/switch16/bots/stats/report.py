"""A readable text report of a self-play :class:`~.selfplay.Summary`."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from firmware.kernel.seats import seat_number

from .selfplay import FACES, Summary


def format_table(summary: Summary) -> str:
    """Win rates with 95 % Wilson intervals, game length and switch-face statistics."""
    games = summary.games or 1
    game = "points matches" if summary.points else "games"
    lines = [
        f"{summary.games} {game}, rules {summary.rules}, seed {summary.seed}",
        "",
        "seat  level      wins      win rate  95% CI",
    ]
    for seat, (level, wins, (rate, lo, hi)) in enumerate(
        zip(summary.seats, summary.wins, summary.win_rates(), strict=True)
    ):
        lines.append(
            f"{seat_number(seat):>4}  {level:<9} {wins:>6g}   {rate:7.1%}   {lo:6.1%} – {hi:6.1%}"
        )
    lines += [
        "",
        f"mean length: {summary.turns / games:.1f} turns, {summary.rolls / games:.1f} rolls"
        + (f", {summary.rounds / games:.1f} rounds" if summary.points else ""),
        f"chip laid: {summary.placements / games:.2f} times per game",
        "",
        "switch face  rolled     mattered",
    ]
    for face, rolled, mattered in zip(FACES, summary.rolled, summary.mattered, strict=True):
        share = f"{mattered / rolled:6.1%}" if rolled and face.value != "blank" else "     –"
        lines.append(f"{face.value:<11} {rolled:>8}   {share}")
    lines.append("(mattered: red/green exchanged decks, block moved the chip)")
    total = sum(summary.turn_discards) or 1
    spread = "  ".join(
        f"{k}:{count / total:.0%}" for k, count in enumerate(summary.turn_discards) if count
    )
    lines += ["", f"cards discarded per turn: {spread}"]
    return "\n".join(lines)


@dataclass
class SelfPlayReport:
    """A self-play's results as ``switch16 selfplay`` gives them: the summary's table
    (or JSON), where the games were saved, the charts drawn."""

    summary: Summary
    save_dir: Path | None = None
    plots: list[Path] | None = None

    def to_json(self) -> dict[str, Any]:
        out = self.summary.to_json()
        if self.plots is not None:
            out["plots"] = [str(p) for p in self.plots]
        return out

    def table(self) -> str:
        lines = [format_table(self.summary)]
        if self.save_dir is not None:
            lines.append(f"transcripts: {self.save_dir}/game-0001.jsonl …")
        lines += [f"plot: {p}" for p in self.plots or ()]
        return "\n".join(lines)
