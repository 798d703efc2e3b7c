"""An internal fast path for walking a whole transcript: one private State changed in place.

The public engine stays immutable: :meth:`State.apply` copies. Replay (the unit's
journal at boot, ``switch16 replay``) and self-play (:func:`firmware.driver.steps`)
keep no intermediate state, so they may move one private copy along instead
(:func:`thaw`, :func:`apply_in_place`), through the same handlers ``apply`` uses, and
hand out a copy at the end (:func:`freeze`). :func:`handler_for` gives each
action its in-place step; a roll, the commonest action, is checked once per distinct
action object (the dice and the face) and only its state-dependent part per use.

The results are identical to ``apply`` (tests replay thousands of generated
transcripts both ways). A step that raises may leave the private state half-changed:
callers rebuild the state before the bad action with ``apply`` (the error path only).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from .actions import (
    Action,
    Discard,
    Face,
    Green,
    NewRound,
    Pass,
    Place,
    Red,
    Refuse,
    Risk,
    Roll,
    Take,
)
from .dice import MAKEABLE
from .errors import IllegalActionError
from .rules import CARDS, POINTS_TARGET
from .state import (
    _HANDLERS,
    BLOCK,
    DECIDE,
    DISCARD_PHASE,
    GREEN,
    GREEN_REFUSAL,
    OVER,
    RED,
    ROLL,
    State,
)

BLANK, GREEN_FACE, BLOCK_FACE = Face.BLANK, Face.GREEN, Face.BLOCK

Step = Callable[[State, Action], None]


def thaw(state: State) -> State:
    """A private copy to change in place (the caller's state is never touched)."""
    return state._copy()


def freeze(state: State) -> State:
    """An immutable copy of a private state, safe to hand out."""
    return state._copy()


def apply_in_place(state: State, action: Action) -> None:
    """``state.apply(action)`` without the copy: a :func:`thaw`-ed state becomes the next
    state (for a driver that keeps no earlier state; an illegal action raises as
    ``apply`` does, but may leave ``state`` half-changed)."""
    try:
        handler = _HANDLERS[type(action)]
    except KeyError:
        raise IllegalActionError(f"not an action: {action!r}") from None
    handler(state, action)


def handler_for(action: Action) -> Step:
    """The in-place step for ``action`` (raises IllegalActionError for a non-action)."""
    kind = type(action)
    if kind is Roll:
        return _roll_step(action)  # type: ignore[arg-type]
    handler = _HANDLERS.get(kind)
    if handler is None:
        raise IllegalActionError(f"not an action: {action!r}")
    step: Step = handler
    return step


def _roll_step(action: Roll) -> Step:
    """A roll whose dice and face are valid values gets a step that skips checking them
    again; anything odd goes through the full handler (which raises as ``apply`` does)."""
    dice = action.dice
    mask = MAKEABLE.get(dice) if type(dice) is tuple and all(type(d) is int for d in dice) else None
    face = action.switch
    if mask is None or type(face) is not Face or face is Face.RED:
        full: Step = _HANDLERS[Roll]
        return full
    count = len(dice)
    evaluate = State._evaluate
    rolled_block = State._rolled_block

    def roll(s: State, _: Action) -> None:
        if s.phase is not ROLL or count != s.rules.dice_count(s.discarded[s.control[s.turn]]):
            s._roll(action)  # raises exactly as apply() would
            return
        s.dice = dice
        s.switch = face
        s.makeable_mask = mask
        s.rolled_discards = 0
        if face is Face.BLANK:
            evaluate(s)
        elif face is Face.BLOCK:
            rolled_block(s)
        else:  # green
            s.phase = GREEN
            s.refused_mask = 0

    return roll


# --------------------------------------------------------------------- walk
# Opcodes of :func:`entry`, commonest first (the walk tests them in this order).
_DISCARD, _ROLL, _PASS, _RISK, _GREEN, _TAKE, _PLACE, _REFUSE, _RED, _ROUND, _ODD = range(11)

#: One action prepared for :func:`walk`: (action, opcode, operands...).
Entry = tuple[Any, ...]


def entry(action: Action) -> Entry:
    """``action`` with its opcode and checked operands (an odd value gets ``_ODD``:
    the walk hands such a transcript back to the line-by-line path)."""
    odd = (action, _ODD)
    # Exact types (actions are never subclassed); mypy narrows `type(action) is X`.
    if type(action) is Discard:
        return (action, _DISCARD)
    if type(action) is Roll:
        dice, face = action.dice, action.switch
        ok = type(dice) is tuple and all(type(d) is int for d in dice)
        mask = MAKEABLE.get(dice) if ok else None
        if mask is None or type(face) is not Face:
            return odd
        return (action, _ROLL, dice, face, mask)
    if type(action) is Pass:
        return (action, _PASS)
    if type(action) is Risk:
        return (action, _RISK)
    if type(action) is Green:
        target = action.target
        return (action, _GREEN, target) if target is None or type(target) is int else odd
    if type(action) is Take:
        return (action, _TAKE, action.takes) if type(action.takes) is bool else odd
    if type(action) is Refuse:
        return (action, _REFUSE, action.refuses) if type(action.refuses) is bool else odd
    if type(action) is Place:
        by, on = action.by, action.on
        return (action, _PLACE, by, on) if type(by) is int and type(on) is int else odd
    if type(action) is Red:
        return (action, _RED, action.target) if type(action.target) is int else odd
    if type(action) is NewRound:
        return (action, _ROUND, action.first) if type(action.first) is int else odd
    return odd


def walk(start: State, entries: Iterable[Entry]) -> State | None:
    """The state after every action of ``entries`` (from :func:`entry`), or None as
    soon as one is illegal or odd (the caller replays line by line to say why).

    The rules of :class:`State`'s handlers, kept in local variables for the whole
    walk: no state object, copy or method call per action. Tests check it against
    ``apply`` on thousands of generated and damaged transcripts.
    """
    rules = start.rules
    players = start.players
    dice_count = tuple(rules.dice_count(d) for d in range(CARDS + 1))
    penalty = tuple(rules.after_penalty(d) for d in range(CARDS + 1))
    choose = rules.block_take == "choose"
    fate = rules.refused_chip
    first = start.first
    disc = list(start.discarded)
    ctrl = list(start.control)
    holder = start.chip_holder
    cdeck = start.chip_deck
    turn = start.turn
    phase = start.phase
    risk = start.risk
    dice = start.dice
    switch = start.switch
    mask = start.makeable_mask
    rdisc = start.rolled_discards
    refused = start.refused_mask
    target = start.target
    red = start.red_choices
    winner = start.winner
    scores = start.scores
    rnd = start.round
    mwin = start.match_winners
    # Module constants as locals (LOAD_FAST in the loop).
    op_discard, op_roll, op_pass, op_risk, op_green = _DISCARD, _ROLL, _PASS, _RISK, _GREEN
    op_take, op_place, op_refuse, op_red, op_round = _TAKE, _PLACE, _REFUSE, _RED, _ROUND
    rolling, discarding, deciding, greening, answering = (
        ROLL,
        DISCARD_PHASE,
        DECIDE,
        GREEN,
        GREEN_REFUSAL,
    )
    redding, blocking, over, cards = RED, BLOCK, OVER, CARDS
    blank, green_face, block_face = BLANK, GREEN_FACE, BLOCK_FACE
    # Each branch either ends with ``continue`` or falls through to the tail: evaluate
    # the roll for the roller's deck (State._evaluate), then end the turn. A branch
    # that ends the turn without evaluating does so itself (the six lines of _next_turn).
    for e in entries:
        op = e[1]
        if op == op_discard:
            if phase is not discarding:
                return None
            deck = ctrl[turn]
            gone = disc[deck] + 1
            disc[deck] = gone
            rdisc += 1
            if gone == cards:
                winner = turn
                phase = over
                if scores is not None:
                    scores = tuple(
                        score + (cards if s == turn else disc[ctrl[s]])
                        for s, score in enumerate(scores)
                    )
                    top = max(scores)
                    if top >= POINTS_TARGET:
                        leaders = tuple(s for s in range(players) if scores[s] == top)
                        mwin = (turn,) if turn in leaders else leaders
            elif not mask >> (gone + 1) & 1:
                phase = deciding
            continue
        if op == op_roll:
            if phase is not rolling or len(e[2]) != dice_count[disc[ctrl[turn]]]:
                return None
            dice = e[2]
            switch = face = e[3]
            mask = e[4]
            rdisc = 0
            if face is block_face:
                if cdeck is not None and cdeck != ctrl[turn] and choose:
                    phase = blocking
                    continue
                holder = turn
                cdeck = None
            elif face is green_face:
                phase = greening
                refused = 0
                continue
            elif face is not blank:  # red
                top = disc[ctrl[turn]]
                lower = [
                    (disc[ctrl[s]], s) for s in range(players) if s != turn and disc[ctrl[s]] < top
                ]
                if lower:
                    lowest = min(lower)[0]
                    tied = tuple(s for d, s in lower if d == lowest)
                    if len(tied) > 1:
                        phase = redding
                        red = tied
                        continue
                    t = tied[0]
                    ctrl[turn], ctrl[t] = ctrl[t], ctrl[turn]
                turn = (turn + 1) % players
                phase = rolling
                risk = False
                rdisc = refused = 0
                target = None
                red = ()
                continue
        elif op == op_pass:
            if phase is not deciding:
                return None
            turn = (turn + 1) % players
            phase = rolling
            risk = False
            rdisc = refused = 0
            target = None
            red = ()
            continue
        elif op == op_risk:
            if phase is not deciding:
                return None
            phase = rolling
            risk = True
            rdisc = 0
            continue
        elif op == op_green:
            if phase is not greening:
                return None
            t = e[2]
            if t is not None:
                if not 0 <= t < players or t == turn or refused >> t & 1:
                    return None
                if holder == t:
                    phase = answering
                    target = t
                    continue
                ctrl[turn], ctrl[t] = ctrl[t], ctrl[turn]
                turn = (turn + 1) % players
                phase = rolling
                risk = False
                rdisc = refused = 0
                target = None
                red = ()
                continue
        elif op == op_take:
            if phase is not blocking:
                return None
            if e[2]:
                holder = turn
                cdeck = None
        elif op == op_place:
            if phase is answering or phase is over:
                return None
            by, on = e[2], e[3]
            if not (0 <= by < players and 0 <= on < players) or holder != by or on == by:
                return None
            holder = None
            cdeck = ctrl[on]
            if phase is not discarding or on != turn:
                continue
            if rdisc:
                phase = deciding
                continue
            # the roller's deck is blocked now: nothing more is discarded (the tail)
        elif op == op_refuse:
            if phase is not answering:
                return None
            assert target is not None
            if e[2]:
                refused |= 1 << target
                target = None
                if fate == "table":
                    holder = None
                elif fate == "attacker":
                    holder = turn
                phase = greening
                continue
            ctrl[turn], ctrl[target] = ctrl[target], ctrl[turn]
            turn = (turn + 1) % players
            phase = rolling
            risk = False
            rdisc = refused = 0
            target = None
            red = ()
            continue
        elif op == op_red:
            t = e[2]
            if phase is not redding or t not in red:
                return None
            ctrl[turn], ctrl[t] = ctrl[t], ctrl[turn]
            turn = (turn + 1) % players
            phase = rolling
            risk = False
            rdisc = refused = 0
            target = None
            red = ()
            continue
        elif op == op_round:
            if phase is not over or scores is None or mwin is not None:
                return None
            f = e[2]
            if not 0 <= f < players:
                return None
            rnd += 1
            first = f
            disc = [0] * players
            ctrl = list(range(players))
            holder = cdeck = winner = switch = None
            dice = ()
            mask = 0
            turn = f
            phase = rolling
            risk = False
            rdisc = refused = 0
            target = None
            red = ()
            continue
        else:
            return None
        # the tail: evaluate (a place that blocked the roller skips straight past the
        # check: the chip now lies on its deck, so the check fails anyway)
        deck = ctrl[turn]
        if cdeck != deck and mask >> (disc[deck] + 1) & 1:
            phase = discarding
            continue
        if risk:
            disc[deck] = penalty[disc[deck]]
        turn = (turn + 1) % players
        phase = rolling
        risk = False
        rdisc = refused = 0
        target = None
        red = ()
    s = object.__new__(State)
    s.rules = rules
    s.players = players
    s.first = first
    s.discarded = tuple(disc)
    s.control = tuple(ctrl)
    s.chip_holder = holder
    s.chip_deck = cdeck
    s.turn = turn
    s.phase = phase
    s.risk = risk
    s.dice = dice
    s.switch = switch
    s.makeable_mask = mask
    s.rolled_discards = rdisc
    s.refused_mask = refused
    s.target = target
    s.red_choices = red
    s.winner = winner
    s.scores = scores
    s.round = rnd
    s.match_winners = mwin
    return s
