""":mod:`firmware.api`, the host's entry, composes the unit; it does not relay the seam.
A host asks a game (``get_game(name).levels``) and its UI state
(``unit.controller.ui().seat_kinds()``) itself: a function of the entry that only
forwards one of their members to its caller is a second name for it, and goes."""

from __future__ import annotations

import ast

from .scan import ROOT

ENTRY = ROOT / "firmware" / "api.py"
#: The seam's look-up: ``get_game(name).x`` forwards as much as ``game.x``.
LOOKUP = "get_game"


def _reads_only(node: ast.expr, params: set[str]) -> bool:
    """``node`` is a parameter's member (``ui.roll_shown``, ``ui.seat_kinds()``,
    ``unit.controller.ui()``, ``get_game(game).render(view)``, ``ui.tumble is not None``)
    and nothing more."""
    if isinstance(node, ast.Compare) and len(node.comparators) == 1:
        other = node.comparators[0]
        return isinstance(other, ast.Constant) and _reads_only(node.left, params)
    if isinstance(node, ast.Call):
        node = node.func
    if not isinstance(node, ast.Attribute):
        return False
    owner = node.value
    while isinstance(owner, ast.Attribute):  # unit.controller.ui(): the unit's member's
        owner = owner.value
    if isinstance(owner, ast.Call) and isinstance(owner.func, ast.Name):
        return owner.func.id == LOOKUP and all(
            isinstance(a, ast.Name) and a.id in params for a in owner.args
        )
    return isinstance(owner, ast.Name) and owner.id in params


def pass_throughs(source: str) -> list[str]:
    """The top-level functions of ``source`` whose body (after a docstring) only returns
    a member of a parameter (:func:`_reads_only`)."""
    found = []
    for node in ast.parse(source).body:
        if not isinstance(node, ast.FunctionDef):
            continue
        body = node.body[1:] if ast.get_docstring(node) is not None else node.body
        params = {a.arg for a in node.args.args}
        if len(body) == 1 and isinstance(body[0], ast.Return) and body[0].value is not None \
                and _reads_only(body[0].value, params):  # fmt: skip
            found.append(node.name)
    return found


def test_the_check_sees_a_pass_through() -> None:
    source = '''
def shown_roll(ui):
    """doc"""
    return ui.roll_shown
def tumbling(ui):
    return ui.tumble is not None
def render_view(game, view):
    return get_game(game).render(view)
def seat_kinds(ui):
    return ui.seat_kinds()
def ui_state(unit):
    return unit.controller.ui()
def game_options(game, words):
    return given_options(get_game(game), words)
def make(hal, settings):
    options = settings.game
    return Unit.from_settings(hal, options)
'''
    assert pass_throughs(source) == [
        "shown_roll", "tumbling", "render_view", "seat_kinds", "ui_state"]  # fmt: skip


def test_the_host_entry_relays_nothing_of_the_seam() -> None:
    bad = pass_throughs(ENTRY.read_text(encoding="utf-8"))
    assert not bad, f"firmware/api.py relays the seam: {bad} (ask the game or its UI state)"
