"""What each seat's display shows during Swytch: the controller's UI state -> a view.

The set-up, the roll-off and the unit shell's messages and screensaver use the unit's
screens (as Switch 16 does); play and the end use Swytch's own (:mod:`.screens`): the
two players' boards, each from its own side, and the onlooker board on the other
displays of a 3-4 seat unit.
"""

from __future__ import annotations

from firmware.kernel.players import HUMAN
from firmware.screens import BlankView, SeatView, pixel_shift
from firmware.unit.menus import setup_menu
from firmware.unit.rolloff import rolloff_view
from firmware.unit.shell import shell_view
from firmware.unit.ui_state import Mode

from .picker import Picker
from .screens import SwytchView
from .screens.build import LABELS, end_view, onlooker_view, player_view
from .screens.views import LastTurn
from .state import State
from .ui_state import SwytchUi


def seat_labels(kinds: tuple[str, ...]) -> tuple[str, ...]:
    """The sides' names, with the bot level for bots ("NORTH·hard")."""
    return tuple(
        LABELS[s] if kind == HUMAN else f"{LABELS[s]}·{kind}" for s, kind in enumerate(kinds)
    )


def saver_text(ui: SwytchUi, seat: int) -> str:
    """What wanders on ``seat``'s screensaver: its side's counters left in a game, else
    the game's name."""
    st = ui.state
    if ui.mode is Mode.PLAY and st is not None and seat < st.players:
        return str(st.counters(seat))
    return "SWYTCH"


def seat_view(ui: SwytchUi, seat: int) -> SeatView | SwytchView:
    """The view ``seat`` shows for the controller's UI state."""
    shift = pixel_shift(ui.shell.shift_counter)
    over = shell_view(ui.shell, seat, lambda: saver_text(ui, seat))
    if over is not None:
        return over
    if ui.mode is Mode.SETUP and ui.question is not None:
        q = ui.question
        return setup_menu(q.title, q.options, q.value, ui.question_index > 0, shift)
    if ui.mode is Mode.ROLLOFF and ui.rolloff is not None:
        kinds = ui.rolloff.seats or ui.kinds
        return rolloff_view(ui.rolloff, seat, seat_labels(kinds), shift)
    st = ui.state
    if ui.mode is not Mode.PLAY or st is None:
        return BlankView()
    if st.game_over:
        return end_view(st, seat, shift=shift, review=ui.shell.review(seat))
    if seat >= st.players:
        return onlooker_view(st, ui.last, shift=shift)
    picker, last, reading = board_of(st, seat, ui.picker, ui.last, ui.last_for)
    return player_view(st, seat, picker, last, shift=shift, reading=reading,
                       corner=ui.corner(seat))  # fmt: skip


def board_of(
    state: State, seat: int, picker: Picker | None, last: LastTurn | None, last_for: int | None
) -> tuple[Picker | None, LastTurn | None, bool]:
    """What a player's board shows of the game's picker and last turn: the seat on turn
    its picker and the last turn (marked until it acts), and whether it reads that turn."""
    on_turn = seat == state.to_move
    return (picker if on_turn else None), (last if on_turn else None), last_for == seat
