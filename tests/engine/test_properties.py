"""Property tests over random legal games (hypothesis).

Two drivers:

- ``test_random_games_step_by_step`` draws every move through hypothesis
  (``st.data()``), so a failure shrinks to a short game. After every step it checks
  the invariants, that every listed decision is accepted and every unlisted one from
  the whole decision space raises, that a random probe action is either legal or
  raises leaving the state unchanged, and at the end that the transcript replays to
  the same states.
- ``test_seeded_games_to_the_end`` plays whole games (and points matches) from a
  seed through :mod:`firmware.games.switch16.driver` with random bots, checking the invariants and
  who acts (``actors``, ``current_player``, ``chance_outcomes``, the position
  JSON round trip) after every step and the transcript at the end.
"""

from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from firmware.games.switch16.bots import random_bots
from firmware.games.switch16.driver import moves
from firmware.games.switch16.engine import (
    COLOURS,
    DISCARD,
    PASS,
    PRESETS,
    RISK,
    Act,
    DiceCountError,
    Discard,
    Face,
    Green,
    NewRound,
    Phase,
    Place,
    Red,
    Refuse,
    Roll,
    State,
    Take,
    make_rules,
)
from firmware.games.switch16.engine.dice import can_make
from firmware.games.switch16.engine.notation import Header, action_from_json
from firmware.games.switch16.transcript_lines import action_line
from firmware.kernel.errors import IllegalActionError, PositionError
from firmware.kernel.players import CHANCE, TERMINAL
from firmware.transcript import header_line, replay_text

SEATS = range(-1, 5)  # one below and one above every real seat range
#: Every decision a seat (or the unit, for Discard) can express, legal or not.
DECISIONS = (
    [DISCARD, PASS, RISK, Green(None)]
    + [Green(s) for s in SEATS]
    + [Refuse(True), Refuse(False), Take(True), Take(False)]
    + [Red(s) for s in SEATS]
    + [Place(b, o) for b in SEATS for o in SEATS]
)

#: The same, with seats only one beyond each end of the real range (keeps checks fast).
DECISIONS_FOR = {
    n: [a for a in DECISIONS if not isinstance(a, Place) or (-1 <= a.by <= n and -1 <= a.on <= n)]
    for n in (2, 3, 4)
}

OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "points": st.booleans(),
        "refused_chip": st.sampled_from(["keep", "table", "attacker"]),
        "block_take": st.sampled_from(["choose", "must"]),
    },
)


# ---------------------------------------------------------------------- invariants
def check_invariants(s: State) -> None:
    n = s.players
    assert 2 <= n <= 4
    # cards conserved: each deck 0..16 gone, decks <-> seats a permutation
    assert len(s.discarded) == n
    assert all(0 <= d <= 16 for d in s.discarded)
    assert sorted(s.control) == list(range(n))
    # exactly one chip location
    holder, on_seat = s.chip_holder, s.chip_on_seat
    assert holder is None or on_seat is None
    chip = s.to_json()["chip"]
    if holder is not None:
        assert 0 <= holder < n and chip == {"held_by": holder}
    elif on_seat is not None:
        assert 0 <= on_seat < n and chip == {"on_deck": COLOURS[s.deck_of(on_seat)]}
    else:
        assert chip == "table"
    # turn seat valid
    assert 0 <= s.turn < n
    # the STATE object
    j = s.to_json()
    json.dumps(j)
    assert [seat["deck"] for seat in j["seats"]] == [COLOURS[s.deck_of(i)] for i in range(n)]
    assert [seat["discarded"] for seat in j["seats"]] == [s.discarded_of(i) for i in range(n)]
    assert j["phase"] in {p.value for p in Phase}
    assert j["turn"] == s.turn and j["winner"] == s.winner
    if s.rules.points:
        assert len(j["scores"]) == n and all(x >= 0 for x in j["scores"])
        assert j["match_winner"] is None or (max(j["scores"]) >= 100 and j["match_winner"])
    else:
        assert "scores" not in j
    # phase consistent
    roller = s.turn
    phase = s.phase
    if phase is Phase.OVER:
        assert s.winner is not None and s.discarded_of(s.winner) == 16
        assert s.legal_actions() == []
        assert sum(d == 16 for d in s.discarded) == 1
    else:
        assert s.winner is None
        assert all(d < 16 for d in s.discarded)
    assert s.is_chance == (phase is Phase.ROLL or s.round_pending)
    if phase is Phase.DISCARD:
        assert not s.blocked(roller)
        assert can_make(s.dice, s.top_card(roller))
    elif phase is Phase.RED:
        others = [s.top_card(x) for x in range(n) if x != roller]
        lowest = min(others)
        assert lowest < s.top_card(roller)
        tied = [x for x in range(n) if x != roller and s.top_card(x) == lowest]
        assert len(tied) >= 2
        assert [a.target for a in s.legal_actions() if isinstance(a, Red)] == tied
    elif phase is Phase.GREEN_REFUSAL:
        assert s.actor(Refuse(True)) == holder
        assert holder is not None and holder != roller
    elif phase is Phase.BLOCK:
        assert on_seat is not None and on_seat != roller
        assert s.rules.block_take == "choose"
    elif phase is Phase.ROLL:
        assert s.dice_count() == s.rules.dice_count(s.discarded_of(roller))


