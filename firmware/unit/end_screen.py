"""The end screen, written once for every game: YES a rematch, NO a new game.

When a game is finished (:attr:`~firmware.games.game.GameController.finished`: a game
won or drawn, a points match decided; a round ending inside a match is the game's own
"continue"), a press is the unit's, never the game controller's (:func:`respond`):
after the shell's part (a press that wakes the screensaver or dismisses a message does
nothing else), a seat that answers the end
(:func:`~firmware.kernel.players.answers_the_end`) presses

- YES (:data:`~.controls.END`'s row: :attr:`~.controls.Do.REMATCH`): the same set-up again
  (:attr:`~.shell.Shell.played`), started by the game's
  :meth:`~firmware.games.game.Game.rematch_starter` (by default nobody: a roll-off, as
  a new game's). Journaled as a new game is: a new transcript, its header written
  before the roll-off shows. (No set-up known, a resumed game's the game could not
  say: the set-up, as NO);
- NO (:attr:`~.controls.Do.NEW_GAME`): a new game, the set-up (or a preset's roll-off).
"""

from __future__ import annotations

from firmware.games.game import Game, GameController
from firmware.kernel.players import answers_the_end
from hal.events import Button, ButtonDown, Event

from .commands import Command, NewGame, RollOff, StartGame
from .controls import CONTROLS, END, Do, does


def respond(controller: GameController, game: Game, event: Event, now: float) -> list[Command]:
    """What the unit does for an input event: a press on a finished game's screen is
    the end screen's (:func:`answer`) once the shell let it through; any other event
    the controller's."""
    if isinstance(event, ButtonDown) and controller.finished:
        if controller.shell.takes(event, now):
            return []
        return answer(controller, game, event.seat, event.button)
    return controller.handle(event, now)


def answer(controller: GameController, game: Game, seat: int, button: Button) -> list[Command]:
    """The end screen's answer to ``seat``'s ``button`` (nothing from a seat that does
    not answer the end, or from a button without a key)."""
    if not answers_the_end(controller.kinds, seat):
        return []
    step = does(CONTROLS[END], button)
    if step is Do.NEW_GAME:
        return [NewGame()]
    if step is not Do.REMATCH:
        return []
    played = controller.shell.played
    if played is None:  # a resumed game whose set-up the game could not say
        return [NewGame()]
    first = game.rematch_starter(controller.state)
    return [RollOff(played)] if first is None else [StartGame(played, first)]
