"""docs/TRANSCRIPTS.md: header and action lines, replay, and ``switch16 replay``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from firmware.cli import main
from firmware.games.switch16.engine import (
    DECLINE,
    DISCARD,
    LEAVE,
    PASS,
    REFUSE,
    RISK,
    TAKE,
    Green,
    NewRound,
    Place,
    Red,
    Refuse,
    Roll,
    Take,
    make_rules,
)
from firmware.games.switch16.engine.notation import (
    Header,
    action_from_json,
    action_to_json,
    header_from_json,
)
from firmware.games.switch16.transcript_lines import action_line
from firmware.kernel.errors import IllegalActionError, MalformedActionError
from firmware.transcript import (
    TranscriptWriter,
    header_line,
    replay_file,
    replay_text,
    write_transcript,
)

from .helpers import BLANK, BLOCK, GREEN, RED

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "transcripts"
COMPLETE = FIXTURES / "complete_game.jsonl"
ILLEGAL = FIXTURES / "illegal_line.jsonl"
TORN = FIXTURES / "torn_last_line.jsonl"
POINTS = FIXTURES / "points_match_round.jsonl"

HEADER = {"switch16": 1, "players": 3, "first": 0, "rules": "pressman-2003"}


def _text(*objs) -> str:
    return "".join(json.dumps(o) + "\n" for o in objs)


# ------------------------------------------------------------------------ header
def test_header_example_from_rules_md():
    h = header_from_json(HEADER)
    assert h == Header(3, 0, make_rules("pressman-2003"))
    assert h.to_json() == HEADER


def test_header_options_override_and_round_trip():
    obj = {**HEADER, "rules": "tablier", "options": {"refused_chip": "attacker", "points": True}}
    h = header_from_json(obj)
    assert h.rules.refused_chip == "attacker" and h.rules.points
    assert h.rules.dice_from == "discarded"
    assert header_from_json(json.loads(header_line(h))) == h


@pytest.mark.parametrize(
    ("change", "named"),
    [
        ({"switch16": 2}, "switch16"),
        ({"switch16": "1"}, "switch16"),
        ({"switch16": True}, "switch16"),
        ({"players": 1}, "players"),
        ({"players": 5}, "players"),
        ({"players": "3"}, "players"),
        ({"first": 3}, "first"),
        ({"first": -1}, "first"),
        ({"rules": "monopoly"}, "monopoly"),
        ({"options": {"penalty": 3}}, "penalty"),
        ({"options": {"refused_chip": "eat"}}, "refused_chip"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_header_validation_names_the_problem(change, named):
    with pytest.raises(MalformedActionError, match=named):
        header_from_json({**HEADER, **change})


def test_header_missing_version_key():
    obj = dict(HEADER)
    del obj["switch16"]
    with pytest.raises(MalformedActionError, match="switch16"):
        header_from_json(obj)


def test_header_must_be_an_object():
    with pytest.raises(MalformedActionError):
        header_from_json([HEADER])


# ------------------------------------------------------------------------ actions
ALL_ACTIONS = [
    (Roll((1, 2, 4), BLANK), {"action": "roll", "dice": [1, 2, 4], "switch": "blank"}),
    (Roll((6, 5, 4, 3, 2), RED), {"action": "roll", "dice": [6, 5, 4, 3, 2], "switch": "red"}),
    (Roll((1, 1, 1, 1), GREEN), {"action": "roll", "dice": [1, 1, 1, 1], "switch": "green"}),
    (Roll((2, 2, 2), BLOCK), {"action": "roll", "dice": [2, 2, 2], "switch": "block"}),
    (DISCARD, {"action": "discard"}),
    (RISK, {"action": "risk"}),
    (PASS, {"action": "pass"}),
    (Green(2), {"action": "green", "target": 2}),
    (DECLINE, {"action": "green", "target": None}),
    (REFUSE, {"action": "refuse", "value": True}),
    (Refuse(False), {"action": "refuse", "value": False}),
    (Red(1), {"action": "red", "target": 1}),
    (TAKE, {"action": "take", "value": True}),
    (LEAVE, {"action": "take", "value": False}),
    (Place(2, 0), {"action": "place", "by": 2, "on": 0}),
    (NewRound(1), {"action": "round", "first": 1}),
]


@pytest.mark.parametrize(("action", "obj"), ALL_ACTIONS)
def test_action_notation_round_trip(action, obj):
    assert action_to_json(action) == obj
    assert action_from_json(obj) == action
    assert action_from_json(json.loads(action_line(action))) == action


def test_action_line_matches_rules_md_example_spelling():
    assert action_line(Roll((1, 2, 4), BLANK)) == (
        '{"action": "roll", "dice": [1, 2, 4], "switch": "blank"}'
    )
    assert action_line(Take(False)) == '{"action": "take", "value": false}'


@pytest.mark.parametrize(
    ("obj", "named"),
    [
        ({"action": "jump"}, "jump"),
        ({"act": "discard"}, "None"),
        ({"action": "discard", "card": 3}, "card"),
        ({"action": "roll", "dice": [1, 2, 4]}, "switch"),
        ({"action": "roll", "switch": "blank"}, "dice"),
        ({"action": "roll", "dice": [1, 2, "4"], "switch": "blank"}, "dice"),
        ({"action": "roll", "dice": [1, 2, True], "switch": "blank"}, "dice"),
        ({"action": "roll", "dice": [1, 2, 4.0], "switch": "blank"}, "dice"),
        ({"action": "roll", "dice": "124", "switch": "blank"}, "dice"),
        ({"action": "roll", "dice": [1, 2, 4], "switch": "purple"}, "switch"),
        ({"action": "roll", "dice": [1, 2, 4], "switch": 1}, "switch"),
        ({"action": "green"}, "target"),
        ({"action": "green", "target": "2"}, "target"),
        ({"action": "green", "target": True}, "target"),
        ({"action": "refuse", "value": 1}, "value"),
        ({"action": "refuse", "value": "true"}, "value"),
        ({"action": "red", "target": 1.0}, "target"),
        ({"action": "take", "value": None}, "value"),
        ({"action": "take"}, "value"),
        ({"action": "place", "by": 1}, "on"),
        ({"action": "place", "by": 1, "on": "0"}, "on"),
        ({"action": "place", "by": 1, "on": 0, "extra": 1}, "extra"),
        ({"action": "round", "first": None}, "first"),
        ({"action": "pass", "seat": 0}, "seat"),
    ],
)
def test_action_validation_names_the_problem(obj, named):
    with pytest.raises(MalformedActionError, match=named):
        action_from_json(obj)


@pytest.mark.parametrize("obj", [[], "discard", None, 3])
def test_action_must_be_an_object(obj):
    with pytest.raises(MalformedActionError):
        action_from_json(obj)


# ------------------------------------------------------------------------- replay
def test_replay_complete_fixture_game_is_won():
    r = replay_file(COMPLETE)
    assert r.ok and r.error is None
    assert r.state.to_json() == {
        "seats": [{"deck": "red", "discarded": 16}, {"deck": "blue", "discarded": 0}],
        "chip": {"on_deck": "blue"},
        "turn": 0,
        "phase": "over",
        "winner": 0,
    }
    assert len(r.actions) == 24


def test_replay_points_fixture_starts_round_two():
    r = replay_file(POINTS)
    assert r.ok
    j = r.state.to_json()
    assert j["round"] == 2 and j["scores"] == [16, 3] and j["match_winner"] is None
    assert j["turn"] == 1 and j["phase"] == "roll"
    assert j["seats"] == [{"deck": "red", "discarded": 0}, {"deck": "blue", "discarded": 0}]


def test_replay_illegal_fixture_stops_at_first_bad_line_with_state_before():
    r = replay_file(ILLEGAL)
    assert not r.ok
    assert r.error.line == 4
    assert "discard" in r.error.message and "decide" in r.error.message
    assert r.state.to_json()["seats"][0] == {"deck": "red", "discarded": 1}
    assert r.state.to_json()["phase"] == "decide"
    assert len(r.actions) == 2


def test_replay_torn_fixture_clear_message():
    r = replay_file(TORN)
    assert r.error.line == 4
    assert r.torn
    assert "truncated" in r.error.message
    assert "Traceback" not in r.error.message
    assert r.state.to_json()["phase"] == "discard"


def test_replay_last_line_without_newline_is_fine():
    r = replay_text(COMPLETE.read_text().rstrip("\n"))
    assert r.ok and r.state.winner == 0 and not r.torn


def test_replay_skips_empty_lines_and_counts_them_in_line_numbers():
    """An empty line is not damage (issue 35): skipped, and still a line of the file."""
    text = _text(HEADER, {"action": "roll", "dice": [1, 2, 4], "switch": "blank"})
    r = replay_text(
        text + "\n" + _text({"action": "discard"}) + " \r\n" + _text({"action": "risk"})
    )
    assert r.error.line == 6 and "risk" in r.error.message  # illegal in phase discard
    assert len(r.actions) == 2 and r.blank_lines == 2
    r = replay_text("\n" + text + "\n")
    assert r.ok and len(r.actions) == 1 and r.blank_lines == 2
    assert r.good_length == len(text) + 2


def test_replay_header_is_line_1():
    r = replay_text(_text({**HEADER, "players": 9}, {"action": "discard"}))
    assert r.error.line == 1
    assert "players" in r.error.message
    assert r.state is None


def test_replay_header_not_json_is_line_1():
    r = replay_text("switch16 transcript\n")
    assert r.error.line == 1 and "JSON" in r.error.message


def test_replay_empty_text_is_an_error():
    r = replay_text("")
    assert not r.ok and r.error.line == 1


def test_replay_malformed_action_line_names_line_and_reason():
    text = _text(HEADER, {"action": "roll", "dice": [1, 2, 4], "switch": "blank"}, {"act": 1})
    r = replay_text(text)
    assert r.error.line == 3
    assert r.state.to_json()["phase"] == "discard"


def test_replay_wrong_dice_count_is_an_error_naming_the_line():
    r = replay_text(_text(HEADER, {"action": "roll", "dice": [1, 2], "switch": "blank"}))
    assert r.error.line == 2
    assert "3" in r.error.message
    assert r.state.to_json()["phase"] == "roll"


def test_replay_action_after_game_over_is_an_error():
    text = COMPLETE.read_text() + json.dumps({"action": "pass"}) + "\n"
    r = replay_text(text)
    assert r.error.line == 26
    assert "over" in r.error.message
    assert r.state.to_json()["winner"] == 0


def test_write_transcript_then_replay(tmp_path):
    header = Header(2, 1, make_rules("playmonster-2022", {"points": True}))
    actions = [Roll((6, 6, 6), BLANK), Roll((1, 2, 4), BLOCK), DISCARD]
    path = tmp_path / "g.jsonl"
    write_transcript(path, header, actions)
    r = replay_file(path)
    assert r.ok and r.header == header and r.actions == actions
    expected = header.initial_state()
    for a in actions:
        expected = expected.apply(a)
    assert r.state == expected


def test_transcript_writer_appends_lines(tmp_path):
    header = Header(3, 2, make_rules("tablier"))
    path = tmp_path / "w.jsonl"
    with TranscriptWriter.create(path, header, durable=False) as w:
        w.write_line(action_line(Roll((1, 1, 1), GREEN)))
        w.write_line(action_line(DECLINE))
    lines = path.read_text().splitlines()
    assert json.loads(lines[0]) == {"switch16": 1, "players": 3, "first": 2, "rules": "tablier"}
    assert json.loads(lines[2]) == {"action": "green", "target": None}
    assert replay_file(path).state.to_json()["phase"] == "discard"


# ------------------------------------------------------------- switch16 replay CLI
def _cli(capsys, *args):
    code = main(["replay", *map(str, args)])
    out = capsys.readouterr().out
    return code, out


def test_cli_json_clean_file_exit_0(capsys):
    code, out = _cli(capsys, COMPLETE, "--json")
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == 1
    obj = json.loads(lines[0])
    assert list(obj) == ["file", "state"]
    assert obj["file"] == str(COMPLETE)
    assert obj["state"]["winner"] == 0 and obj["state"]["phase"] == "over"


def test_cli_json_one_line_per_file_in_order_exit_1(capsys):
    files = [ILLEGAL, COMPLETE, TORN, POINTS]
    code, out = _cli(capsys, "--json", *files)
    assert code == 1
    objs = [json.loads(line) for line in out.splitlines()]
    assert [o["file"] for o in objs] == [str(f) for f in files]
    illegal, complete, torn, points = objs
    assert illegal["error"]["line"] == 4
    assert isinstance(illegal["error"]["message"], str) and illegal["error"]["message"]
    assert set(illegal) == {"file", "error", "state"}
    assert illegal["state"]["phase"] == "decide"
    assert illegal["state"]["seats"][0]["discarded"] == 1
    assert "error" not in complete and "error" not in points
    assert torn["error"]["line"] == 4 and "truncated" in torn["error"]["message"]
    assert torn["state"]["seats"][0] == {"deck": "red", "discarded": 1}


def test_cli_json_error_state_is_state_before_bad_line(capsys, tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text(
        _text(
            HEADER,
            {"action": "roll", "dice": [1, 2, 4], "switch": "red"},  # no lower seat
            {"action": "roll", "dice": [6, 6, 6], "switch": "block"},  # seat 1 takes chip
            {"action": "place", "by": 0, "on": 2},  # seat 0 does not hold it
        )
    )
    code, out = _cli(capsys, path, "--json")
    assert code == 1
    obj = json.loads(out)
    assert obj["error"]["line"] == 4
    assert obj["state"] == {
        "seats": [
            {"deck": "red", "discarded": 0},
            {"deck": "blue", "discarded": 0},
            {"deck": "green", "discarded": 0},
        ],
        "chip": {"held_by": 1},
        "turn": 2,
        "phase": "roll",
        "winner": None,
    }


def test_cli_all_clean_files_exit_0(capsys, tmp_path):
    other = tmp_path / "short.jsonl"
    other.write_text(_text(HEADER))
    code, out = _cli(capsys, "--json", COMPLETE, other)
    assert code == 0
    objs = [json.loads(line) for line in out.splitlines()]
    assert objs[1] == {"file": str(other), "state": replay_file(other).state.to_json()}
    assert objs[1]["state"]["phase"] == "roll" and objs[1]["state"]["turn"] == 0


def test_cli_unreadable_file_clear_message(capsys, tmp_path):
    missing = tmp_path / "nope.jsonl"
    code, out = _cli(capsys, "--json", missing, COMPLETE)
    assert code == 1
    first, second = (json.loads(line) for line in out.splitlines())
    assert first["file"] == str(missing)
    assert set(first["error"]) == {"line", "message"}
    assert "read" in first["error"]["message"]
    assert "Traceback" not in out
    assert "error" not in second


def test_cli_directory_and_binary_files_clear_message(capsys, tmp_path):
    binary = tmp_path / "bin.jsonl"
    binary.write_bytes(b'{"switch16": 1}\n\xff\xfe\n')
    code, out = _cli(capsys, "--json", tmp_path, binary)
    assert code == 1
    d, b = (json.loads(line) for line in out.splitlines())
    assert d["error"]["message"] and b["error"]["message"]
    assert "UTF-8" in b["error"]["message"]


def test_cli_summary_mode_readable(capsys):
    code, out = _cli(capsys, COMPLETE, ILLEGAL, TORN)
    assert code == 1
    assert str(COMPLETE) in out and str(ILLEGAL) in out and str(TORN) in out
    assert "WINNER" in out
    assert "line 4" in out
    assert "cut short" in out
    assert not out.lstrip().startswith("{")
    assert "Traceback" not in out


def test_cli_summary_mode_clean_exit_0(capsys):
    code, out = _cli(capsys, COMPLETE)
    assert code == 0
    assert "ERROR" not in out


# ----------------------------------------- engine and notation agree on what is legal
_TO_RED_TIE = [  # 4 players: seats 1 and 3 end tied lowest (top 1), seat 0 rolls red
    Roll((1, 2, 4), BLANK),
    *[DISCARD] * 7,
    PASS,
    Roll((6, 6, 6), BLANK),
    Roll((1, 1, 1), BLANK),
    *[DISCARD] * 3,
    PASS,
    Roll((6, 6, 6), BLANK),
    Roll((1, 1, 1, 1), RED),
]


@pytest.mark.parametrize(
    ("prefix", "action"),
    [
        ([], Roll((1, 2, True), BLANK)),
        ([], Roll((1, 2, 3.0), BLANK)),
        (_TO_RED_TIE, Red(True)),
    ],
    ids=["bool-die", "float-die", "bool-red-target"],
)
def test_engine_accepts_only_actions_a_transcript_can_record(prefix, action):
    """docs/TRANSCRIPTS.md: a transcript of the accepted actions rebuilds the exact game. So an
    action the engine accepts must replay from its own transcript line (or the engine
    must reject it)."""
    header = Header(4, 0, make_rules())
    state = header.initial_state()
    for a in prefix:
        state = state.apply(a)
    try:
        after = state.apply(action)
    except IllegalActionError:
        return
    lines = [header_line(header), *(action_line(a) for a in [*prefix, action])]
    r = replay_text("\n".join(lines) + "\n")
    assert r.ok, f"engine accepted {action!r} but its transcript fails: {r.error}"
    assert r.state == after


@pytest.mark.parametrize("as_json", [False, True])
def test_replay_workers_print_the_same_in_order(tmp_path, capsys, as_json):
    """Many files go to worker processes: the same lines, in the order given, and the
    same exit status as one process."""
    files = []
    for i in range(70):
        source = (COMPLETE, POINTS, ILLEGAL, TORN)[i % 4]
        path = tmp_path / f"{i:02d}.jsonl"
        path.write_bytes(source.read_bytes())
        files.append(str(path))
    flags = ["--json"] if as_json else []
    outputs = []
    for jobs in ("1", "2"):
        status = main(["replay", *flags, "--jobs", jobs, *files])
        outputs.append((status, capsys.readouterr().out))
    assert outputs[0] == outputs[1]
    assert outputs[0][0] == 1 and outputs[0][1].count(str(tmp_path)) >= 70


# ------------------------------------------------ hostile lines (issue 35, issue 33)
SWYTCH_HEADER = {"game": "swytch", "players": 2, "first": 0, "ranks": 9}


def _nested(depth: int) -> str:
    return "[" * depth + "]" * depth


@pytest.mark.parametrize("depth", [40, 990, 1010, 1100, 5000])
@pytest.mark.parametrize("head", [HEADER, SWYTCH_HEADER], ids=["switch16", "swytch"])
def test_a_deeply_nested_line_is_a_bad_line_not_a_crash(json_reader, head, depth):
    """Nested 1,000-1,024 deep orjson parsed it and the error's repr raised
    RecursionError; the standard library's json raised it past ~1,000."""
    text = _text(head) + '{"action": ' + _nested(depth) + "}\n"
    r = replay_text(text)
    assert r.error.line == 2 and "nested more than 32 deep" in r.error.message
    assert len(r.error.message) < 150
    r = replay_text(json.dumps(head)[:-1] + ', "seats": ' + _nested(depth) + "}\n")
    assert r.error.line == 1 and "nested more than" in r.error.message


