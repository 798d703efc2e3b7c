"""Short forms of the reliability scripts in ``tools/reliability`` (their long forms and
figures are in the README's "Reliability" section)."""

from __future__ import annotations

from tools.reliability import faults, fuzz_transcripts, powercut, soak


def test_power_cuts_of_real_processes() -> None:
    out = powercut.run(kills=4, games=0, seed=5, max_delay=2.5, log=None)
    assert out.kills == 4 and not out.problems, out.problems


def test_damaged_transcripts() -> None:
    count, problems = fuzz_transcripts.run(seed=11, count=300)
    assert count == 300 and not problems, problems[0] if problems else ""


def test_faults_in_bot_games() -> None:
    assert faults.main(["--games", "1", "--seed", "3"]) == 0


def test_soak() -> None:
    result = soak.run_job(seed=2, games=4)
    assert result.games == 4 and result.actions > 0 and result.presses > 0
