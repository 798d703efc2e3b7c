"""Storage faults on a real small file system (issues 21, 35): nothing accepted is lost,
in every registered game.

Each experiment plays one all-bot game (a table of
:meth:`~firmware.games.game.Game.random_setup`) through the unit loop (the Pi backend on
gpiozero's MockFactory, virtual time) with its state directory on an ext4 image with
1 KiB blocks on a loop device, mounted ``errors=remount-ro`` (what an SD card holds),
injects one storage fault at a chosen moment, clears it, and checks that once the
fault is gone every accepted action is on disk: each game the unit played is, action
for action, a finished game in ``games/`` (or ``finished-*``) or the journal of the
game still open; and a unit started again resumes no game that had ended.

The faults are real: the card filled up (``ENOSPC`` mid-block), the kernel's emergency
read-only remount (``/sys/fs/ext4/<dev>/trigger_fs_error``, cleared as a reboot would:
unmounted, ``e2fsck``, mounted again), the journal replaced (by a directory, by bytes
written over it in place, by a file renamed over it), the state directory deleted and
created again, ``games`` a file, a restart of the process (no clean close) while the
card still fails, and a journal the unit cannot read at start-up: the
unit runs with the effective uid of ``nobody`` (``os.seteuid``; root reads any file)
over a journal with mode 000, so ``open`` really fails with ``EACCES``.

Needs root (``mount``, ``losetup``); elsewhere :class:`Unavailable` says why.

    python3 -m tools.reliability.storage               # long form: 20 games per fault and game
    python3 -m tools.reliability.storage --games 2 --game swytch
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import logging
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from firmware.games.registry import DEFAULT_GAME, game_names, get_game
from firmware.transcript import header_line, line_writer, replay_file
from firmware.unit import Unit
from firmware.unit.journal import Journal
from hal.config import load_config
from hal.testing import mock_pi_hal
from tools.reliability.soak import FAST

NOBODY = 65534


class Unavailable(Exception):
    """This process cannot mount a file system image (not root, no loop device…)."""


class Card:
    """A small ext4 file system on a loop device, mounted ``errors=remount-ro``."""

    def __init__(self, image: Path, mount: Path) -> None:
        self.image, self.path = image, mount
        self.filler = mount / "filler"

    def mount(self) -> None:
        self._run("mount", "-o", "loop,errors=remount-ro", str(self.image), str(self.path))

    def fill(self) -> None:
        """Fill the card to its last block (root may use the reserved blocks: none)."""
        with contextlib.suppress(OSError), open(self.filler, "ab", buffering=0) as handle:
            while True:
                handle.write(b"x" * 512)

    def empty(self) -> None:
        self.filler.unlink()
        os.sync()

    def fail(self) -> None:
        """An ext4 error: the kernel remounts the card read-only under open files."""
        device = Path(os.path.realpath(self._device())).name
        Path(f"/sys/fs/ext4/{device}/trigger_fs_error").write_text("1\n")

    def repair(self) -> None:
        """What a reboot does after such an error: unmount, ``e2fsck``, mount again."""
        self._run("umount", "-l", str(self.path))
        subprocess.run(["e2fsck", "-fy", str(self.image)], capture_output=True, check=False)
        self.mount()

    def read_only(self) -> bool:
        """Writing fails with EROFS (an emergency remount does not show in statvfs)."""
        probe = self.path / "probe"
        try:
            probe.write_text("")
        except OSError as exc:
            return exc.errno == errno.EROFS
        probe.unlink()
        return False

    def _device(self) -> str:
        for line in Path("/proc/self/mounts").read_text().splitlines():
            fields = line.split()
            if fields[1] == str(self.path):
                return fields[0]
        raise Unavailable(f"{self.path} is not mounted")

    @staticmethod
    def _run(*cmd: str) -> None:
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode != 0:
            raise Unavailable(f"{' '.join(cmd[:2])}: {done.stderr.strip() or done.returncode}")


@contextlib.contextmanager
def card(size_kib: int = 4096) -> Iterator[Card]:
    """A fresh :class:`Card` (an ext4 image with 1 KiB blocks); :class:`Unavailable`
    where this process cannot make or mount one."""
    if os.geteuid() != 0:
        raise Unavailable("mounting an ext4 image on a loop device needs root")
    for tool in ("mount", "umount", "mkfs.ext4", "e2fsck"):
        if shutil.which(tool) is None:
            raise Unavailable(f"{tool} is not installed")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        root.chmod(0o755)  # the unreadable-journal fault runs the unit as nobody
        image, mount = root / "card.img", root / "card"
        mount.mkdir()
        with open(image, "wb") as handle:
            handle.truncate(size_kib * 1024)
        Card._run("mkfs.ext4", "-q", "-F", "-b", "1024", "-m", "0", str(image))
        sd = Card(image, mount)
        sd.mount()
        try:
            yield sd
        finally:
            subprocess.run(["umount", "-l", str(mount)], capture_output=True, check=False)


@contextlib.contextmanager
def as_nobody() -> Iterator[None]:
    """Run as the effective user ``nobody`` (root bypasses file modes; nobody does not)."""
    os.setegid(NOBODY)
    os.seteuid(NOBODY)
    try:
        yield
    finally:
        os.seteuid(0)
        os.setegid(0)


@contextlib.contextmanager
def as_root() -> Iterator[None]:
    uid, gid = os.geteuid(), os.getegid()
    os.seteuid(0)
    os.setegid(0)
    try:
        yield
    finally:
        os.setegid(gid)
        os.seteuid(uid)


# ----------------------------------------------------------------- faults

Clear = Callable[[], None]
#: Injects a fault into the running unit (state directory on ``sd``); returns what clears it.
Fault = Callable[[Card, Path, random.Random], Clear]


def full(sd: Card, state: Path, rng: random.Random) -> Clear:
    sd.fill()
    return sd.empty


def read_only(sd: Card, state: Path, rng: random.Random) -> Clear:
    sd.fail()
    return sd.repair


def replaced_by_directory(sd: Card, state: Path, rng: random.Random) -> Clear:
    current = state / "current.jsonl"
    current.unlink()
    current.mkdir()
    (current / "something").write_text("a file in the directory\n")
    return lambda: None


def bytes_in_place(sd: Card, state: Path, rng: random.Random) -> Clear:
    with open(state / "current.jsonl", "r+b") as handle:  # the same inode, the same size
        handle.write(rng.randbytes(rng.randrange(1, 200)))
    return lambda: None


def junk_renamed_over(sd: Card, state: Path, rng: random.Random) -> Clear:
    junk = state / "junk"
    junk.write_bytes(rng.randbytes(300))
    os.rename(junk, state / "current.jsonl")
    return lambda: None


def state_dir_deleted(sd: Card, state: Path, rng: random.Random) -> Clear:
    shutil.rmtree(state)
    state.mkdir()  # recreated (empty) by someone else: the unit must write to it again
    return lambda: None


def no_fault(sd: Card, state: Path, rng: random.Random) -> Clear:
    return lambda: None


@dataclass(frozen=True)
class Scenario:
    fault: Fault
    #: When, as a fraction of the game's actions (1.0: right after the last one,
    #: before it is archived); None: at start-up (set up by :func:`experiment`).
    at: float | None = None
    #: When the fault clears, likewise; None: after the game ended.
    until: float | None = None
    #: Before the fault clears, the process ends (no clean close) and a new one starts.
    restart: bool = False


SCENARIOS: dict[str, Scenario] = {
    "full at game end": Scenario(full, 0.6),
    "full at the last action": Scenario(full, 1.0),
    "full mid-game": Scenario(full, 0.3, 0.6),
    "read-only at game end": Scenario(read_only, 0.5),
    "read-only at the last action": Scenario(read_only, 1.0),
    "read-only mid-game": Scenario(read_only, 0.3, 0.6),
    "read-only at game end, restarted": Scenario(read_only, 0.5, restart=True),
    "full at game end, restarted": Scenario(full, 0.3, restart=True),
    "journal replaced by a directory": Scenario(replaced_by_directory, 0.5),
    "journal written over in place": Scenario(bytes_in_place, 0.5),
    "junk renamed over the journal": Scenario(junk_renamed_over, 0.5),
    "state directory deleted and recreated": Scenario(state_dir_deleted, 0.5),
    "journal unreadable at start-up": Scenario(no_fault),
    "games/ a file": Scenario(no_fault),
}


# ------------------------------------------------------------- experiments


@dataclass
class Record:
    """Every game the unit played, as its header and accepted action lines."""

    games: list[tuple[Any, list[str]]] = field(default_factory=list)

    def commit(self, unit: Unit, action: Any) -> None:
        """An on_commit hook: the journal holds the action already (a resumed game's
        earlier actions too)."""
        header, lines = unit.journal.open_game
        assert header is not None
        if not self.games or self.games[-1][0] is not header:
            self.games.append((header, list(lines)))
        else:
            self.games[-1][1].append(line_writer(header)(action))


def on_disk(state: Path) -> list[tuple[str, list[str], bool]]:
    """Every transcript in the state directory: (name, action lines, finished)."""
    found = []
    paths = [state / "current.jsonl", *sorted(state.glob("finished-*.jsonl"))]
    if (state / "games").is_dir():
        paths += sorted((state / "games").glob("*.jsonl"))
    for path in paths:
        if path.is_file():
            result = replay_file(path)
            over = result.state is not None and result.state.game_over
            write = line_writer(result.header) if result.header is not None else None
            found.append((path.name, [write(a) for a in result.actions] if write else [], over))
    return found


def check(record: Record, state: Path, finished: bool) -> str | None:
    """What is missing on disk, or None."""
    disk = on_disk(state)
    for n, (_, lines) in enumerate(record.games):
        last = n == len(record.games) - 1
        want_over = finished or not last
        if not any(got == lines and over == want_over for _, got, over in disk):
            best = max((len(got) for _, got, _ in disk if lines[: len(got)] == got), default=0)
            return (f"game {n + 1}: {len(lines)} actions accepted, "
                    f"{'finished' if want_over else 'unfinished'}; on disk at most {best} "
                    f"({', '.join(name for name, *_ in disk) or 'no transcript'})")  # fmt: skip
    return None


def play_length(seed: int, game: str) -> int:
    """How many actions this seed's game takes (same seed, same game)."""
    with tempfile.TemporaryDirectory() as tmp, mock_pi_hal(load_config(None)) as pi:
        unit = Unit(pi.hal, tmp, setup=setup_for(seed, game), rng=random.Random(seed),
                    timing=FAST, durable=False, game=game)  # fmt: skip
        unit.start()
        unit.run_until(lambda: unit.finished, 3600)
        unit.close(close_hal=False)
        return unit.actions