def test_a_bad_value_is_quoted_cut_short(json_reader):
    deep = json.loads(_nested(30))
    for bad in ({"action": deep}, {"action": "roll", "dice": ["x"] * 10_000, "switch": "blank"}):
        r = replay_text(_text(HEADER, bad))
        assert r.error.line == 2 and len(r.error.message) < 150
    r = replay_text(_text({**HEADER, "players": "9" * 100_000}))
    assert "'players'" in r.error.message and len(r.error.message) < 150


def test_replay_names_the_line_of_a_deeply_nested_journal(tmp_path, capsys, json_reader):
    path = tmp_path / "deep.jsonl"
    path.write_text(_text(SWYTCH_HEADER) + '{"action": ' + _nested(1010) + "}\n")
    assert main(["replay", str(path)]) == 1
    out = capsys.readouterr().out
    assert "ERROR at line 2: nested more than 32 deep" in out


@pytest.mark.parametrize(
    "line",
    [
        '{"action":"discard"}',  # another spacing
        '{"action":  "discard"}',
        '{"action": "discard"}\t',
        '{"action": "d\\u0069scard"}',  # an escape
        '{"action": "roll", "switch": "blank", "dice": [1, 2, 4]}',  # another key order
        '{"action": "roll", "dice": [1,2,4], "switch": "blank"}',
    ],
)
def test_a_switch16_action_line_is_read_only_as_the_unit_writes_it(line):
    """Issue 35: a transcript is one text per game; a line in another form is a bad line."""
    roll = _text(HEADER, {"action": "roll", "dice": [1, 2, 4], "switch": "blank"})
    assert replay_text(roll + _text({"action": "discard"})).ok
    before = roll if "roll" not in line else _text(HEADER)
    r = replay_text(before + line + "\n")
    number = before.count("\n") + 1
    assert r.error.line == number and "not written as the unit writes it" in r.error.message


@pytest.mark.parametrize(
    "action", ["c2 1\tc3", "c02 1 c3", "c2\u00a0 1 c3", "c\u0662 1 c3", "a2 \u0662 a3-a4"]
)
def test_a_swytch_action_line_is_read_only_in_its_ascii_notation(action):
    """Issue 35: each was resumed as the move it resembles."""
    canonical = "a2 2 a3-a4" if action.startswith("a2") else "c2 1 c3"
    assert replay_text(_text(SWYTCH_HEADER, {"action": canonical})).ok
    for line in (
        json.dumps({"action": action}),
        json.dumps({"action": action}, ensure_ascii=False),
    ):
        r = replay_text(_text(SWYTCH_HEADER) + line + "\n")
        assert r.error.line == 2 and len(r.actions) == 0
    r = replay_text(_text(SWYTCH_HEADER) + '{"action":"c2 1 c3"}\n')
    assert r.error.line == 2 and "not written as the unit writes it" in r.error.message
