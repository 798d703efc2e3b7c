"""PNG charts of a self-play run (matplotlib, the optional ``plots`` extra, imported
lazily): win rates, game lengths, and the game's own charts (:meth:`GameStats.charts`)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from firmware.kernel.seats import seat_number

from .game import Chart

if TYPE_CHECKING:
    from .selfplay import SelfPlay


def save_plots(run: SelfPlay, directory: Path) -> list[Path]:
    """Save the run's charts into ``directory`` (made if missing); returns the paths."""
    import matplotlib  # lazy: the optional plots extra

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # lazy: after choosing the Agg backend

    directory.mkdir(parents=True, exist_ok=True)
    rates = run.win_rates()
    fig, ax = plt.subplots(figsize=(6, 4))
    labels = [f"{seat_number(s)}: {lv}" for s, lv in enumerate(run.seats)]
    ax.bar(
        labels,
        [r for r, _, _ in rates],
        yerr=[[r - lo for r, lo, _ in rates], [hi - r for r, _, hi in rates]],
        capsize=6,
    )
    ax.axhline(1 / len(run.seats), color="grey", linestyle="--", label="parity")
    ax.set_ylabel("win rate (95% CI)")
    ax.set_title(f"{run.games} games, {run.setup_text}")
    ax.legend()
    paths = [_save(fig, directory / "win_rates.png")]
    lengths = Chart("game_length", "game length", f"{run.length_unit} per game", "games",
                    dict(sorted(run.lengths.items())))  # fmt: skip
    for chart in [lengths, *(run.stats.charts() if run.stats is not None else ())]:
        fig, ax = plt.subplots(figsize=(6, 4))
        ax.bar(list(chart.bars), list(chart.bars.values()), width=1.0 if chart is lengths else 0.8)
        ax.set_xlabel(chart.xlabel)
        ax.set_ylabel(chart.ylabel)
        ax.set_title(chart.title)
        paths.append(_save(fig, directory / f"{chart.name}.png"))
    plt.close("all")
    return paths


def _save(fig: object, path: Path) -> Path:
    fig.savefig(path, dpi=100, bbox_inches="tight")  # type: ignore[attr-defined]
    return path