def check_who_acts(s: State, action) -> None:
    """actors, current_player and chance_outcomes agree with the legal actions, and
    the position rebuilds from its JSON."""
    actors = s.actors()
    player = s.current_player()
    legal = s.legal_actions()
    places = [a for a in legal if isinstance(a, Place)]
    placers = [seat for seat, act in actors if act is Act.PLACE]
    assert placers == sorted({a.by for a in places})
    assert all(act is not Act.PLACE for _, act in actors[len(placers) :])  # the chip first
    if actors:
        assert player == actors[-1].seat
        assert actors[-1].act is (Act.CHANCE if player == CHANCE else Act.DECIDE)
        assert len(actors) == len(placers) + 1
    assert all(s.may(seat, act) for seat, act in actors)
    assert not any(s.may(seat, Act.PLACE) for seat in range(s.players) if seat not in placers)
    outcomes = s.chance_outcomes()
    if player == TERMINAL:
        assert actors == ()
        assert s.game_over and legal == [] and outcomes == [] and action is None
    elif player == CHANCE:
        assert s.is_chance and legal == places
        assert sum(p for _, p in outcomes) == 1 and all(p > 0 for _, p in outcomes)
        for outcome, _ in (outcomes[0], outcomes[-1]):
            s.apply(outcome)
        if action is not None and not isinstance(action, Place):
            assert type(action) in {type(o) for o, _ in outcomes}
    else:
        assert outcomes == [] and 0 <= player < s.players
        decisions = [a for a in legal if not isinstance(a, Place)]
        assert decisions and all(s.actor(a) == player for a in decisions)
        if action is not None and not isinstance(action, Place):
            assert action in decisions
    assert State.from_json(json.loads(json.dumps(s.to_json(full=True)))) == s


def check_transition(before: State, action, after: State, discards: int) -> None:
    """What one accepted action may change."""
    n = before.players
    changed = [d for d in range(n) if before.discarded[d] != after.discarded[d]]
    roller_deck = before.deck_of(before.turn)
    if isinstance(action, NewRound):
        assert after.discarded == (0,) * n and after.control == tuple(range(n))
        assert after.turn == action.first and after.chip_holder is None
        assert after.chip_on_seat is None
        assert after.scores == before.scores
        return
    if isinstance(action, Discard):
        assert changed == [roller_deck]
        assert after.discarded[roller_deck] == before.discarded[roller_deck] + 1
    else:
        # only a penalty moves cards back, only on the roller's deck, to 0 or 8
        assert changed in ([], [roller_deck])
        if changed:
            assert after.discarded[roller_deck] in (0, 8)
            assert after.discarded[roller_deck] < before.discarded[roller_deck]
            assert before.risk
            assert after.turn == (before.turn + 1) % n
    # exchanges swap exactly two seats, one of them the roller
    moved = [x for x in range(n) if before.control[x] != after.control[x]]
    if moved:
        assert isinstance(action, Roll | Green | Red | Refuse)
        assert len(moved) == 2 and before.turn in moved
        a, b = moved
        assert after.control[a] == before.control[b] and after.control[b] == before.control[a]
        assert after.turn == (before.turn + 1) % n
    # the chip moves only by a block roll, a take, a place or a refusal
    if before.to_json()["chip"] != after.to_json()["chip"]:
        assert isinstance(action, Roll | Take | Place | Refuse)
    if isinstance(action, Place):
        assert after.chip_on_seat == action.on
    if after.phase is Phase.DECIDE:
        # decide only after a roll that discarded at least one card
        assert isinstance(action, Discard | Place)
        assert discards > 0
    if before.scores is not None and after.scores is not None:
        assert all(a >= b for a, b in zip(after.scores, before.scores, strict=True))