def setup_for(seed: int, game: str) -> Any:
    """The table of ``seed``'s game of the registered ``game``."""
    return get_game(game).random_setup(random.Random(seed))


def saved_unfinished_game(state: Path, seed: int, game: str) -> None:
    """Put a game of ``seed`` cut off half-way in ``state`` as its journal."""
    with tempfile.TemporaryDirectory() as tmp, mock_pi_hal(load_config(None)) as pi:
        unit = Unit(pi.hal, tmp, setup=setup_for(seed, game), rng=random.Random(seed),
                    timing=FAST, durable=False, game=game)  # fmt: skip
        unit.start()
        unit.run_until(lambda: unit.actions >= 20, 3600)
        header, lines = unit.journal.open_game
        assert header is not None
        unit.close(close_hal=False)
        text = "".join(f"{line}\n" for line in (header_line(header), *lines))
        (state / "current.jsonl").write_text(text)


@dataclass
class Outcome:
    """One scenario's games: what went wrong, and in how many the unit could not save
    for a while (a full card lets appends go on into the last block's free bytes)."""

    games: int = 0
    unsaved: int = 0
    problems: list[str] = field(default_factory=list)


def experiment(name: str, seed: int, sd: Card, outcome: Outcome,
               game: str = DEFAULT_GAME) -> str | None:  # fmt: skip
    """One game of the registered ``game`` with one fault on ``sd``; what went wrong,
    or None."""
    scenario = SCENARIOS[name]
    rng = random.Random(seed)
    state = sd.path / "state"
    state.mkdir()
    record = Record()
    clear: Clear = lambda: None  # noqa: E731
    nobody = name == "journal unreadable at start-up"
    if name == "games/ a file":
        (state / "games").write_text("not a directory\n")
    if nobody:
        saved_unfinished_game(state, seed, game)
        state.chmod(0o777)
        (state / "current.jsonl").chmod(0)
    length = play_length(seed, game) if scenario.at is not None else 0
    fault_at = None if scenario.at is None else max(1, int(length * scenario.at))
    clear_at = None if scenario.until is None else max(1, int(length * scenario.until))
    with mock_pi_hal(load_config(None)) as pi, contextlib.ExitStack() as stack:
        if nobody:
            stack.enter_context(as_nobody())
        unit = Unit(pi.hal, state, setup=setup_for(seed, game), rng=random.Random(seed),
                    timing=FAST, game=game)  # fmt: skip
        faulted: list[Clear] = []
        unsaved = [False]  # the unit said NOT SAVED at some point

        def commit(action: Any, new: Any) -> None:
            record.commit(unit, action)
            unsaved[0] |= not unit.journal.saving
            if fault_at is not None and not faulted and unit.actions >= fault_at:
                faulted.append(scenario.fault(sd, state, rng))
            elif faulted and clear_at is not None and unit.actions >= clear_at:
                faulted[0]()
                faulted[0] = no_fault(sd, state, rng)

        unit.on_commit.append(commit)
        unit.start()
        if nobody:
            if unit.controller.shell.message is None or unit.state is not None:
                return "an unreadable journal was not kept waiting"
            unit.run_for(3)
            if not (state / "current.jsonl").exists() or list(state.glob("corrupt-*")):
                return "the unreadable journal was moved"
            with as_root():
                (state / "current.jsonl").chmod(0o644)
            unit.run_for(2)
            if unit.state is None:
                return "the journal, readable again, was not resumed"
        if not unit.run_until(lambda: unit.finished, 3600):
            return "the game did not end"
        if faulted:
            clear = faulted[0]
        elif fault_at is not None:
            return "the fault was never injected"
        unsaved[0] |= not unit.journal.saving
        outcome.unsaved += unsaved[0]
        if scenario.fault is read_only and not unsaved[0]:
            return "the fault did not stop the saving"
        if scenario.fault is read_only and scenario.until is None and not sd.read_only():
            return "the card was not read-only"
        if scenario.restart:  # the process ends without closing anything (a crash)
            unit = Unit(pi.hal, state, rng=random.Random(seed), timing=FAST, game=game)
            unit.start()
            if unit.state is not None:
                return "the unit started again resumed a game that had ended"
        clear()
        unit.run_for(3)  # the journal retries every second
        if not unit.journal.saving:
            return f"not saving after the fault cleared: {unit.journal.error}"
        unit.close(close_hal=False)
    problem = check(record, state, finished=True)
    if problem is None and Journal(state).recover().header is not None:
        problem = "a unit started again resumes a game that had ended"
    return problem


