"""The built-in suite of ``switch16 hil``: the protocol's refusals of bad input, then
for every registered game the scenarios it brings through the seam
(:meth:`~firmware.games.game.Game.hil_scenarios`: whole games by presses, the game's own
situations, a power cut where the rig can cut the power), each a step of the driver's
report."""

from __future__ import annotations

from collections.abc import Sequence

from firmware.games.registry import game_names, get_game

from .client import LinkError
from .protocol import encode
from .report import Report, StepFailed
from .unit_driver import UnitDriver


def suite(d: UnitDriver, presets: Sequence[str] | None = None,
          games: Sequence[str] | None = None) -> Report:  # fmt: skip
    """Play the suite on ``d``'s unit: of ``games`` (default every registered one),
    their scenarios of ``presets`` (default all; a scenario of no preset always plays);
    those that cut the power only where ``d`` can (its ``restart``)."""
    protocol_steps(d)
    if not d.hello.get("test_mode"):
        with d.step("production unit refuses test ops") as _:
            before = d.state()
            try:
                d.c.request("press", seat=0, button="yes")
                raise StepFailed("press was accepted")
            except LinkError as exc:
                if exc.code != "not_test_mode":
                    raise StepFailed(f"wrong error {exc.code}") from None
            if d.state()["state"] != before["state"]:
                raise StepFailed("the state changed")
        d.report.notes.append("not in test mode: games skipped")
        return d.report
    for name in games or game_names():
        for scenario in get_game(name).hil_scenarios():
            if presets is not None and scenario.preset not in (None, *presets):
                continue
            if scenario.power_cut and d.restart is None:
                continue
            with d.step(scenario.name):
                scenario.run(d)
    d.report.notes.append(f"seen while playing: {d.seen or 'nothing special'}")
    return d.report


def protocol_steps(d: UnitDriver) -> None:
    with d.step("hello"):
        h = d.hello
        if h.get("protocol") != 1:
            raise StepFailed(f"protocol {h.get('protocol')}")
    checks = [
        ("garbage", b"\x00\xff garbage \x7f\n", "framing"),
        ("bad checksum", encode({"id": 9, "op": "state"})[:-3] + b"00\n", "checksum"),
        ("overlong frame", b"x" * 5000 + b"\n", "overlong"),
        ("unknown op", encode({"id": 99001, "op": "explode"}), "unknown_op"),
        ("malformed field", encode({"id": 99002, "op": "frame", "seat": "one"}), "bad_field"),
        ("old version", b'{"v":0,"op":"hello"}*' + b"%08x" % 0 + b"\n", None),
    ]
    for name, data, code in checks:
        with d.step(f"bad input: {name}"):
            before = d.state()
            d.c.drain_events()
            d.c.write(data)
            got = d.c.wait_event(lambda m: m.get("ok") is False, 2.0)
            if got is None:
                raise StepFailed("no error reply")
            if code is not None and got.message["error"]["code"] != code:
                raise StepFailed(f"error {got.message['error']} (wanted {code})")
            after = d.state()
            if (after["state"], after["actions"]) != (before["state"], before["actions"]):
                raise StepFailed("the state changed")
