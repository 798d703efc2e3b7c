"""The game state and the rules that move it (docs/RULES.md).

A :class:`State` is an immutable value: :meth:`State.apply` returns a new state
and never changes the old one, so an illegal action (which raises a subclass of
:class:`IllegalActionError`) leaves the caller's state exactly as it was.

Representation: deck ``d`` is colour ``COLOURS[d]``; ``discarded[d]`` counts its
gone cards; ``control[s]`` is the deck seat ``s`` controls. The chip is either
held (``chip_holder``, a seat), lying on a deck (``chip_deck``, a deck index) or on the
table (both None). Fields ending in ``_mask`` are bit sets: bit ``i`` stands for seat or card ``i``.
"""

from __future__ import annotations

from enum import StrEnum
from fractions import Fraction
from functools import cache
from typing import Any, NamedTuple

from firmware.kernel.players import CHANCE, TERMINAL
from firmware.kernel.seats import seat_name

from .actions import (
    ACCEPT,
    DECLINE,
    DISCARD,
    LEAVE,
    PASS,
    REFUSE,
    RISK,
    SWITCH_ODDS,
    TAKE,
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
from .dice import MAKEABLE, roll_ways
from .errors import (
    ChipError,
    DiceCountError,
    GameOverError,
    IllegalActionError,
    TargetError,
    WrongPhaseError,
)
from .phase import BLOCK, DECIDE, DISCARD_PHASE, GREEN, GREEN_REFUSAL, OVER, RED, ROLL, Phase
from .position import full_fields, position_fields
from .rules import CARDS, COLOURS, MAX_PLAYERS, MIN_PLAYERS, POINTS_TARGET, Rules, make_rules


class Act(StrEnum):
    """What an actor may do now (:meth:`State.actors`)."""

    PLACE = "place"  #: lay the chip it holds on another seat's deck (or keep it)
    DECIDE = "decide"  #: the decision the game waits for (``Discard`` in phase discard)
    CHANCE = "chance"  #: roll the dice, or start a points game's next round


class Actor(NamedTuple):
    """One who may act now: a seat (or :data:`CHANCE`) and what it may do."""

    seat: int
    act: Act


#: Phases in which nobody may lay the chip (an answer to a green switch is due, or
#: the round is over).
_NO_PLACE_PHASES = (GREEN_REFUSAL, OVER)
_FACES = frozenset(Face)
# Enum members as module names: ``Face.BLANK`` is a slow class-attribute lookup on 3.11.
_BLANK, _GREEN_FACE, _BLOCK_FACE = Face.BLANK, Face.GREEN, Face.BLOCK


class State:
    """One position of a game (or of a points match). Immutable by contract."""

    __slots__ = (
        "chip_deck",
        "chip_holder",
        "control",
        "dice",
        "discarded",
        "first",
        "makeable_mask",
        "match_winners",
        "phase",
        "players",
        "red_choices",
        "refused_mask",
        "risk",
        "rolled_discards",
        "round",
        "rules",
        "scores",
        "switch",
        "target",
        "turn",
        "winner",
    )

    rules: Rules
    players: int
    first: int
    discarded: tuple[int, ...]
    control: tuple[int, ...]
    chip_holder: int | None
    chip_deck: int | None
    turn: int
    phase: Phase
    risk: bool
    dice: tuple[int, ...]
    switch: Face | None
    makeable_mask: int
    rolled_discards: int
    refused_mask: int
    target: int | None
    red_choices: tuple[int, ...]
    winner: int | None
    scores: tuple[int, ...] | None
    round: int
    match_winners: tuple[int, ...] | None

    # ------------------------------------------------------------------ set-up
    @classmethod
    def new(cls, players: int, first: int = 0, rules: Rules | None = None) -> State:
        """A fresh game: seat ``s`` controls deck ``s``, chip on the table, ``first`` rolls."""
        if type(players) is not int or not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"players must be {MIN_PLAYERS}..{MAX_PLAYERS}, got {players!r}")
        if type(first) is not int or not 0 <= first < players:
            raise ValueError(f"first must be a seat 0..{players - 1}, got {first!r}")
        rules = rules or make_rules()
        s = object.__new__(cls)
        s.rules = rules
        s.players = players
        s.scores = (0,) * players if rules.points else None
        s.round = 1
        s.match_winners = None
        s._start_round(first)
        return s

    def _start_round(self, first: int) -> None:
        n = self.players
        self.first = first
        self.discarded = (0,) * n
        self.control = tuple(range(n))
        self.chip_holder = None
        self.chip_deck = None
        self.winner = None
        self.dice = ()
        self.switch = None
        self.makeable_mask = 0
        self._next_turn(first)

    def _next_turn(self, seat: int | None = None) -> None:
        """Start the turn of ``seat`` (default: the next seat): it rolls."""
        self.turn = (self.turn + 1) % self.players if seat is None else seat
        self.phase = ROLL
        self.risk = False
        self.rolled_discards = 0
        self.refused_mask = 0
        self.target = None
        self.red_choices = ()

    def _copy(self) -> State:
        s = object.__new__(State)
        s.rules = self.rules
        s.players = self.players
        s.first = self.first
        s.discarded = self.discarded
        s.control = self.control
        s.chip_holder = self.chip_holder
        s.chip_deck = self.chip_deck
        s.turn = self.turn
        s.phase = self.phase
        s.risk = self.risk
        s.dice = self.dice
        s.switch = self.switch
        s.makeable_mask = self.makeable_mask
        s.rolled_discards = self.rolled_discards
        s.refused_mask = self.refused_mask
        s.target = self.target
        s.red_choices = self.red_choices
        s.winner = self.winner
        s.scores = self.scores
        s.round = self.round
        s.match_winners = self.match_winners
        return s

    # ------------------------------------------------------------- questions
    def deck_of(self, seat: int) -> int:
        """Index of the deck ``seat`` controls (its colour is ``COLOURS[index]``)."""
        return self.control[seat]

    def colour_of(self, seat: int) -> str:
        return COLOURS[self.control[seat]]

    def discarded_of(self, seat: int) -> int:
        """Cards gone from the deck ``seat`` controls."""
        return self.discarded[self.control[seat]]

    def top_card(self, seat: int) -> int:
        """Top card of the deck ``seat`` controls (17 once card 16 is gone)."""
        return self.discarded[self.control[seat]] + 1

    def blocked(self, seat: int) -> bool:
        """True when the chip lies on the deck ``seat`` controls."""
        return self.chip_deck == self.control[seat]

    def green_targets(self) -> list[int]:
        """The seats the roller may name on a green switch: every other seat that has
        not refused this switch (phase ``green``)."""
        turn, refused = self.turn, self.refused_mask
        return [s for s in range(self.players) if s != turn and not refused >> s & 1]

    @property
    def chip_on_seat(self) -> int | None:
        """The seat whose deck the chip lies on, if it lies on a deck."""
        return None if self.chip_deck is None else self.control.index(self.chip_deck)

    def dice_count(self, seat: int | None = None) -> int:
        """Numbered dice ``seat`` (default: the seat to move) rolls now."""
        return self.rules.dice_count(
            self.discarded[self.control[self.turn if seat is None else seat]]
        )

    # ------------------------------------------------------------- who acts
    def actors(self) -> tuple[Actor, ...]:
        """Who may act now, with what, in the order to ask them: the chip holder may lay
        the chip first (an interjection it may let pass: before a roll, between two
        discards, before a decision), then the seat the game waits for decides, or
        chance acts (a roll, a points game's next round). () once the game is over.

        >>> s = State.new(2)
        >>> s.actors() == ((CHANCE, Act.CHANCE),)
        True
        >>> s = s.apply(Roll((1, 2, 4), Face.BLOCK))     # seat 0 takes the chip
        >>> [(seat, act.value) for seat, act in s.actors()]
        [(0, 'place'), (0, 'decide')]
        """
        holder = self.chip_holder
        placing = 0 if holder is None or self.phase in _NO_PLACE_PHASES else holder + 1
        return _ACTORS[placing][self.current_player() - TERMINAL]

    def may(self, seat: int, act: Act) -> bool:
        """True when ``seat`` may do ``act`` now (it is one of :meth:`actors`)."""
        return (seat, act) in self.actors()

    def current_player(self) -> int:
        """The seat the game waits for (the last of :meth:`actors`), :data:`CHANCE` or
        :data:`TERMINAL`, as OpenSpiel names them. Chance rolls the dice (phase
        ``roll``) and starts a points game's next round; in phase ``discard`` the
        rolling seat acts (the unit discards for it); a named seat answers a green
        switch.

        >>> s = State.new(2)
        >>> s.current_player() == CHANCE
        True
        >>> s.apply(Roll((1, 2, 4), Face.BLANK)).current_player()
        0
        """
        phase = self.phase
        if phase is ROLL:
            return CHANCE
        if phase is OVER:
            return CHANCE if self.round_pending else TERMINAL
        if phase is GREEN_REFUSAL:
            return self.target  # type: ignore[return-value]  # set in this phase
        return self.turn

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        """Every chance outcome due now with its exact probability; [] when a seat acts.

        A roll's dice come in ascending order (their order never changes the game); a
        points game's next round starts at each seat alike (the roll-off is fair).

        >>> outcomes = State.new(2).chance_outcomes()
        >>> len(outcomes), sum(p for _, p in outcomes)
        (224, Fraction(1, 1))
        """
        if self.phase is ROLL:
            return list(_roll_outcomes(self.dice_count()))
        if self.round_pending:
            p = Fraction(1, self.players)
            return [(NewRound(s), p) for s in range(self.players)]
        return []

    @property
    def is_chance(self) -> bool:
        """True when the next action comes from chance: a roll, or a new round's roll-off."""
        return self.current_player() == CHANCE

    @property
    def round_pending(self) -> bool:
        """Points game: a round ended and the match goes on (a ``NewRound`` is due)."""
        return self.phase is OVER and self.scores is not None and self.match_winners is None

    @property
    def game_over(self) -> bool:
        """True when nothing more can be played (single game won, or match decided)."""
        return self.phase is OVER and not self.round_pending

    def actor(self, action: Action) -> int | None:
        """The seat that takes ``action`` (None for a new round: the unit starts it)."""
        if type(action) is Place:
            return action.by
        if type(action) is Refuse:
            return self.target
        if type(action) is NewRound:
            return None
        return self.turn

    # ----------------------------------------------------------------- equality
    def _key(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in State.__slots__)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        tops = ", ".join(f"{self.colour_of(s)}:{self.top_card(s)}" for s in range(self.players))
        return f"<State turn={self.turn} phase={self.phase.value} [{tops}] chip={self.chip_json()}>"

    # ------------------------------------------------------------------ output
    def chip_json(self) -> Any:
        if self.chip_holder is not None:
            return {"held_by": self.chip_holder}
        if self.chip_deck is not None:
            return {"on_deck": COLOURS[self.chip_deck]}
        return "table"

    def to_json(self, full: bool = False) -> dict[str, Any]:
        """The STATE object of docs/TRANSCRIPTS.md (plus scores in a points game).

        ``full=True`` adds what :meth:`from_json` needs to rebuild this exact state
        (rules, the current roll, refusals: see :mod:`firmware.games.switch16.engine.position`).
        """
        out: dict[str, Any] = {
            "seats": [{"deck": COLOURS[d], "discarded": self.discarded[d]} for d in self.control],
            "chip": self.chip_json(),
            "turn": self.turn,
            "phase": self.phase.value,
            "winner": self.winner,
        }
        if self.scores is not None:
            out["round"] = self.round
            out["scores"] = list(self.scores)
            out["match_winner"] = list(self.match_winners) if self.match_winners else None
        if full:
            out.update(full_fields(self))
        return out

    @classmethod
    def from_json(cls, obj: Any, rules: Rules | None = None) -> State:
        """The state a position object describes (``to_json(full=True)``, or a replay's
        STATE object); ``rules`` overrides the object's. Raises PositionError.

        >>> s = State.new(3).apply(Roll((1, 2, 4), Face.GREEN))
        >>> State.from_json(s.to_json(full=True)) == s
        True
        """
        s = object.__new__(cls)
        for name, value in position_fields(obj, rules).items():
            setattr(s, name, value)
        return s

    # ------------------------------------------------------------- legal moves
    def legal_actions(self) -> list[Action]:
        """Every decision legal now (chance outcomes, Roll and NewRound, are not listed)."""
        phase = self.phase
        if phase is ROLL:
            acts: list[Action] = []
        elif phase is DISCARD_PHASE:
            acts = [DISCARD]
        elif phase is DECIDE:
            acts = [PASS, RISK]
        elif phase is GREEN:
            acts = [DECLINE]
            acts += [_GREEN[s] for s in self.green_targets()]
        elif phase is GREEN_REFUSAL:
            return [REFUSE, ACCEPT]
        elif phase is RED:
            acts = [_RED[s] for s in self.red_choices]
        elif phase is BLOCK:
            return [TAKE, LEAVE]
        else:
            return []
        holder = self.chip_holder
        if holder is not None:
            acts += _PLACES[self.players][holder]
        return acts

    # ------------------------------------------------------------------ moves
    def apply(self, action: Action) -> State:
        """The state after ``action``; raises IllegalActionError (self unchanged) if illegal."""
        try:
            handler = _HANDLERS[type(action)]
        except KeyError:
            raise IllegalActionError(f"not an action: {action!r}") from None
        s = self._copy()
        handler(s, action)
        return s

    # Handlers mutate the fresh copy ``self`` (never a state anyone else holds).
    # Each handler checks everything before it changes anything: an illegal action
    # leaves even a state stepped in place (firmware.games.switch16.engine.inplace) as it was.
    def _wrong_phase(self, what: str) -> IllegalActionError:
        """The error for ``what`` out of its phase."""
        if self.round_pending:
            return WrongPhaseError(f"{what}: the round is over; a new round starts next")
        if self.phase is OVER:
            return GameOverError(f"{what}: the game is over")
        return WrongPhaseError(f"{what} is not possible in phase {self.phase.value!r}")

    def _roll(self, action: Roll) -> None:
        if self.phase is not ROLL:
            raise self._wrong_phase("roll")
        dice = action.dice
        roller = self.turn
        need = self.rules.dice_count(self.discarded[self.control[roller]])
        if type(dice) is not tuple or len(dice) != need:
            raise DiceCountError(
                f"{seat_name(roller)} must roll {need} numbered dice, got {len(dice)}"
                if isinstance(dice, tuple)
                else f"dice must be a tuple, got {dice!r}"
            )
        for d in dice:
            if type(d) is not int:
                raise DiceCountError(f"dice must be whole numbers 1..6, got {list(dice)}")
        mask = MAKEABLE.get(dice)
        if mask is None:
            raise DiceCountError(f"dice must be whole numbers 1..6, got {list(dice)}")
        face = action.switch
        if type(face) is not Face:
            if face not in _FACES:
                raise DiceCountError(f"unknown switch face {face!r}")
            face = Face(face)
        self.dice = dice
        self.switch = face
        self.makeable_mask = mask
        self.rolled_discards = 0
        if face is _BLANK:
            self._evaluate()
        elif face is _BLOCK_FACE:
            self._rolled_block()
        elif face is _GREEN_FACE:
            self.phase = GREEN
            self.refused_mask = 0
        else:
            top = self.discarded[self.control[roller]]
            lower = [
                (self.discarded[self.control[s]], s)
                for s in range(self.players)
                if s != roller and self.discarded[self.control[s]] < top
            ]
            if not lower:
                self._next_turn()
                return
            lowest = min(lower)[0]
            tied = tuple(s for d, s in lower if d == lowest)
            if len(tied) == 1:
                self._exchange(roller, tied[0])
                self._next_turn()
            else:
                self.phase = RED
                self.red_choices = tied

    def _rolled_block(self) -> None:
        roller = self.turn
        deck = self.chip_deck
        if deck is not None and deck != self.control[roller] and self.rules.block_take == "choose":
            self.phase = BLOCK
            return
        self.chip_holder = roller
        self.chip_deck = None
        self._evaluate()

    def _evaluate(self) -> None:
        """Evaluate the numbered dice of the current roll for the roller's deck."""
        deck = self.control[self.turn]
        if self.chip_deck != deck and self.makeable_mask >> (self.discarded[deck] + 1) & 1:
            self.phase = DISCARD_PHASE
        else:
            self._nothing_discarded()

    def _nothing_discarded(self) -> None:
        if self.risk:
            deck = self.control[self.turn]
            d = list(self.discarded)
            d[deck] = self.rules.after_penalty(d[deck])
            self.discarded = tuple(d)
        self._next_turn()

    def _exchange(self, a: int, b: int) -> None:
        c = list(self.control)
        c[a], c[b] = c[b], c[a]
        self.control = tuple(c)

    def _discard(self, action: Discard) -> None:
        if self.phase is not DISCARD_PHASE:
            raise self._wrong_phase("discard")
        deck = self.control[self.turn]
        d = list(self.discarded)
        gone = d[deck] + 1
        d[deck] = gone
        self.discarded = tuple(d)
        self.rolled_discards += 1
        if gone == CARDS:
            self._win(self.turn)
        elif not self.makeable_mask >> (gone + 1) & 1:
            self.phase = DECIDE

    def _win(self, seat: int) -> None:
        self.winner = seat
        self.phase = OVER
        if self.scores is None:
            return
        scores = tuple(
            score + (CARDS if s == seat else self.discarded[self.control[s]])
            for s, score in enumerate(self.scores)
        )
        self.scores = scores
        top = max(scores)
        if top >= POINTS_TARGET:
            leaders = tuple(s for s in range(self.players) if scores[s] == top)
            self.match_winners = (seat,) if seat in leaders else leaders

    def _pass(self, action: Pass) -> None:
        if self.phase is not DECIDE:
            raise self._wrong_phase("pass")
        self._next_turn()

    def _risk(self, action: Risk) -> None:
        if self.phase is not DECIDE:
            raise self._wrong_phase("risk")
        self.phase = ROLL
        self.risk = True
        self.rolled_discards = 0

    def _green(self, action: Green) -> None:
        if self.phase is not GREEN:
            raise self._wrong_phase("green")
        target = action.target
        if target is None:
            self._evaluate()
            return
        self._check_seat(target, "green target")
        if target not in self.green_targets():
            raise TargetError(
                f"{seat_name(target)} cannot switch with itself"
                if target == self.turn
                else f"{seat_name(target)} already refused this switch"
            )
        if self.chip_holder == target:
            self.phase = GREEN_REFUSAL
            self.target = target
        else:
            self._exchange(self.turn, target)
            self._next_turn()

    def _refuse(self, action: Refuse) -> None:
        if self.phase is not GREEN_REFUSAL:
            raise self._wrong_phase("refuse")
        if type(action.refuses) is not bool:
            raise IllegalActionError(f"refuse value must be true or false, got {action.refuses!r}")
        target = self.target
        assert target is not None  # phase green_refusal names a target
        if not action.refuses:
            self._exchange(self.turn, target)
            self._next_turn()
            return
        self.refused_mask |= 1 << target
        self.target = None
        fate = self.rules.refused_chip
        if fate == "table":
            self.chip_holder = None
        elif fate == "attacker":
            self.chip_holder = self.turn
        self.phase = GREEN

    def _red(self, action: Red) -> None:
        if self.phase is not RED:
            raise self._wrong_phase("red")
        if type(action.target) is not int or action.target not in self.red_choices:
            got = seat_name(action.target) if type(action.target) is int else repr(action.target)
            choices = ", ".join(map(seat_name, self.red_choices))
            raise TargetError(f"red switch must pick one of {choices}, got {got}")
        self._exchange(self.turn, action.target)
        self._next_turn()

    def _take(self, action: Take) -> None:
        if self.phase is not BLOCK:
            raise self._wrong_phase("take")
        if type(action.takes) is not bool:
            raise IllegalActionError(f"take value must be true or false, got {action.takes!r}")
        if action.takes:
            self.chip_holder = self.turn
            self.chip_deck = None
        self._evaluate()

    def _place(self, action: Place) -> None:
        if self.phase in _NO_PLACE_PHASES:
            if self.phase is OVER:
                raise self._wrong_phase("place")
            raise WrongPhaseError("the chip cannot be laid while a green switch awaits an answer")
        by, on = action.by, action.on
        self._check_seat(by, "place by")
        self._check_seat(on, "place on")
        if self.chip_holder != by:
            where = self.chip_json()
            raise ChipError(f"{seat_name(by)} does not hold the chip (chip: {where})")
        if on == by:
            raise TargetError(f"{seat_name(by)} cannot lay the chip on its own deck")
        self.chip_holder = None
        self.chip_deck = self.control[on]
        if self.phase is DISCARD_PHASE and on == self.turn:
            if self.rolled_discards:
                self.phase = DECIDE
            else:
                self._nothing_discarded()

    def _new_round(self, action: NewRound) -> None:
        if not self.round_pending:
            if self.phase is not OVER:
                raise WrongPhaseError(f"a new round cannot start in phase {self.phase.value!r}")
            raise GameOverError(
                "new round: the game is over"
                + ("" if self.scores is None else " (the match is decided)")
            )
        self._check_seat(action.first, "new round first")
        self.round += 1
        self._start_round(action.first)

    def _check_seat(self, seat: object, what: str) -> None:
        if type(seat) is not int or not 0 <= seat < self.players:
            raise TargetError(f"{what}: {seat!r} is not a seat 0..{self.players - 1}")


