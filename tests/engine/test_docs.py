"""The examples in docs/TRANSCRIPTS.md replay as the page says (the doc is kept true)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from firmware import cli

DOC = Path(__file__).resolve().parents[2] / "docs" / "TRANSCRIPTS.md"
EXAMPLE = re.compile(r"```jsonl\n(.*?)```\s*```json\n(.*?)```", re.S)


def examples() -> list[tuple[str, dict]]:
    found = [(text, json.loads(expected)) for text, expected in EXAMPLE.findall(DOC.read_text())]
    assert len(found) >= 2
    return found


@pytest.mark.parametrize(("text", "expected"), examples())
def test_doc_example_replays(
    text: str, expected: dict, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "example.jsonl"
    path.write_text(text)
    status = cli.main(["replay", "--json", str(path)])
    printed = json.loads(capsys.readouterr().out)
    assert printed.pop("file") == str(path)
    assert printed == expected
    assert status == (1 if "error" in expected else 0)


def test_docs_link_nothing_outside_the_repository() -> None:
    root = DOC.parents[1]
    for page in [root / "README.md", *root.joinpath("docs").glob("*.md")]:
        assert "../shared" not in page.read_text(), page


def test_doc_position_example_round_trips() -> None:
    from firmware.games.switch16.engine import Face, Roll, State, make_rules

    (text,) = re.findall(r"```position\n(.*?)```", DOC.read_text(), re.S)
    position = json.loads(text)
    state = State.new(3, 0, make_rules("tablier")).apply(Roll((2, 3, 5), Face.GREEN))
    assert State.from_json(position) == state
    assert state.to_json(full=True) == position


def test_every_game_with_transcripts_has_an_example() -> None:
    from firmware.games.registry import game_names

    games = {json.loads(text.splitlines()[0]).get("game", "switch16") for text, _ in examples()}
    assert {"switch16", "swytch"} <= games <= set(game_names())
    assert "## Swytch" in DOC.read_text()