def run(games: int, seed: int, names: list[str] | None = None,
        game: str = DEFAULT_GAME) -> dict[str, Outcome]:  # fmt: skip
    """Every scenario (or those ``names``) ``games`` times in the registered ``game``,
    by scenario."""
    out: dict[str, Outcome] = {}
    for name in names or list(SCENARIOS):
        outcome = out.setdefault(name, Outcome())
        for number in range(games):
            game_seed = seed * 10_000 + number
            try:
                with card() as sd:
                    problem = experiment(name, game_seed, sd, outcome, game)
            except Unavailable:
                raise
            except Exception as exc:  # any escape is a finding
                problem = f"{type(exc).__name__}: {exc}"
            outcome.games += 1
            if problem is not None:
                outcome.problems.append(f"  game {number} (seed {game_seed}): {problem}")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games per fault")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", action="append", choices=list(SCENARIOS), metavar="FAULT")
    parser.add_argument("--game", action="append", choices=game_names(),
                        help="only this registered game (repeatable; default: all)")  # fmt: skip
    args = parser.parse_args(argv)
    logging.disable(logging.CRITICAL)
    failures = 0
    for game, name in [(g, n) for g in args.game or game_names() for n in args.only or SCENARIOS]:
        start = time.perf_counter()
        try:
            out = run(args.games, args.seed, [name], game)[name]
        except Unavailable as exc:
            print(f"storage faults need a mountable ext4 image: {exc}", file=sys.stderr)
            return 2
        failures += len(out.problems)
        print(f"{game}, {name}: {out.games} games ({out.unsaved} not saving for a while), "
              f"{len(out.problems)} failures, {time.perf_counter() - start:.0f} s")  # fmt: skip
        if out.problems:
            print("\n".join(out.problems[:3]))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
