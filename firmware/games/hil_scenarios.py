"""A game's scenarios for ``switch16 hil``'s built-in suite (:mod:`firmware.link.suite`):
steps a test rig plays against a unit over its serial link, each a step of the report.

A game brings its own (:meth:`~firmware.games.game.Game.hil_scenarios`), written in its
package against :class:`Rig`, what the harness's unit driver
(:class:`firmware.link.unit_driver.UnitDriver`) does, so a game's scenarios import no
link. Whole games by presses and a power cut mid-game are built here for any game."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from firmware.kernel.players import HUMAN


class StepFailed(AssertionError):
    """A step did not go as expected (its message says how)."""


class Rig(Protocol):
    """A unit in test mode, driven through its link: presses, waits on the unit's clock,
    replays its transcript, checks every seat's glass against the game's render."""

    #: The seats' kinds in the unit's transcript, as :meth:`position` last read them.
    kinds_seen: tuple[str, ...]
    #: The rig's choices (a seed plays the same moves).
    rng: random.Random

    def now(self) -> float:
        """The clock every wait runs on (the unit's, when it is virtual)."""
        ...

    def idle(self) -> None:
        """Let the unit get on between two looks (on a virtual clock: to its next deadline)."""
        ...

    def request(self, op: str, **fields: Any) -> dict[str, Any]:
        """One link op's reply (docs/LINK.md); a refusal raises."""
        ...

    def state(self) -> dict[str, Any]:
        """The ``state`` op's reply."""
        ...

    def position(self) -> tuple[Any, tuple[str, ...]]:
        """The replayed position of the unit's transcript and the seats' kinds."""
        ...

    def wait_for(self, what: str, pred: Callable[[dict[str, Any]], bool],
                 timeout: float = ...) -> dict[str, Any]:  # fmt: skip
        """The first ``state`` reply ``pred`` holds for; StepFailed naming ``what``."""
        ...

    def settle_until(self, pred: Callable[[Any], bool], timeout: float = ...) -> Any:
        """The first replayed position ``pred`` holds for; StepFailed when not reached."""
        ...

    def press(self, seat: int, button: str, ms: float = ...) -> None: ...

    def choose(self, seat: int, state: Any, want: Callable[[Any], bool]) -> None:
        """Enter the legal action ``seat`` ``want``s by the presses its game gives."""
        ...

    def check_all_frames(self, what: str) -> None:
        """Every seat's glass equals the game's render of the unit's UI state."""
        ...

    def new_game(self, game: str, seats: Sequence[str], first: int | None = None,
                 **options: Any) -> dict[str, Any]:  # fmt: skip
        """A preset game of ``game`` (its options' defaults but those given), past its
        roll-off."""
        ...

    def play_by_presses(self, game: str, *, until: Callable[[Any], bool] | None = None,
                        max_turns: int = ...) -> Any:  # fmt: skip
        """Play the human seats by presses until the game ends (or ``until``, or
        ``max_turns`` actions); the last position."""
        ...

    def power_cut(self) -> None:
        """Cut the unit's power and connect to it again once it is back."""
        ...

    def saw(self, what: str) -> None:
        """Count something worth noting that happened while playing (the report says)."""
        ...


@dataclass(frozen=True, slots=True)
class Scenario:
    """One step of the suite: ``name`` in the report, ``run`` drives the unit (raises
    :class:`StepFailed`). ``preset``: the set-up it plays, which ``--presets`` may leave
    out (None: always played); ``power_cut``: it needs a rig that can cut the power."""

    name: str
    run: Callable[[Rig], None]
    preset: str | None = None
    power_cut: bool = False


def whole_game(name: str, game: str, seats: Sequence[str], *, first: int | None = None,
               done: str = "game over", preset: str | None = None,
               **options: Any) -> Scenario:  # fmt: skip
    """A whole game of ``game`` by presses (its human seats), every seat's glass checked
    at every human decision and at the end (``done``)."""

    def run(rig: Rig) -> None:
        rig.new_game(game, seats, first, **options)
        rig.play_by_presses(game)
        rig.check_all_frames(done)

    return Scenario(name, run, preset=preset)


def power_cut_mid_game(game: str, seats: Sequence[str], turns: int = 6,
                       **options: Any) -> Scenario:  # fmt: skip
    """``turns`` actions of ``game`` by presses, then the power cut: the unit comes back
    with the same journal and plays on from the same position."""

    def run(rig: Rig) -> None:
        rig.new_game(game, seats, **options)
        rig.play_by_presses(game, max_turns=turns)
        lines = rig.request("transcript")["lines"]
        rig.power_cut()
        rig.wait_for("resumed", lambda s: s["mode"] == "play", timeout=10)
        rig.check_all_frames("the resumed game")
        if rig.request("transcript")["lines"][: len(lines)] != lines:
            raise StepFailed("the resumed journal is not the one before the cut")
        rig.check_all_frames("after the power cut")

    return Scenario("power cut mid-game: the unit resumes the same position", run,
                    power_cut=True)  # fmt: skip


def default_scenarios(name: str, title: str, seats: range, levels: Sequence[str]) -> list[Scenario]:
    """What a game that brings no scenarios of its own gets: one whole game by presses,
    a human at the first seat (who starts) and the weakest bot at the others, the
    fewest seats and the options' defaults."""
    level = levels[0]
    return [whole_game(f"whole game, {title} (human vs {level}, by presses)", name,
                       [HUMAN, *[level] * (seats.start - 1)], first=0,
                       done=f"{title} game over")]  # fmt: skip
