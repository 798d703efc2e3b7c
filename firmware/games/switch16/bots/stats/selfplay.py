"""Switch 16's own self-play figures (:meth:`Switch16.selfplay_stats`), beside the
runner's win rates (:mod:`firmware.games.selfplay`): games' lengths in turns, rolls and
rounds per game, chip placements, the switch faces rolled and how often they mattered,
cards discarded per turn.

A rolled face *mattered* when it changed something: a red or green switch that
exchanged decks, a block that moved the chip (a blank never does).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from firmware.games.game import Chart

from ...engine import Action, Discard, Face, NewRound, Phase, Place, Roll, State
from ...engine.rules import CARDS

#: Switch faces in the order the statistics list them.
FACES: tuple[Face, ...] = (Face.BLANK, Face.GREEN, Face.RED, Face.BLOCK)
_FACE_INDEX = {f: i for i, f in enumerate(FACES)}
_RED_FACE, _BLOCK_FACE = Face.RED, Face.BLOCK
_ROLL, _DISCARD, _DECIDE, _GREEN, _REFUSAL, _RED, _BLOCK, _OVER = Phase


@dataclass(slots=True)
class Switch16Stats:
    """Totals over a run's games (:class:`~firmware.games.game.GameStats`), each game's
    counted by :meth:`tally` in locals as it is played (each position read at once:
    self-play changes one state in place)."""

    length_unit = "turns"
    points: bool = False
    turns: int = 0
    rolls: int = 0
    rounds: int = 0
    placements: int = 0
    rolled: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    mattered: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    #: Turns by the cards they discarded.
    turn_discards: list[int] = field(default_factory=lambda: [0] * (CARDS + 1))
    # the game being played: the run's turns before it, its last turn's discards (-1:
    # no turn yet)
    _game_turns: int = 0
    _this_turn: int = -1

    def tally(self, state: State, steps: Iterable[tuple[Action, State]]) -> tuple[int, State]:
        self.points = state.scores is not None
        self.rounds += 1
        self._game_turns, this_turn = self.turns, -1
        actions = turns = rolls = rounds = placements = 0
        rolled, mattered, turn_discards = self.rolled, self.mattered, self.turn_discards
        risk, control, phase = state.risk, state.control, state.phase
        holder, deck = state.chip_holder, state.chip_deck
        for action, state in steps:  # the position after each action
            kind = type(action)
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
                if face is _RED_FACE:
                    if state.phase is _RED or state.control is not control:
                        mattered[i] += 1
                elif (
                    face is _BLOCK_FACE
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
            actions += 1
        self.turns += turns
        self.rolls += rolls
        self.rounds += rounds
        self.placements += placements
        self._this_turn = this_turn
        return actions, state

    def end(self, state: State) -> int:
        if self._this_turn >= 0:
            self.turn_discards[self._this_turn] += 1
        return self.turns - self._game_turns

    def merge(self, other: Switch16Stats) -> None:
        self.points = self.points or other.points
        self.turns += other.turns
        self.rolls += other.rolls
        self.rounds += other.rounds
        self.placements += other.placements
        self.rolled = [a + b for a, b in zip(self.rolled, other.rolled, strict=True)]
        self.mattered = [a + b for a, b in zip(self.mattered, other.mattered, strict=True)]
        self.turn_discards = [a + b for a, b in zip(self.turn_discards, other.turn_discards,
                                                    strict=True)]  # fmt: skip

    def to_json(self, games: int) -> dict[str, Any]:
        games = games or 1
        return {
            "mean_rolls": self.rolls / games,
            "mean_rounds": self.rounds / games,
            "chip_placements_per_game": self.placements / games,
            "switch_faces": {
                f.value: {"rolled": r, "mattered": m}
                for f, r, m in zip(FACES, self.rolled, self.mattered, strict=True)
            },
            "turn_discards": self.turn_discards,
        }

    def lines(self, games: int) -> list[str]:
        games = games or 1
        rounds = f", {self.rounds / games:.1f} rounds" if self.points else ""
        lines = [
            f"per game: {self.rolls / games:.1f} rolls{rounds}",
            f"chip laid: {self.placements / games:.2f} times per game",
            "",
            "switch face  rolled     mattered",
        ]
        for face, rolled, mattered in zip(FACES, self.rolled, self.mattered, strict=True):
            share = f"{mattered / rolled:6.1%}" if rolled and face is not Face.BLANK else "     –"
            lines.append(f"{face.value:<11} {rolled:>8}   {share}")
        lines.append("(mattered: red/green exchanged decks, block moved the chip)")
        total = sum(self.turn_discards) or 1
        spread = "  ".join(f"{k}:{count / total:.0%}"
                           for k, count in enumerate(self.turn_discards) if count)  # fmt: skip
        return [*lines, "", f"cards discarded per turn: {spread}"]

    def charts(self) -> list[Chart]:
        return [Chart("discards_per_turn", "discards reached per turn",
                      "cards discarded in the turn", "turns",
                      dict(enumerate(self.turn_discards)))]  # fmt: skip
