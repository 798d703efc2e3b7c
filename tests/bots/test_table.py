"""Bots told the table: the master's search predicts the rulebook and expert bots'
own choices, and heads up plays the solved best response to the expert."""

from __future__ import annotations

import random
import sys

import pytest

from firmware.games.switch16.bots import Bot, ExpertBot, RulebookBot, make_bot
from firmware.games.switch16.bots.search import Search
from firmware.games.switch16.bots.stats import train_master
from firmware.games.switch16.bots.value import (
    Key,
    Model,
    RoleModel,
    TableModel,
    key_of,
    load_data,
    model_for,
    role_size,
    table_keys,
)
from firmware.games.switch16.driver import moves
from firmware.games.switch16.engine import (
    PRESETS,
    REFUSE,
    RISK,
    TAKE,
    Green,
    Phase,
    Place,
    Red,
    State,
    make_rules,
)
from firmware.games.switch16.engine.dice import run_length

from .helpers import position


def test_make_bot_tells_the_table() -> None:
    bot = make_bot("expert", 1, random.Random(1), table=("human", "expert"))
    assert bot.table == ("human", "expert")
    assert make_bot("expert", 1).table is None
    with pytest.raises(ValueError, match="seat 4"):
        make_bot("rulebook", 3, table=("human", "expert"))


def test_master_predicts_only_the_bots_it_knows() -> None:
    state = position(4, [3, 5, 7, 9])
    bot = make_bot("master", 0, table=("master", "rulebook", "human", "expert"))
    assert bot.search(state).kinds == ("max", "rulebook", "max", "expert")  # type: ignore[attr-defined]
    assert make_bot("master", 2).search(state).kinds == ("max",) * 4  # type: ignore[attr-defined]
    # Another master, or people only: everybody maximises, the shared search.
    other = make_bot("master", 1, table=("master", "master", "human", "human"))
    assert other.search(state) is make_bot("master", 1).search(state)  # type: ignore[attr-defined]


def _abstract(state: State) -> tuple[tuple[int, ...], int, int]:
    ds, blocked, holder, _ = key_of(state)
    return ds, blocked, holder


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("level", ["rulebook", "expert"])
def test_search_predicts_the_bots_choices(preset: str, level: str) -> None:
    """Every choice a rulebook or expert bot makes in real games is the one (or one of
    the tied ones) the search predicts for it on the abstraction."""
    rules = make_rules(preset)
    checked: dict[str, int] = {}
    for seed in range(12):
        players = 2 + seed % 3
        search = Search(rules, players, kinds=(level,) * players)
        rng = random.Random(seed)
        bots: list[Bot] = [
            (RulebookBot if level == "rulebook" else ExpertBot)(s, random.Random(seed * 7 + s))
            for s in range(players)
        ]
        state = State.new(players, rng.randrange(players), rules)
        for before, action, _ in moves(state, bots, rng):
            phase, r = before.phase, before.turn
            ds, blocked, holder = _abstract(before)
            d = ds[r]
            if type(action) is Place:
                assert before.phase is Phase.DISCARD  # these bots lay only between discards
                if before.rolled_discards == 0:
                    k = run_length(before.makeable_mask, d + 1)
                    assert search.bot_lays(action.by, r, ds, k, before.risk)
                checked["lay"] = checked.get("lay", 0) + 1
            elif phase is Phase.DISCARD and holder >= 0 and holder != r:
                if before.rolled_discards == 0 and not before.blocked(r):
                    k = run_length(before.makeable_mask, d + 1)
                    assert not search.bot_lays(holder, r, ds, k, before.risk)
            elif phase is Phase.DECIDE:
                assert (action == RISK) == search.bot_risks(r, ds, blocked), before
                checked["risk"] = checked.get("risk", 0) + 1
            elif phase is Phase.GREEN and not before.refused_mask:
                k = 0 if before.blocked(r) else run_length(before.makeable_mask, d + 1)
                named = search.bot_green(r, ds, blocked, holder, k, before.risk)
                assert isinstance(action, Green)
                choice = action.target
                if (
                    choice is not None
                    and choice == holder
                    and search.refuses(choice, r, ds, blocked)
                ):
                    continue  # named, it refuses: the search skips to the choice after that
                assert (choice in named) if named else choice is None, (before, action, named)
                assert all(t in before.green_targets() for t in named)
                checked["green"] = checked.get("green", 0) + 1
            elif phase is Phase.GREEN_REFUSAL:
                t = before.current_player()
                assert (action == REFUSE) == search.refuses(t, r, ds, blocked)
                checked["refuse"] = checked.get("refuse", 0) + 1
            elif phase is Phase.RED:
                assert isinstance(action, Red)
                assert action.target in search.bot_red(r, ds, blocked, holder)
                checked["red"] = checked.get("red", 0) + 1
            elif phase is Phase.BLOCK:
                assert (action == TAKE) == search.bot_takes(r, ds, blocked)
                checked["take"] = checked.get("take", 0) + 1
    assert {"risk", "green", "red", "lay"} <= set(checked), checked


