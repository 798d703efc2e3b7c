"""Switch 16's actions entered by presses (a test rig's by-press player, ``switch16
hil``): the buttons a seat presses, from the unit's UI state, for an action, read off the
controls tables (:data:`.controls.CONTROLS`, the unit's for a message) and the open
menu's options
(:func:`~firmware.games.switch16.game_views.choices`)."""

from __future__ import annotations

from firmware.unit.controls import CONTROLS as UNIT_CONTROLS
from firmware.unit.controls import Do, Part, Screen, button_for
from firmware.unit.ui_state import Mode
from hal.events import Button

from .controls import row
from .engine import Action, Phase, Roll
from .game_views import choices
from .ui_state import UiState

#: Any button: a press that only wakes the screensaver, dismisses a message or takes a
#: roll left up away does nothing else.
ANY = Button.NO


def presses_for(ui: UiState, seat: int, action: Action) -> tuple[Button, ...] | None:
    """The buttons ``seat`` presses to enter ``action`` from ``ui``: a press first that
    only wakes the screensaver, dismisses a message or takes a roll left up away; then YES
    to roll (the dice are chance's: a test mode forces them), the button the controls
    table binds to the action, or the open menu stepped to its option and confirmed.
    None: not this seat's to enter now (or the chip, laid by the holder's own menu)."""
    st = ui.state
    if st is None or ui.mode is not Mode.PLAY or st.game_over:
        return None
    first: tuple[Button, ...] = ()
    if ui.shell.saver:  # (a dimmed display's press acts)
        first += (ANY,)
    if ui.shell.message is not None:
        first += (button_for(UNIT_CONTROLS[Screen.MESSAGE, Part.ANY], Do.DISMISS),)
    if ui.roll_shown is not None:
        first += (ANY,)
    menu = ui.menu(seat)
    if type(action) is Roll:
        if st.phase is not Phase.ROLL or seat != st.turn or menu is not None:
            return None
        return (*first, button_for(row(st, seat), Do.ROLL))
    if menu is not None:
        options = [option for _, option in choices(st, seat, menu.placing)]
        if action not in options:
            return None
        keys = row(st, seat, menu.placing)
        steps = (options.index(action) - menu.highlight) % len(options)
        return (*first, *[button_for(keys, Do.NEXT)] * steps, button_for(keys, Do.OK))
    if st.actor(action) != seat:
        return None
    try:
        return (*first, button_for(row(st, seat), action))
    except LookupError:  # an action no key of this seat's row enters (the chip's)
        return None