_HANDLERS: dict[type, Any] = {
    Roll: State._roll,
    Discard: State._discard,
    Pass: State._pass,
    Risk: State._risk,
    Green: State._green,
    Refuse: State._refuse,
    Red: State._red,
    Take: State._take,
    Place: State._place,
    NewRound: State._new_round,
}


@cache
def _roll_outcomes(n_dice: int) -> tuple[tuple[Roll, Fraction], ...]:
    total = 6**n_dice
    return tuple(
        (Roll(dice, face), Fraction(ways, total) * p)
        for dice, ways in roll_ways(n_dice)
        for face, p in SWITCH_ODDS.items()
    )


def _actors(holder: int | None, mover: int) -> tuple[Actor, ...]:
    first = () if holder is None else (Actor(holder, Act.PLACE),)
    if mover == TERMINAL:
        return first
    return (*first, Actor(mover, Act.CHANCE if mover == CHANCE else Act.DECIDE))


#: :meth:`State.actors`, built once: ``_ACTORS[0 or 1 + the chip holder who may lay
#: it][current_player() - TERMINAL]`` (the rows for -3 and -2 are never read).
_ACTORS = tuple(
    tuple(_actors(holder, mover) for mover in range(TERMINAL, MAX_PLAYERS))
    for holder in (None, *range(MAX_PLAYERS))
)
_GREEN = tuple(Green(s) for s in range(MAX_PLAYERS))
_RED = tuple(Red(s) for s in range(MAX_PLAYERS))
_PLACES = {
    n: tuple(tuple(Place(by, on) for on in range(n) if on != by) for by in range(n))
    for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)
}
