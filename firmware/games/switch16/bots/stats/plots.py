"""PNG charts of a self-play run (matplotlib, the optional ``plots`` extra, imported lazily)."""

from __future__ import annotations

from pathlib import Path

from firmware.kernel.seats import seat_number

from .selfplay import Summary


def save_plots(summary: Summary, directory: str | Path) -> list[Path]:
    """Save win rates, game lengths and discards-per-turn charts; returns the paths."""
    import matplotlib  # lazy: the optional plots extra

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # lazy: after choosing the Agg backend

    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    paths = []

    rates = summary.win_rates()
    fig, ax = plt.subplots(figsize=(6, 4))
    labels = [f"{seat_number(s)}: {lv}" for s, lv in enumerate(summary.seats)]
    ax.bar(
        labels,
        [r for r, _, _ in rates],
        yerr=[[r - lo for r, lo, _ in rates], [hi - r for r, _, hi in rates]],
        capsize=6,
    )
    ax.axhline(1 / len(summary.seats), color="grey", linestyle="--", label="parity")
    ax.set_ylabel("win rate (95% CI)")
    ax.set_title(f"{summary.games} games, {summary.rules}")
    ax.legend()
    paths.append(_save(fig, out / "win_rates.png"))

    fig, ax = plt.subplots(figsize=(6, 4))
    lengths = sorted(summary.lengths.items())
    ax.bar([k for k, _ in lengths], [v for _, v in lengths], width=1.0)
    ax.set_xlabel("turns per game")
    ax.set_ylabel("games")
    ax.set_title("game length")
    paths.append(_save(fig, out / "game_length.png"))

    fig, ax = plt.subplots(figsize=(6, 4))
    ax.bar(range(len(summary.turn_discards)), summary.turn_discards)
    ax.set_xlabel("cards discarded in the turn")
    ax.set_ylabel("turns")
    ax.set_title("discards reached per turn")
    paths.append(_save(fig, out / "discards_per_turn.png"))
    plt.close("all")
    return paths


def _save(fig: object, path: Path) -> Path:
    fig.savefig(path, dpi=100, bbox_inches="tight")  # type: ignore[attr-defined]
    return path
