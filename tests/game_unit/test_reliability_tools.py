"""Short forms of the reliability scripts in ``tools/reliability`` (their long forms and
figures are in docs/RELIABILITY.md)."""

from __future__ import annotations

import pytest

from firmware.games.registry import game_names
from tools.reliability import faults, fuzz_transcripts, powercut, soak, storage


def test_power_cuts_of_real_processes() -> None:
    out = powercut.run(kills=4, games=0, seed=5, max_delay=2.5, log=None)
    assert out.kills == 4 and not out.problems, out.problems


def test_damaged_transcripts() -> None:
    count, problems = fuzz_transcripts.run(seed=11, count=300)
    assert count == 300 and not problems, problems[0] if problems else ""


def test_faults_in_bot_games() -> None:
    assert faults.main(["--games", "1", "--seed", "3"]) == 0


@pytest.mark.parametrize("game", game_names())
def test_soak(game: str) -> None:
    result = soak.run_job(seed=2, games=4, game=game)
    assert result.game == game and result.games == 4
    assert result.actions > 0 and result.presses > 0


@pytest.mark.parametrize("game", game_names())
def test_storage_faults_on_an_ext4_card(game: str) -> None:
    """Every storage fault once in every registered game, on a real ext4 image on a loop
    device (needs root)."""
    try:
        out = storage.run(games=1, seed=7, game=game)  # games whose mid-game full card bites
    except storage.Unavailable as exc:
        print(f"storage campaign skipped: {exc}")
        pytest.skip(f"cannot mount an ext4 image here: {exc}")
    assert [o.games for o in out.values()] == [1] * len(storage.SCENARIOS)
    assert not [o.problems for o in out.values() if o.problems]
    stopped = {name for name, o in out.items() if o.unsaved}  # the faults really bit
    assert {"full at game end", "full mid-game", "read-only at game end"} <= stopped
