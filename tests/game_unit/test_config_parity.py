"""``check-config`` rejects exactly the configs ``run`` rejects (issue 9), each error
naming its key or byte."""

from __future__ import annotations

from pathlib import Path

import pytest
import tomli_w

from tools.reliability.configs import reference_document
from tools.reliability.fuzz_configs import compare, run_verdict

BASE = reference_document()


def write(tmp_path: Path, **sections: object) -> Path:
    doc = {**BASE, "state": {"dir": str(tmp_path / "state")}, **sections}
    path = tmp_path / "unit.toml"
    path.write_text(tomli_w.dumps(doc))
    return path


@pytest.mark.parametrize(
    ("sections", "key"),
    [
        ({"rules": {"preset": "nope"}}, "rules.preset"),
        ({"state": {"dir": "a\0b"}}, "state.dir"),
        ({"seats": []}, "seats"),
    ],
)
def test_configs_that_check_config_passed_but_run_crashed_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], sections: dict, key: str
) -> None:
    from firmware.cli import main

    path = write(tmp_path, **sections)
    assert main(["check-config", str(path)]) == 1
    assert key + ":" in capsys.readouterr().err
    assert not run_verdict(path)


def test_a_config_that_is_not_utf8_names_the_byte(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from firmware.cli import main

    path = tmp_path / "unit.toml"
    path.write_bytes(b'[unit]\nname = "caf\xe9"\n')
    assert main(["check-config", str(path)]) == 1
    assert "line 2: not UTF-8 text (byte 18: 0xE9)" in capsys.readouterr().err
    assert not run_verdict(path)


def test_check_config_and_run_agree_on_a_generated_corpus() -> None:
    # the seat = N keys and the reference's LED keys (issue 22) are mutation targets too:
    # 200 cases leave 17 configs that both accept
    result = compare(seed=20261124, count=200)
    assert result.cases == 200 and result.accepted > 5
    assert not result.mismatches, result.mismatches[0]
