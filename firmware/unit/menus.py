"""The set-up's menus, as every game's set-up shows them (the keys of
:data:`~firmware.unit.controls.CONTROLS`' set-up row as the legend)."""

from __future__ import annotations

from collections.abc import Sequence

from firmware.screens import MenuView

from .controls import CONTROLS, Part, Screen, legend


def setup_menu(
    title: str,
    options: Sequence[str],
    highlight: int = 0,
    can_back: bool = True,
    shift: tuple[int, int] = (0, 0),
) -> MenuView:
    """A set-up menu (players, bots and levels, rules preset, plain/points), drawn
    ``shift`` pixels off (the burn-in shift)."""
    keys = CONTROLS[Screen.SETUP, Part.ANY]
    return MenuView(title, tuple(options), highlight, legend(keys), can_back, shift)
