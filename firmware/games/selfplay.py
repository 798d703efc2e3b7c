"""Self-play of any registered game through its :class:`~firmware.games.game.Game`
(``switch16 selfplay``): bots at every seat, the starter from the kernel's roll-off,
chance drawn from the state's outcomes (:meth:`Game.draw_chance`), a chip laid out of
turn where the game has one (:meth:`Game.interject`).

:func:`play_game` plays one game; :func:`run` plays many, on several processes if
asked, and adds them up in a :class:`SelfPlay`: win rates with 95 % intervals, draws,
the games' lengths, and the game's own figures (:meth:`Game.selfplay_stats`). Game
``i`` of a run seeded ``s`` draws everything from ``Random(game_seed(s, i))`` and games
are added up in chunks of :data:`CHUNK` in a fixed order, so a run gives identical
results for any number of processes. A game may play one state changed in place
(:meth:`Game.play_out`) for speed.
"""

from __future__ import annotations

import multiprocessing
import random
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import Any

from firmware.kernel.players import TERMINAL
from firmware.kernel.rolloff import roll_off
from firmware.kernel.seats import seat_number
from firmware.transcript import write_transcript

from .game import Chart, Game, GameStats

#: A game longer than this is a bug in the game's bots or rules: stop it, say so.
MAX_ACTIONS = 100_000
#: Games per work unit: fixed, so sums come out the same for any number of processes.
CHUNK = 200
#: How to get the plots extra, the same words as docs/PLAYING.md's.
PLOTS_HINT = "in the checkout: python3 -m pip install -e '.[plots]'"


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` (0-based) in a run seeded ``seed``."""
    return seed * 2**32 + index


@dataclass(slots=True)
class Played:
    """One self-played game: its header, actions (when recorded), how many, and its end
    (Switch 16's :meth:`Game.play_out` hands its one private state: nobody else holds it)."""

    header: Any
    actions: list[Any]
    length: int
    state: Any


def play_game(game: Game, seats: Sequence[str], options: Mapping[str, Any], seed: int, *,
              record: bool = False, stats: GameStats | None = None) -> Played:  # fmt: skip
    """One game of bots of ``seats``' levels (seat order), a set-up with ``options``;
    the starter, the bots' rngs and chance from ``Random(seed)``; ``record``: keep the
    actions; ``stats`` sees every step."""
    return _play(game, seats, game.setup_with(seats, options), seed, record, stats)


def _play(game: Game, seats: Sequence[str], setup: Any, seed: int, record: bool,
          stats: GameStats | None) -> Played:  # fmt: skip
    """:func:`play_game` of a set-up made once per run."""
    rng = random.Random(seed)
    header = game.header(setup, roll_off(rng, range(len(seats)))[0])
    bots = [game.make_bot(kind, s, random.Random(rng.getrandbits(64)), seats)
            for s, kind in enumerate(seats)]  # fmt: skip
    state = header.initial_state()
    actions: list[Any] = []
    steps: Iterator[tuple[Any, Any]] = islice(game.play_out(state, bots, rng), MAX_ACTIONS)
    if record:
        steps = _kept(steps, actions.append)
    length, last = tally(state, steps) if stats is None else stats.tally(state, steps)
    if last.current_player() != TERMINAL:
        raise RuntimeError(f"{game.name}: no end after {MAX_ACTIONS} actions")
    return Played(header, actions, length, last)


def tally(state: Any, steps: Iterable[tuple[Any, Any]]) -> tuple[int, Any]:
    """A game from ``state`` played by ``steps`` to the end: its number of actions and
    its last position (:meth:`GameStats.tally` where a game has figures)."""
    length, last = 0, state
    for length, (_, last) in enumerate(steps, 1):  # noqa: B007  # the last ones are kept
        pass
    return length, last


def _kept(
    steps: Iterable[tuple[Any, Any]], keep: Callable[[Any], None]
) -> Iterator[tuple[Any, Any]]:
    """``steps``, each action kept as it passes (a run that saves its games)."""
    for action, after in steps:
        keep(action)
        yield action, after


@dataclass
class SelfPlay:
    """A self-play run's totals: wins per seat (a win shared by k seats counts 1/k
    each), draws, games by length (in the game's :attr:`GameStats.length_unit`, else
    actions), the game's own figures; what ``switch16 selfplay`` prints."""

    game: str
    setup_text: str
    seats: tuple[str, ...]
    options: dict[str, Any]
    seed: int
    stats: GameStats | None = None
    games: int = 0
    wins: list[float] = field(default_factory=list)
    draws: int = 0
    #: Games by length.
    lengths: dict[int, int] = field(default_factory=dict)
    save_dir: Path | None = None
    plots: list[Path] | None = None

    def __post_init__(self) -> None:
        if not self.wins:
            self.wins = [0.0] * len(self.seats)

    @property
    def length_unit(self) -> str:
        return "actions" if self.stats is None else self.stats.length_unit

    def add(self, winners: Sequence[int], length: int) -> None:
        """One finished game: its winning seats (none: a draw) and its length."""
        self.games += 1
        share = 1 / len(winners) if winners else 0.0
        for w in winners:
            self.wins[w] += share
        self.draws += not winners
        self.lengths[length] = self.lengths.get(length, 0) + 1

    def merge(self, other: SelfPlay) -> None:
        """Add another part of the run (its next games)."""
        self.games += other.games
        self.wins = [a + b for a, b in zip(self.wins, other.wins, strict=True)]
        self.draws += other.draws
        for length, count in other.lengths.items():
            self.lengths[length] = self.lengths.get(length, 0) + count
        if self.stats is not None:
            self.stats.merge(other.stats)

    def win_rates(self, z: float = 1.96) -> list[tuple[float, float, float]]:
        """Per seat: (win rate, low, high) with the Wilson score interval."""
        return [(w / self.games if self.games else 0.0, *wilson(w, self.games, z))
                for w in self.wins]  # fmt: skip

    @property
    def mean_length(self) -> float:
        return sum(k * n for k, n in self.lengths.items()) / (self.games or 1)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "game": self.game,
            "games": self.games,
            "seats": list(self.seats),
            "options": self.options,
            "seed": self.seed,
            "wins": self.wins,
            "win_rate": [
                {"seat": s, "level": lv, "wins": w, "rate": r, "ci95": [lo, hi]}
                for s, (lv, w, (r, lo, hi)) in enumerate(
                    zip(self.seats, self.wins, self.win_rates(), strict=True)
                )
            ],
            "draws": self.draws,
            "length_unit": self.length_unit,
            "mean_length": self.mean_length,
            "game_lengths": {str(k): v for k, v in sorted(self.lengths.items())},
        }
        if self.stats is not None:
            out.update(self.stats.to_json(self.games))
        if self.plots is not None:
            out["plots"] = [str(p) for p in self.plots]
        return out

    def charts(self) -> list[Chart]:
        """The games' lengths and the game's own charts (beside the win rates)."""
        lengths = Chart("game_length", "game length", f"{self.length_unit} per game", "games",
                        dict(sorted(self.lengths.items())), width=1.0)  # fmt: skip
        return [lengths, *(self.stats.charts() if self.stats is not None else ())]

    def table(self) -> str:
        """Win rates with 95 % Wilson intervals, draws, mean length, the game's figures."""
        lines = [
            f"{self.games} games, {self.setup_text}, seed {self.seed}",
            "",
            "seat  level      wins      win rate  95% CI",
        ]
        for seat, (level, wins, (rate, lo, hi)) in enumerate(
            zip(self.seats, self.wins, self.win_rates(), strict=True)
        ):
            lines.append(f"{seat_number(seat):>4}  {level:<9} {wins:>6g}   {rate:7.1%}   "
                         f"{lo:6.1%} – {hi:6.1%}")  # fmt: skip
        if self.draws:
            lines.append(f"draws: {self.draws} ({self.draws / (self.games or 1):.1%})")
        lines += ["", f"mean length: {self.mean_length:.1f} {self.length_unit}"]
        if self.stats is not None:
            lines += self.stats.lines(self.games)
        if self.save_dir is not None:
            lines.append(f"transcripts: {self.save_dir}/game-0001.jsonl …")
        lines += [f"plot: {p}" for p in self.plots or ()]
        return "\n".join(lines)


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval for a proportion (``z`` = 1.96: 95 %)."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * ((p * (1 - p) / n + z2 / (4 * n * n)) ** 0.5) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True, slots=True)
class _Chunk:
    """Games ``start..stop-1`` of a run (a process pool's unit of work)."""

    game: Game
    seats: tuple[str, ...]
    options: Mapping[str, Any]
    seed: int
    start: int
    stop: int
    save_dir: Path | None


def _play_chunk(chunk: _Chunk, progress: Callable[[int], None] | None = None) -> SelfPlay:
    """Play a chunk's games and add them up; ``progress(index)`` after each."""
    game, seats = chunk.game, chunk.seats
    setup = game.setup_with(seats, chunk.options)
    out = _summary(game, seats, chunk.options, chunk.seed)
    record = chunk.save_dir is not None
    for i in range(chunk.start, chunk.stop):
        played = _play(game, seats, setup, game_seed(chunk.seed, i), record, out.stats)
        length = played.length if out.stats is None else out.stats.end(played.state)
        out.add(game.result(played.state), length)
        if chunk.save_dir is not None:
            write_transcript(chunk.save_dir / f"game-{i + 1:04d}.jsonl", played.header,
                             played.actions)  # fmt: skip
        if progress is not None:
            progress(i)
    return out


def _summary(game: Game, seats: tuple[str, ...], options: Mapping[str, Any],
             seed: int) -> SelfPlay:  # fmt: skip
    """An empty run's totals."""
    setup = game.setup_with(seats, options)
    return SelfPlay(game.name, game.setup_text(setup), seats, game.setup_options(setup), seed,
                    game.selfplay_stats())  # fmt: skip


def run(game: Game, seats: Sequence[str], games: int, options: Mapping[str, Any] | None = None,
        *, seed: int = 0, jobs: int = 1, save_dir: Path | None = None,
        plots: Path | None = None,
        progress: Callable[[int, int], None] | None = None) -> SelfPlay:  # fmt: skip
    """``games`` bot games of ``seats``' levels, a set-up with ``options`` (else the
    defaults), on ``jobs`` processes; transcripts to ``save_dir``, PNG charts to
    ``plots`` (a ValueError before playing when matplotlib is missing);
    ``progress(done, games)`` as games finish."""
    if plots is not None:
        try:
            import matplotlib  # noqa: F401  # lazy: the optional plots extra, checked
        except ImportError:
            raise ValueError(f"--plots needs matplotlib ({PLOTS_HINT})") from None
    seats, options = tuple(seats), dict(options or {})
    if save_dir is not None:
        save_dir.mkdir(parents=True, exist_ok=True)  # --save names it; nothing made it yet
    chunks = [_Chunk(game, seats, options, seed, start, min(start + CHUNK, games), save_dir)
              for start in range(0, games, CHUNK)]  # fmt: skip
    total = _summary(game, seats, options, seed)
    total.save_dir = save_dir
    if jobs <= 1 or len(chunks) <= 1:
        each = None if progress is None else lambda i: progress(i + 1, games)
        for chunk in chunks:
            total.merge(_play_chunk(chunk, each))
    else:
        context = multiprocessing.get_context("spawn")
        with context.Pool(min(jobs, len(chunks))) as pool:
            for part in pool.imap(_play_chunk, chunks):
                total.merge(part)
                if progress is not None:
                    progress(total.games, games)
    if plots is not None:
        from .selfplay_plots import save_plots  # lazy: needs the plots extra

        total.plots = save_plots(plots, f"{total.games} games, {total.setup_text}", seats,
                                 total.win_rates(), total.charts())  # fmt: skip
    return total
