"""PNG charts of a self-play run (matplotlib, the optional ``plots`` extra, imported
lazily): win rates, game lengths, and the game's own charts (:meth:`GameStats.charts`)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from firmware.kernel.seats import seat_number

from .game import Chart


def save_plots(
    directory: Path,
    title: str,
    seats: Sequence[str],
    rates: Sequence[tuple[float, float, float]],
    charts: Sequence[Chart],
) -> list[Path]:
    """Save a run's charts into ``directory`` (made if missing): ``seats``' win
    ``rates`` (rate, low, high) against parity, then each of ``charts``; returns the paths."""
    import matplotlib  # lazy: the optional plots extra

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # lazy: after choosing the Agg backend

    directory.mkdir(parents=True, exist_ok=True)
    fig, ax = plt.subplots(figsize=(6, 4))
    labels = [f"{seat_number(s)}: {lv}" for s, lv in enumerate(seats)]
    ax.bar(
        labels,
        [r for r, _, _ in rates],
        yerr=[[r - lo for r, lo, _ in rates], [hi - r for r, _, hi in rates]],
        capsize=6,
    )
    ax.axhline(1 / len(seats), color="grey", linestyle="--", label="parity")
    ax.set_ylabel("win rate (95% CI)")
    ax.set_title(title)
    ax.legend()
    paths = [_save(fig, directory / "win_rates.png")]
    for chart in charts:
        fig, ax = plt.subplots(figsize=(6, 4))
        ax.bar(list(chart.bars), list(chart.bars.values()), width=chart.width)
        ax.set_xlabel(chart.xlabel)
        ax.set_ylabel(chart.ylabel)
        ax.set_title(chart.title)
        paths.append(_save(fig, directory / f"{chart.name}.png"))
    plt.close("all")
    return paths


def _save(fig: object, path: Path) -> Path:
    fig.savefig(path, dpi=100, bbox_inches="tight")  # type: ignore[attr-defined]
    return path