def check_decision_space(s: State) -> None:
    """Every listed decision is accepted, every other decision raises, state unchanged."""
    legal = s.legal_actions()
    assert len(set(legal)) == len(legal)
    snap, snap_json = copy.copy(s), s.to_json()
    for action in DECISIONS_FOR[s.players]:
        if action in legal:
            s.apply(action)
        else:
            try:
                s.apply(action)
            except IllegalActionError:
                pass
            else:
                raise AssertionError(f"{action!r} accepted but not listed in {s!r}")
    for action in legal:
        assert action in DECISIONS
    assert s == snap and s.to_json() == snap_json


def check_probe(s: State, action) -> None:
    """A random action is either legal (listed, or a valid chance outcome) or raises."""
    snap, snap_json = copy.copy(s), s.to_json()
    try:
        s.apply(action)
    except IllegalActionError:
        assert action not in s.legal_actions()
        if isinstance(action, Roll) and s.phase is Phase.ROLL:
            ok_dice = len(action.dice) == s.dice_count() and all(
                type(d) is int and 1 <= d <= 6 for d in action.dice
            )
            assert not ok_dice, f"{action!r} should be accepted"
    else:
        if isinstance(action, Roll):
            assert s.phase is Phase.ROLL and len(action.dice) == s.dice_count()
            assert all(1 <= d <= 6 for d in action.dice)
        elif isinstance(action, NewRound):
            assert s.round_pending and 0 <= action.first < s.players
        else:
            assert action in s.legal_actions()
    assert s == snap and s.to_json() == snap_json


def probe_actions(players: int):
    seat = st.integers(-1, players)
    return st.one_of(
        st.builds(
            Roll,
            st.lists(st.integers(0, 7), min_size=0, max_size=6).map(tuple),
            st.sampled_from(list(Face)),
        ),
        st.builds(
            Roll,
            st.lists(st.integers(1, 6), min_size=3, max_size=5).map(tuple),
            st.sampled_from(list(Face)),
        ),
        st.sampled_from(DECISIONS),
        st.builds(NewRound, seat),
        st.builds(Place, seat, seat),
    )


def check_roundtrip(header: Header, actions, states) -> None:
    lines = [header_line(header), *(action_line(a) for a in actions)]
    r = replay_text("\n".join(lines) + "\n")
    assert r.ok, r.error
    assert r.header == header
    assert r.actions == list(actions)
    assert r.state == states[-1]
    assert r.state.to_json() == states[-1].to_json()
    for a, line in zip(actions, lines[1:], strict=True):
        assert action_from_json(json.loads(line)) == a


# -------------------------------------------------------------------------- drivers
# Strategies built once: building them inside the game loop dominates the run time.
INDEX = [st.integers(0, k) for k in range(64)]
DICE = {n: st.tuples(*[st.integers(1, 6)] * n) for n in (3, 4, 5)}
FACES = st.sampled_from(list(Face))
PROBES = {n: probe_actions(n) for n in (2, 3, 4)}


def pick(data, options: list, label: str):
    return options[data.draw(INDEX[len(options) - 1], label=label)]


@settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    data=st.data(),
    players=st.integers(2, 4),
    preset=st.sampled_from(sorted(PRESETS)),
    options=OPTIONS,
)
def test_random_games_step_by_step(data, players, preset, options):
    rules = make_rules(preset, options)
    first = data.draw(INDEX[players - 1], label="first")
    header = Header(players, first, rules)
    state = header.initial_state()
    states, actions = [state], []
    discards = 0
    probes = PROBES[players]
    for _ in range(100):
        check_invariants(state)
        check_decision_space(state)
        check_probe(state, data.draw(probes, label="probe"))
        event(f"reached phase {state.phase.value}")
        if state.game_over:
            break
        legal = state.legal_actions()
        if state.round_pending:
            action = NewRound(data.draw(INDEX[players - 1], label="round first"))
        elif state.phase is Phase.ROLL:
            if legal and data.draw(INDEX[9], label="place?") == 0:
                action = pick(data, legal, "place")
            else:
                n = state.dice_count()
                for wrong in (n - 1, n + 1):
                    try:
                        state.apply(Roll((1,) * wrong, Face.BLANK))
                    except DiceCountError:
                        pass
                    else:
                        raise AssertionError(f"roll of {wrong} dice accepted, need {n}")
                action = Roll(data.draw(DICE[n], label="dice"), data.draw(FACES, label="face"))
        else:
            action = pick(data, legal, "decision")
        check_who_acts(state, action)
        new = state.apply(action)
        discards = 0 if isinstance(action, Roll) else discards + isinstance(action, Discard)
        check_transition(state, action, new, discards)
        state = new
        states.append(state)
        actions.append(action)
    check_invariants(state)
    check_roundtrip(header, actions, states)
    # a prefix of the transcript replays to the state reached at that point
    cut = data.draw(st.integers(0, len(actions)), label="cut")  # once per example
    check_roundtrip(header, actions[:cut], states[: cut + 1])


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(2, 4),
    preset=st.sampled_from(sorted(PRESETS)),
    options=OPTIONS,
)
def test_seeded_games_to_the_end(seed, players, preset, options):
    rng = random.Random(seed)
    header = Header(players, rng.randrange(players), make_rules(preset, options))
    state = start = header.initial_state()
    states, actions = [state], []
    discards = 0
    rounds_won = 0
    for before, action, state in moves(start, random_bots(players, rng), rng, 50_000):
        check_invariants(before)
        check_decision_space(before)
        check_who_acts(before, action)
        discards = 0 if isinstance(action, Roll) else discards + isinstance(action, Discard)
        check_transition(before, action, state, discards)
        if state.phase is Phase.OVER and before.phase is not Phase.OVER:
            rounds_won += 1
            if before.scores is not None:
                assert sum(state.scores) >= sum(before.scores) + 16
                assert state.scores[state.winner] == before.scores[state.winner] + 16
        states.append(state)
        actions.append(action)
    assert state.game_over, "game does not end"
    check_who_acts(state, None)
    check_invariants(state)
    assert state.winner is not None and state.discarded_of(state.winner) == 16
    if header.rules.points:
        assert max(state.scores) >= 100
        top = max(state.scores)
        leaders = [x for x in range(players) if state.scores[x] == top]
        expected = [state.winner] if state.winner in leaders else leaders
        assert state.to_json()["match_winner"] == expected
        assert state.round == rounds_won
    else:
        assert rounds_won == 1
    check_roundtrip(header, actions, states)


def test_a_position_names_what_is_wrong() -> None:
    good = State.new(2).apply(Roll((1, 2, 4), Face.GREEN)).to_json(full=True)
    for key, value, words in [
        ("phase", "dance", "'phase'"),
        ("turn", 5, "'turn'"),
        ("dice", [7], "'dice'"),
        ("chip", {"held_by": 9}, "'chip'"),
        ("target", 1, "'target'"),
        ("colour", "red", "unknown key 'colour'"),
        ("rules", "nope", "unknown rules preset"),
    ]:
        bad = {**good, key: value}
        with pytest.raises(PositionError, match=words):
            State.from_json(bad)
    with pytest.raises(PositionError, match="'dice' and 'switch'"):
        State.from_json({**good, "dice": [], "switch": None})
