"""Self-play of any registered game through its :class:`~firmware.games.game.Game`:
bots at every seat, the starter in turn, chance from a seeded rng; every game can be
saved as a transcript: :meth:`Game.selfplay`'s default. It plays Switch 16 too (chance
in the state, the chip laid out of turn); Switch 16's ``switch16 selfplay`` keeps its own
runner for its statistics (rolls, faces that mattered, discards per turn), its speed
(one state changed in place) and its processes, in :mod:`firmware.games.switch16.bots.stats`."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from firmware.kernel.players import CHANCE
from firmware.kernel.seats import seat_name
from firmware.transcript import write_transcript

#: A game longer than this is a bug in the game's bots or rules: stop it, say so.
MAX_ACTIONS = 100_000


@dataclass
class SelfPlay:
    """Wins per seat, draws, and the length of every game."""

    game: str
    seats: tuple[str, ...]
    wins: list[int]
    draws: int = 0
    lengths: list[int] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        n = len(self.lengths)
        mean = sum(self.lengths) / n if n else 0.0
        return {"game": self.game, "seats": list(self.seats), "games": n, "wins": self.wins,
                "draws": self.draws, "mean_length": mean}  # fmt: skip

    def table(self) -> str:
        n = len(self.lengths) or 1
        rows = [f"{self.game}: {len(self.lengths)} games"]
        for s, (kind, w) in enumerate(zip(self.seats, self.wins, strict=True)):
            rows.append(f"{seat_name(s)} ({kind}): {w} wins ({100 * w / n:.1f} %)")
        rows.append(f"draws: {self.draws}; mean length {sum(self.lengths) / n:.1f} actions")
        return "\n".join(rows)


def play_one(
    game: Any, seats: Sequence[str], first: int, rng: random.Random,
    options: Mapping[str, Any] | None = None,
) -> tuple[Any, list[Any], Any]:  # fmt: skip
    """One game of ``game`` (a :class:`~firmware.games.game.Game`: its default
    ``selfplay`` calls this) with these set-up ``options`` (else the defaults):
    (header, actions, final state)."""
    header = game.header(game.with_options(game.setup_for(seats), options or {}), first)
    state = header.initial_state()
    bots = {s: game.make_bot(kind, s, random.Random(rng.getrandbits(64)), seats)
            for s, kind in enumerate(seats)}  # fmt: skip
    actions: list[Any] = []
    while not state.game_over:
        if len(actions) >= MAX_ACTIONS:
            raise RuntimeError(f"{game.name}: no end after {MAX_ACTIONS} actions")
        state = state.apply(action := next_action(game, state, bots, rng))
        actions.append(action)
    return header, actions, state


def next_action(game: Any, state: Any, bots: Mapping[int, Any], rng: random.Random) -> Any:
    """What happens next in an unfinished game: a bot's move out of turn (a seat's
    :meth:`~firmware.games.game.Game.interject`, in seat order), else the
    ``current_player()``'s: chance's draw or the seat's bot's decision."""
    for seat, bot in bots.items():
        if (out_of_turn := game.interject(bot, state, seat)) is not None:
            return out_of_turn
    player = state.current_player()
    if player == CHANCE:
        return game.draw_chance(state, rng)
    if player not in bots:
        raise RuntimeError(f"{game.name}: nobody to act in an unfinished game ({player})")
    return bots[player].decide(state)


def run_games(game: Any, seats: Sequence[str], games: int, *, seed: int = 0,
              save_dir: Path | None = None,
              progress: Callable[[int, int], None] | None = None,
              options: Mapping[str, Any] | None = None) -> SelfPlay:  # fmt: skip
    """``games`` bot games of a set-up with ``options``, the starter rotating;
    transcripts to ``save_dir``; ``progress(done, games)`` after each game (e.g. a
    progress bar)."""
    rng = random.Random(seed)
    if save_dir is not None:
        save_dir.mkdir(parents=True, exist_ok=True)  # --save names it; nothing made it yet
    out = SelfPlay(game.name, tuple(seats), [0] * len(seats))
    for number in range(games):
        header, actions, state = play_one(game, seats, number % len(seats), rng, options)
        winners = game.result(state)
        for seat in winners:
            out.wins[seat] += 1
        out.draws += not winners
        out.lengths.append(len(actions))
        if save_dir is not None:
            write_transcript(save_dir / f"game-{number + 1:04d}.jsonl", header, actions)
        if progress is not None:
            progress(number + 1, games)
    return out
