"""The window's centre and titles, read from the unit's public state (display only);
what the status line says comes from the game (its ``table_status``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from firmware.api import CHANCE, HUMAN, get_game, seat_name
from sim.window import TableView


def seat_kind_name(kind: str) -> str:
    return "you" if kind == HUMAN else f"bot ({kind})"


#: The centre's line while no game is shown, by the unit's mode.
NO_GAME = {"setup": "set-up menu: YES next · CHIP change · NO back",
           "rolloff": "roll-off: who starts?"}  # fmt: skip


def game_table_view(game: str, state: Any, kinds: Sequence[str] = (), *, mode: str = "",
                    seed: int | None = None, rolling: bool = False,
                    shown: Any = None) -> TableView:  # fmt: skip
    """The centre and titles for ``state`` (None: before a game, e.g. the set-up menu)
    of the registered ``game``, under the status line the game says (its
    ``table_status``): a game shown as dice (its ``dice_table``: Switch 16) by
    :func:`dice_table_view`; another game's position in its own words (its
    ``describe``: the lines but the first and the last, its notation, the centre) and
    its picture (its ``table_picture``), large."""
    shown_game = get_game(game)
    names = tuple(seat_kind_name(kind) for kind in kinds)
    seed_line = () if seed is None else (f"seed {seed}",)
    if state is None:
        return TableView(status=NO_GAME.get(mode, ""), names=names,
                         dice_table=shown_game.dice_table,
                         info=(shown_game.title, *seed_line))  # fmt: skip
    status = shown_game.table_status(state, rolling=rolling, shown=shown)
    if shown_game.dice_table:
        return dice_table_view(state, status, names, seed_line, shown)
    lines = shown_game.describe(state)
    return TableView(status=status, names=names, dice_table=False, lines=tuple(lines[1:-1]),
                     info=(shown_game.title, *seed_line),
                     picture=shown_game.table_picture(state))  # fmt: skip


def dice_table_view(state: Any, status: str, names: tuple[str, ...],
                    seed_line: tuple[str, ...], shown: Any = None) -> TableView:  # fmt: skip
    """The table of a game shown as dice (its state says whose turn, its dice, switch,
    chip and decks); ``shown``: the roll that just ended a turn, still on the displays
    (its seat, dice and switch)."""
    over = state.game_over or state.round_pending
    info = [state.rules.name, "points game" if state.scores is not None else "single game"]
    if state.scores is not None:
        info[1] += f", round {state.round}"
        info += [f"{seat_name(s)}: {score}" for s, score in enumerate(state.scores)]
    info += seed_line
    to_roll = not over and state.current_player() == CHANCE  # a risk: dice to roll
    rolled = state.switch is not None and not to_roll
    dice, switch = (state.dice, str(state.switch)) if rolled else ((), None)
    turn = None if over else state.turn
    if shown is not None and not over:
        dice, switch, turn = shown.dice, shown.switch, shown.seat
    return TableView(
        status=status,
        turn=turn,
        dice=tuple(dice),
        switch=switch,
        chip_holder=state.chip_holder,
        chip_on=state.chip_on_seat,
        decks=tuple(state.colour_of(s) for s in range(state.players)),
        names=names,
        info=tuple(info),
    )
