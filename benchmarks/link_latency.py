"""Press -> frame over the serial link: how soon a test rig sees a press act.

    python3 benchmarks/link_latency.py [--presses 300] [--via pty,socket,rfc2217]

A unit on mocked GPIO in another process (``switch16 run --hal mock``, real clock,
test mode; :class:`firmware.link.target.MockTarget`), reached over a crossed pty pair
and over ``socket://`` through the TCP bridge, as the harness reaches it. The game is
set up by presses (tablier, seat 0 rolls a block, seat 1 rolls green), so seat 1's
green menu is open; each timed press is seat 1's CHIP, which moves the menu's
highlight: press request out -> mock pin -> gpiozero -> debouncer -> the loop ->
render -> the emulated panel -> the ``frame`` event back. The time is from writing
the request to the arrival of that seat's ``frame`` event; the next press waits until
the finger has lifted. A press without a frame within 1 s counts as lost.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from firmware.link.harness import Harness
from firmware.link.target import VIAS, MockTarget


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


def measure(via: str, presses: int) -> tuple[list[float], int]:
    with MockTarget(via) as target:
        harness = Harness(target.connect(), check_frames=False)
        client = harness.c
        harness.new_game("switch16", ["human", "human"], rules="tablier", first=0)
        client.request("dice", rolls=[{"dice": [6, 6, 6], "switch": "block"},
                                      {"dice": [1, 2, 4], "switch": "green"}])  # fmt: skip
        harness.press(0, "yes")
        harness.wait_for("seat 1 rolls", lambda s: s["state"]["turn"] == 1)
        harness.press(1, "yes")
        harness.wait_for("the green menu", lambda s: s["state"]["phase"] == "green")
        client.request("subscribe", events=["frame"])
        times: list[float] = []
        lost = 0
        for _ in range(presses):
            client.drain_events()
            sent = time.perf_counter()
            client.request("press", seat=1, button="chip", ms=20)
            got = client.wait_event(lambda m: m.get("event") == "frame" and m["seat"] == 1, 1.0)
            if got is None:
                lost += 1
            else:
                times.append(got.at - sent)
            time.sleep(max(0.0, sent + 0.09 - time.perf_counter()))  # lifted + debounced
        if client.request("state")["state"]["phase"] != "green":
            raise SystemExit(f"{via}: the game left the green menu")
        return times, lost


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=300)
    parser.add_argument("--via", default="pty,socket", help=f"of {', '.join(VIAS)}")
    args = parser.parse_args(argv)
    print(f"press -> frame over the link, {args.presses} presses per cable (ms)")
    print(f"{'cable':<10} {'n':>5} {'p50':>7} {'p95':>7} {'max':>7} {'lost':>5}")
    for via in args.via.split(","):
        times, lost = measure(via, args.presses)
        ms = [t * 1000 for t in times]
        print(f"{via:<10} {len(ms):>5} {percentile(ms, 0.5):>7.2f} {percentile(ms, 0.95):>7.2f} "
              f"{max(ms):>7.2f} {lost:>5}", flush=True)  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
