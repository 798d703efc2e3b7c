"""Fuzz a live unit's link: N random frames must leave its state unchanged and the
loop responsive. Read-only unit in-process over a pty (or ``--port URL``).

    python3 -m tools.link_fuzz --frames 10000
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from firmware.link.client import LinkClient
from firmware.link.protocol import encode
from firmware.link.pytest_plugin import InProcessUnit

OPS = ["hello", "state", "frame", "press", "dice", "newgame", "advance", "boom", ""]
FIELDS = ["seat", "button", "ms", "rolls", "seats", "seconds", "v", "id"]


def random_frame(rng: random.Random) -> bytes:
    kind = rng.randrange(5)
    if kind == 0:
        return rng.randbytes(rng.randrange(300))
    if kind == 1:
        return rng.randbytes(rng.randrange(300)) + b"\n"
    values = [None, -1, 0, 3, 2**60, "x", "yes", [], [1, 2], {"a": 1}, True, 1.5]
    msg = {"id": rng.randrange(1000), "op": rng.choice(OPS)}
    msg.update({rng.choice(FIELDS): rng.choice(values) for _ in range(rng.randrange(4))})
    frame = encode(msg)
    if kind == 3:  # flip a byte
        i = rng.randrange(len(frame) - 1)
        frame = frame[:i] + bytes([rng.randrange(256)]) + frame[i + 1 :]
    if kind == 4:
        frame = frame[: rng.randrange(len(frame))]  # cut short
    return frame


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--port", help="a unit's link URL (default: in-process, read-only)")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    unit = None if args.port else InProcessUnit(test_mode=False)
    url = args.port or unit.url  # type: ignore[union-attr]
    problems = 0
    start = time.perf_counter()
    with LinkClient(url, timeout=10) as client:
        before = client.request("state")
        for n in range(args.frames):
            client.write(random_frame(rng))
            if n % 1000 == 999:
                client.write(b"\n")
                time.sleep(0.6)
                t0 = time.perf_counter()
                now = client.request("state")
                if (now["state"], now["mode"], now["actions"]) != (
                    before["state"], before["mode"], before["actions"]):  # fmt: skip
                    problems += 1
                    print(f"after {n + 1} frames the state changed: {now}", file=sys.stderr)
                print(f"{n + 1} frames: state unchanged, answered in "
                      f"{(time.perf_counter() - t0) * 1000:.1f} ms", flush=True)  # fmt: skip
        stats = client.request("stats")
    if unit is not None:
        unit.close()
    print(f"{args.frames} frames in {time.perf_counter() - start:.1f} s; unit counted {stats}; "
          f"{problems} problems")  # fmt: skip
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
