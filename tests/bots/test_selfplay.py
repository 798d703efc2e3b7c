"""Self-play: the seam's runner plays Switch 16 as its own runner did, determinism
across processes, the command's output, transcripts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from firmware.cli import main
from firmware.games.selfplay import run, wilson
from firmware.games.switch16.game import GAME

#: Switch 16's own runner's figures (before it went, at b563105) for a few tables, seeds,
#: presets and a points match: what the seam's runner must give for the same seeds.
BEFORE = json.loads((Path(__file__).parent / "selfplay_before.json").read_text())


@pytest.mark.parametrize("before", BEFORE, ids=lambda b: f"{'-'.join(b['seats'])}-{b['seed']}")
def test_the_seam_s_runner_plays_switch16_as_its_own_runner_did(before: dict[str, Any]) -> None:
    """Same starters, bots' rngs and dice per seed: the very games, so the very figures."""
    got = run(GAME, before["seats"], before["games"], before["options"], seed=before["seed"])
    data, games = got.to_json(), before["games"]
    assert [s["wins"] for s in data["win_rate"]] == before["wins"]
    assert data["game_lengths"] == before["game_lengths"] and data["length_unit"] == "turns"
    assert data["mean_length"] * games == pytest.approx(before["turns"])
    for key, mean in (("rolls", "mean_rolls"), ("rounds", "mean_rounds"),
                      ("placements", "chip_placements_per_game")):  # fmt: skip
        assert data[mean] * games == pytest.approx(before[key]), key
    faces = data["switch_faces"].values()
    assert [f["rolled"] for f in faces] == before["rolled"]
    assert [f["mattered"] for f in faces] == before["mattered"]
    assert data["turn_discards"] == before["turn_discards"]


def test_same_seed_same_results_for_any_jobs() -> None:
    seats = ["expert", "rulebook", "easy"]
    one = run(GAME, seats, 450, seed=5, jobs=1)
    two = run(GAME, seats, 450, seed=5, jobs=2)
    assert one.to_json() == two.to_json()
    other = run(GAME, seats, 450, seed=6, jobs=1)
    assert other.to_json() != one.to_json()


def test_wilson_interval() -> None:
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    assert wilson(0, 10)[0] == 0.0


def test_command_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selfplay", "--games", "60", "--seats", "expert,rulebook", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "60 games" in out and "expert" in out and "95% CI" in out and "turns" in out
    assert "green" in out and "cards discarded per turn" in out


def test_command_json_points(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selfplay", "--games", "6", "--points", "--json", "--rules", "tablier"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 6 and data["options"] == {"rules": "tablier", "points": True}
    assert sum(s["wins"] for s in data["win_rate"]) == pytest.approx(6)
    assert data["mean_rounds"] > 1


def test_save_and_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    save = tmp_path / "games"
    args = ["selfplay", "--games", "5", "--seats", "easy,rulebook,expert", "--save", str(save)]
    assert main(args) == 0
    files = sorted(save.glob("game-*.jsonl"))
    assert [f.name for f in files] == [f"game-000{i}.jsonl" for i in range(1, 6)]
    capsys.readouterr()
    assert main(["replay", "--json", *map(str, files)]) == 0
    for line in capsys.readouterr().out.splitlines():
        result = json.loads(line)
        assert "error" not in result and result["state"]["phase"] == "over"


@pytest.mark.parametrize(
    ("seats", "needle"),
    [("expert,wizard,easy", "entry 2 is 'wizard'"), ("expert", "2 to 4 seats")],
)
def test_bad_seats(seats: str, needle: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selfplay", "--games", "1", "--seats", seats]) == 2
    assert needle in capsys.readouterr().err


def test_plots(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    assert main(["selfplay", "--games", "20", "--plots", str(tmp_path)]) == 0
    assert {p.name for p in tmp_path.glob("*.png")} == {
        "win_rates.png",
        "game_length.png",
        "discards_per_turn.png",
    }


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_switch16_s_own_steps_are_the_seam_s_default_steps(seed: int) -> None:
    """Switch 16's fast :meth:`~firmware.games.game.Game.play_out` (who acts read once a
    step, one state in place) plays the very game the seam's default (who acts asked
    every step, a new position each) plays for the same bots and dice."""
    import random

    from firmware.games.game import Game
    from firmware.games.switch16.engine.inplace import freeze

    seats = ("expert", "rulebook", "easy")

    def played(play_out: Any) -> list[tuple[Any, Any]]:
        rng = random.Random(seed)
        bots = [GAME.make_bot(kind, s, random.Random(seed + s), seats) for s, kind in
                enumerate(seats)]  # fmt: skip
        state = GAME.header(GAME.setup_with(seats, {"points": True}), seed % 3).initial_state()
        return [(action, freeze(after)) for action, after in play_out(state, bots, rng)]

    fast = played(GAME.play_out)
    assert fast == played(lambda *args: Game.play_out(GAME, *args)) and len(fast) > 100