def test_heads_up_best_response_to_the_expert() -> None:
    """Two players against a known expert: the solved best response, from either seat;
    it is worth more than the both-maximise table against that expert's opening."""
    rules = make_rules()
    first = model_for(rules, 2, ("max", "expert"))
    second = model_for(rules, 2, ("expert", "max"))
    assert isinstance(first, TableModel) and isinstance(second, TableModel)
    for key in table_keys(2)[::131]:
        ds, b, h, t = key
        mirrored = ((ds[1], ds[0]), -1 if b < 0 else 1 - b, -1 if h < 0 else 1 - h, 1 - t)
        assert second.probs(mirrored) == pytest.approx(first.probs(key)[::-1])
    opening = [first.probs(((0, 0), -1, -1, t))[0] for t in (0, 1)]
    assert 0.5 < sum(opening) / 2 < 0.6


def _rotated(key: Key, by: int) -> Key:
    """The same position with every seat number moved ``by`` places."""
    ds, blocked, holder, turn = key
    n = len(ds)
    return (
        tuple(ds[(s - by) % n] for s in range(n)),
        -1 if blocked < 0 else (blocked + by) % n,
        -1 if holder < 0 else (holder + by) % n,
        (turn + by) % n,
    )


@pytest.mark.parametrize("preset", list(PRESETS))
def test_four_players_against_rulebook_bots_read_the_role_model(preset: str) -> None:
    """A master against three rulebook bots reads its table's role model from any seat:
    the same position gives the same values wherever the master sits."""
    rules = PRESETS[preset]
    tables = [tuple("max" if s == me else "rulebook" for s in range(4)) for me in range(4)]
    models = [model_for(rules, 4, kinds) for kinds in tables]
    assert [type(m) for m in models] == [RoleModel] * 4
    assert [m.me for m in models if isinstance(m, RoleModel)] == [0, 1, 2, 3]
    for key in [((3, 9, 0, 12), 2, -1, 1), ((0, 0, 0, 0), -1, 0, 3), ((5, 1, 14, 2), -1, 3, 0)]:
        seen = models[0].probs(key)
        assert abs(sum(seen) - 1) < 1e-9
        for by in (1, 2, 3):
            there = models[by].probs(_rotated(key, by))
            assert [there[(s + by) % 4] for s in range(4)] == pytest.approx(seen)
    mixed = model_for(rules, 4, ("max", "rulebook", "expert", "rulebook"))
    assert type(mixed) is Model


def test_role_training_is_deterministic() -> None:
    from firmware.games.switch16.bots.stats.train_master import (
        fit_role,  # lazy: numpy, the test extra
    )

    generic = load_data()["models"]["pressman-2003/4"]
    first = fit_role("pressman-2003", 4, "rulebook", generic, games=4, seed=5, rounds=1)
    assert len(first) == 2 * role_size(4)
    assert first == fit_role("pressman-2003", 4, "rulebook", generic, games=4, seed=5, rounds=1)


def test_trainer_without_numpy_says_which_extra(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "numpy", None)  # import numpy → ImportError
    assert train_master.main(["--games", "1"]) == 2
    assert "'.[train]'" in capsys.readouterr().err
