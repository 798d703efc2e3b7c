"""The window's centre and titles, read from the unit's public state (display only)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from firmware.api import DEFAULT_GAME, HUMAN, get_game, seat_name
from sim.window import TableView

#: The status line of a game shown as dice (its ``dice_table``), by its state's phase.
STATUS = {
    "roll": "{who} to roll",
    "discard": "{who} discards…",
    "decide": "{who}: risk (roll) or pass?",
    "green": "green: {who} may name a seat",
    "green_refusal": "green: {target} may refuse with the chip",
    "red": "red: {who} picks the lowest seat",
    "block": "block: {who} takes or leaves the chip",
}
#: The phases of a game shown as dice that :data:`STATUS` does not tell.
OVER, ROLL = "over", "roll"


def seat_kind_name(kind: str) -> str:
    return "you" if kind == HUMAN else f"bot ({kind})"


#: The centre's line while no game is shown, by the unit's mode.
NO_GAME = {"setup": "set-up menu: YES next · CHIP change · NO back",
           "rolloff": "roll-off: who starts?"}  # fmt: skip


def game_table_view(game: str, state: Any, kinds: Sequence[str] = (), *, mode: str = "",
                    seed: int | None = None, rolling: bool = False,
                    shown: Any = None) -> TableView:  # fmt: skip
    """The centre and titles for ``state`` of the registered ``game``: a game shown as
    dice (its ``dice_table``: Switch 16) by :func:`table_view`; another game's position
    in its own words (its ``describe``: the last line the status, the others but the
    first, its notation, the centre) and its picture (its ``table_picture``), large."""
    shown_game = get_game(game)
    if shown_game.dice_table:
        return table_view(state, kinds, mode=mode, seed=seed, rolling=rolling, shown=shown,
                          game=game)  # fmt: skip
    names = tuple(seat_kind_name(kind) for kind in kinds)
    seed_line = () if seed is None else (f"seed {seed}",)
    if state is None:
        return TableView(status=NO_GAME.get(mode, ""), names=names, dice_table=False,
                         info=(shown_game.title, *seed_line))  # fmt: skip
    lines = shown_game.describe(state)
    return TableView(status=lines[-1], names=names, dice_table=False, lines=tuple(lines[1:-1]),
                     info=(shown_game.title, *seed_line),
                     picture=shown_game.table_picture(state))  # fmt: skip


def table_view(
    state: Any,
    kinds: Sequence[str] = (),
    *,
    mode: str = "",
    seed: int | None = None,
    rolling: bool = False,
    shown: Any = None,
    game: str = DEFAULT_GAME,
) -> TableView:
    """The centre and titles for ``state`` (None: before a game, e.g. the set-up menu)
    of a game shown as dice, ``game`` (its ``dice_table``: the state says whose turn,
    its phase, dice, switch, chip and decks); ``shown``: the roll that just ended a
    turn, still on the displays (its seat, dice, switch and outcome)."""
    names = tuple(seat_kind_name(kind) for kind in kinds)
    seed_line = () if seed is None else (f"seed {seed}",)
    if state is None:
        return TableView(status=NO_GAME.get(mode, ""), names=names,
                         info=(get_game(game).title, *seed_line))  # fmt: skip
    who = seat_name(state.turn)
    if state.phase == OVER:
        status = "game over" if state.winner is None else f"{seat_name(state.winner)} wins!"
        if state.round_pending:
            status = f"{status} Next round…" if state.winner is None else f"{status} (round)"
    elif shown is not None:
        status = f"{seat_name(shown.seat)} rolled: {shown.outcome}"
    elif rolling:
        status = f"{who} is rolling…"
    else:
        target = "" if state.target is None else seat_name(state.target)
        status = STATUS[str(state.phase)].format(who=who, target=target)
    info = [state.rules.name, "points game" if state.scores is not None else "single game"]
    if state.scores is not None:
        info[1] += f", round {state.round}"
        info += [f"{seat_name(s)}: {score}" for s, score in enumerate(state.scores)]
    info += seed_line
    rolled = state.switch is not None and state.phase != ROLL  # a risk: dice to roll
    dice, switch = (state.dice, str(state.switch)) if rolled else ((), None)
    turn = None if state.phase == OVER else state.turn
    if shown is not None and state.phase != OVER:
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
