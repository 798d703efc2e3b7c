"""Headless self-play: the engine and bots, chance from a seeded ``random.Random``.

:func:`play_game` plays one game (or points match) and returns what happened;
:func:`run_selfplay` plays many, on several processes if asked, and adds them up
in a :class:`Summary`. Game ``i`` of a run seeded ``s`` always draws from the same
generator (:func:`game_seed`), and games are added up in a fixed order, so a run
gives identical results for any number of processes.
"""

from __future__ import annotations

import multiprocessing
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from firmware.kernel.rolloff import roll_off
from firmware.transcript import write_transcript

from ...driver import steps
from ...engine import (
    Action,
    Discard,
    Face,
    NewRound,
    Phase,
    Place,
    Roll,
    Rules,
)
from ...engine.notation import Header
from ...engine.rules import CARDS
from .. import make_bot

#: Switch faces in the order the statistics list them.
FACES: tuple[Face, ...] = (Face.BLANK, Face.GREEN, Face.RED, Face.BLOCK)
_FACE_INDEX = {f: i for i, f in enumerate(FACES)}
#: Games per work unit: fixed, so sums come out the same for any number of processes.
CHUNK = 200

_ROLL, _DISCARD, _DECIDE, _GREEN, _REFUSAL, _RED, _BLOCK, _OVER = Phase


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` (0-based) in a run seeded ``seed``."""
    return seed * 2**32 + index


@dataclass(slots=True)
class GameResult:
    """One game (or points match) of self-play.

    ``mattered[f]`` counts rolls of face ``FACES[f]`` that changed something: a red
    or green switch that exchanged decks, a block that moved the chip (a blank
    never does). ``turn_discards[k]`` counts turns that discarded k cards.
    """

    header: Header
    winners: tuple[int, ...]
    turns: int
    rolls: int
    rounds: int
    rolled: list[int]
    mattered: list[int]
    placements: int
    turn_discards: list[int]
    actions: list[Action] | None


def play_game(
    levels: Sequence[str], rules: Rules, seed: int, *, record: bool = False
) -> GameResult:
    """Play one game with bots of ``levels`` (seat order); chance from ``Random(seed)``.

    Played by :func:`~firmware.games.switch16.driver.steps`
    (one state changed in place): before every
    roll, discard and decision, the chip holder's bot may lay the chip.
    """
    rng = random.Random(seed)
    players = len(levels)
    first = roll_off(rng, range(players))[0]
    bots = [
        make_bot(level, s, random.Random(rng.getrandbits(64)), table=levels)
        for s, level in enumerate(levels)
    ]
    header = Header(players, first, rules, tuple(levels))
    actions: list[Action] | None = [] if record else None
    turns = rolls = placements = 0
    rounds = 1
    rolled = [0, 0, 0, 0]
    mattered = [0, 0, 0, 0]
    turn_discards = [0] * (CARDS + 1)
    this_turn = -1  # cards discarded in the current turn (-1: before the first turn)
    state = start = header.initial_state()
    # The state before each action, as far as the statistics need it (steps() changes
    # one state in place: its fields are read at once, the state never kept).
    risk, control, phase = state.risk, state.control, state.phase
    holder, deck = state.chip_holder, state.chip_deck
    for action, state in steps(start, bots, rng):
        kind = type(action)
        if actions is not None:
            actions.append(action)
        if type(action) is Roll:  # (exact types: mypy narrows this form)
            if not risk:
                if this_turn >= 0:
                    turn_discards[this_turn] += 1
                this_turn = 0
                turns += 1
            rolls += 1
            face = action.switch
            i = _FACE_INDEX[face]
            rolled[i] += 1
            if face is Face.RED:
                if state.phase is _RED or state.control is not control:
                    mattered[i] += 1
            elif (
                face is Face.BLOCK
                and state.phase is not _BLOCK
                and (state.chip_holder != holder or state.chip_deck != deck)
            ):
                mattered[i] += 1
        elif kind is Discard:
            this_turn += 1
        elif kind is Place:
            placements += 1
        elif kind is NewRound:
            rounds += 1
        elif phase is _GREEN or phase is _REFUSAL:
            if state.control is not control:
                mattered[1] += 1
        elif phase is _BLOCK and state.chip_holder != holder:
            mattered[3] += 1
        risk, control, phase = state.risk, state.control, state.phase
        holder, deck = state.chip_holder, state.chip_deck
    if this_turn >= 0:
        turn_discards[this_turn] += 1
    # A points game ends only once its match is won: match_winners is set exactly then.
    winners = state.match_winners if state.match_winners is not None else (state.winner,)
    return GameResult(
        header=header,
        winners=tuple(w for w in winners if w is not None),
        turns=turns,
        rolls=rolls,
        rounds=rounds,
        rolled=rolled,
        mattered=mattered,
        placements=placements,
        turn_discards=turn_discards,
        actions=actions,
    )


@dataclass
class Summary:
    """Totals over many self-play games (a shared points-match win counts 1/k each)."""

    seats: tuple[str, ...]
    rules: str
    points: bool
    seed: int
    games: int = 0
    wins: list[float] = field(default_factory=list)
    turns: int = 0
    rolls: int = 0
    rounds: int = 0
    placements: int = 0
    rolled: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    mattered: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    turn_discards: list[int] = field(default_factory=lambda: [0] * (CARDS + 1))
    #: Games by length in turns.
    lengths: dict[int, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.wins:
            self.wins = [0.0] * len(self.seats)

    def add(self, game: GameResult) -> None:
        self.games += 1
        share = 1 / len(game.winners)
        for w in game.winners:
            self.wins[w] += share
        self.turns += game.turns
        self.rolls += game.rolls
        self.rounds += game.rounds
        self.placements += game.placements
        for i in range(4):
            self.rolled[i] += game.rolled[i]
            self.mattered[i] += game.mattered[i]
        for k, count in enumerate(game.turn_discards):
            self.turn_discards[k] += count
        self.lengths[game.turns] = self.lengths.get(game.turns, 0) + 1

    def merge(self, other: Summary) -> None:
        self.games += other.games
        self.wins = [a + b for a, b in zip(self.wins, other.wins, strict=True)]
        self.turns += other.turns
        self.rolls += other.rolls
        self.rounds += other.rounds
        self.placements += other.placements
        self.rolled = [a + b for a, b in zip(self.rolled, other.rolled, strict=True)]
        self.mattered = [a + b for a, b in zip(self.mattered, other.mattered, strict=True)]
        self.turn_discards = [
            a + b for a, b in zip(self.turn_discards, other.turn_discards, strict=True)
        ]
        for length, count in other.lengths.items():
            self.lengths[length] = self.lengths.get(length, 0) + count

    def win_rates(self, z: float = 1.96) -> list[tuple[float, float, float]]:
        """Per seat: (win rate, low, high) with the Wilson score interval."""
        return [
            (w / self.games if self.games else 0.0, *wilson(w, self.games, z)) for w in self.wins
        ]

    def to_json(self) -> dict[str, Any]:
        games = self.games or 1
        return {
            "games": self.games,
            "seats": list(self.seats),
            "rules": self.rules,
            "points": self.points,
            "seed": self.seed,
            "win_rate": [
                {"seat": s, "level": lv, "wins": w, "rate": r, "ci95": [lo, hi]}
                for s, (lv, w, (r, lo, hi)) in enumerate(
                    zip(self.seats, self.wins, self.win_rates(), strict=True)
                )
            ],
            "mean_turns": self.turns / games,
            "mean_rolls": self.rolls / games,
            "mean_rounds": self.rounds / games,
            "chip_placements_per_game": self.placements / games,
            "switch_faces": {
                f.value: {"rolled": r, "mattered": m}
                for f, r, m in zip(FACES, self.rolled, self.mattered, strict=True)
            },
            "turn_discards": self.turn_discards,
            "game_lengths": {str(k): v for k, v in sorted(self.lengths.items())},
        }


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
    levels: tuple[str, ...]
    rules: Rules
    seed: int
    start: int
    stop: int
    save_dir: str | None


def _play_chunk(chunk: _Chunk) -> Summary:
    """Play games ``start..stop-1`` of a run (a process pool's unit of work)."""
    summary = Summary(chunk.levels, chunk.rules.name, chunk.rules.points, chunk.seed)
    record = chunk.save_dir is not None
    for i in range(chunk.start, chunk.stop):
        game = play_game(chunk.levels, chunk.rules, game_seed(chunk.seed, i), record=record)
        summary.add(game)
        if chunk.save_dir is not None and game.actions is not None:
            path = Path(chunk.save_dir) / f"game-{i + 1:04d}.jsonl"
            write_transcript(path, game.header, game.actions)
    return summary


def run_selfplay(
    levels: Sequence[str],
    rules: Rules,
    games: int,
    *,
    seed: int = 0,
    jobs: int = 1,
    save_dir: str | Path | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Summary:
    """Play ``games`` games and add them up; ``progress(done, total)`` after each chunk."""
    levels = tuple(levels)
    save = None if save_dir is None else str(save_dir)
    if save is not None:
        Path(save).mkdir(parents=True, exist_ok=True)
    chunks = [
        _Chunk(levels, rules, seed, start, min(start + CHUNK, games), save)
        for start in range(0, games, CHUNK)
    ]
    total = Summary(levels, rules.name, rules.points, seed)
    done = 0

    def absorb(part: Summary) -> None:
        nonlocal done
        total.merge(part)
        done += part.games
        if progress is not None:
            progress(done, games)

    if jobs <= 1 or len(chunks) <= 1:
        for chunk in chunks:
            absorb(_play_chunk(chunk))
        return total
    context = multiprocessing.get_context("spawn")
    with context.Pool(min(jobs, len(chunks))) as pool:
        for part in pool.imap(_play_chunk, chunks):
            absorb(part)
    return total
