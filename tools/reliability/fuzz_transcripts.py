"""Damaged transcripts never crash replay or the journal, and lose nothing (issue 9).

Each case takes a real game (random play, every preset, plain and points) and damages
it: bytes flipped, inserted or deleted, lines dropped, swapped or duplicated, the file
cut anywhere, keys renamed, numbers changed, non-UTF-8 bytes, blank lines, lines nested
a thousand deep. Then:

- ``switch16 replay --json`` on it exits 0 or 1 with one JSON object and no traceback;
  an error names a line (or ``null`` when the file cannot be read);
- :meth:`Journal.recover` on it as ``current.jsonl`` does not raise and never loses the
  file: it resumes it, archives it, or moves it aside byte for byte (only a header cut
  short, which holds no action, may go; a game resumed is written again without its
  empty lines).

    python3 -m tools.reliability.fuzz_transcripts             # long form: 20,000 cases
    python3 -m tools.reliability.fuzz_transcripts --count 300
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import logging
import random
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from firmware.games.switch16.bots import random_bots
from firmware.games.switch16.chance import new_header
from firmware.games.switch16.driver import play
from firmware.games.switch16.engine import PRESETS, make_rules
from firmware.games.switch16.transcript_lines import action_line
from firmware.transcript import header_line


def game_text(rng: random.Random) -> str:
    """A whole random game as transcript text."""
    rules = make_rules(rng.choice(list(PRESETS)), {"points": True} if rng.random() < 0.3 else None)
    header = new_header(rng, rng.randint(2, 4), rules)
    bots = random_bots(header.players, rng)
    _, actions = play(header.initial_state(), bots, rng, max_actions=rng.randint(1, 400))
    return "".join(line + "\n" for line in [header_line(header), *map(action_line, actions)])


def damage(text: str, rng: random.Random) -> bytes:
    """One to three random injuries of a transcript."""
    data = text.encode()
    for _ in range(rng.randint(1, 3)):
        kind = rng.randrange(8)
        at = rng.randrange(len(data) + 1)
        if kind == 0:
            data = data[:at]  # cut short (a power cut)
        elif kind == 1 and data:
            at = min(at, len(data) - 1)
            data = data[:at] + bytes([data[at] ^ (1 << rng.randrange(8))]) + data[at + 1 :]
        elif kind == 2:
            noise = bytes(rng.randrange(256) for _ in range(rng.randint(1, 4)))
            data = data[:at] + noise + data[at:]
        elif kind == 3:
            data = data[:at] + data[at + rng.randint(1, 20) :]
        else:
            lines = data.split(b"\n")
            i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
            if kind == 4:
                del lines[i]
            elif kind == 5:
                lines[i], lines[j] = lines[j], lines[i]
            elif kind == 6:
                lines.insert(i, lines[j])
            else:
                lines[i] = rng.choice([b"{}", b"[]", b"null", b'{"action": "roll"}', b"\xff\xfe",
                                       lines[i].replace(b'"', b"'"), lines[i] * 3,
                                       lines[i].replace(b"1", b"17"), b" " * 300, b"",
                                       b'{"action": ' + b"[" * 1010 + b"]" * 1010 + b"}",
                                       lines[i].replace(b", ", b",")])  # fmt: skip
            data = b"\n".join(lines)
    return data


def cases(seed: int, count: int) -> Iterator[bytes]:
    rng = random.Random(seed)
    games = [game_text(rng) for _ in range(20)]
    for _ in range(count):
        yield damage(rng.choice(games), rng)


def check_case(data: bytes, directory: Path) -> str | None:
    """What went wrong with one damaged transcript, or None."""
    from firmware.cli import main
    from firmware.unit.journal import Journal

    path = directory / "case.jsonl"
    path.write_bytes(data)
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            code = main(["replay", "--json", str(path)])
    except Exception as exc:
        return f"replay raised {type(exc).__name__}: {exc}"
    if code not in (0, 1):
        return f"replay exited {code}"
    try:
        report = json.loads(out.getvalue())
    except ValueError:
        return f"replay --json printed no JSON: {out.getvalue()[:200]!r}"
    if code == 1 and report["error"]["line"] is None and path.exists():
        return f"a readable file got a null line: {report['error']}"
    state = directory / "state"
    state.mkdir()
    (state / "current.jsonl").write_bytes(data)
    try:
        Journal(state, durable=False).recover()
    except Exception as exc:
        return f"recover raised {type(exc).__name__}: {exc}"
    finally:
        Journal(state, durable=False).close()
    kept = [p.read_bytes() for p in state.rglob("*.jsonl")]
    if not kept and b"\n" in data:
        return "recover lost the file"
    texts = (data, without_blank_lines(data))
    if kept and not any(k == d or d.startswith(k) or k.startswith(d[: len(k)])
                        for k in kept for d in texts):  # fmt: skip
        return "recover changed the file beyond cutting a torn line and empty lines"
    return None


def without_blank_lines(data: bytes) -> bytes:
    """``data`` without its empty lines (a resumed journal is written again without)."""
    return b"".join(line for line in data.splitlines(keepends=True) if line.strip(b" \t\r\n"))


def run(seed: int, count: int) -> tuple[int, list[str]]:
    problems: list[str] = []
    logging.disable(logging.CRITICAL)
    try:
        for n, data in enumerate(cases(seed, count)):
            with tempfile.TemporaryDirectory() as tmp:
                problem = check_case(data, Path(tmp))
            if problem is not None:
                problems.append(f"case {n} (seed {seed}): {problem}\n{data[:300]!r}")
    finally:
        logging.disable(logging.NOTSET)
    return count, problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    count, problems = run(args.seed, args.count)
    for problem in problems[:5]:
        print(problem, file=sys.stderr)
    print(f"transcripts: {count} damaged cases, {len(problems)} problems, "
          f"{time.perf_counter() - start:.0f} s")  # fmt: skip
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
