"""benchmarks/startup.py times the real ``switch16 run`` to systemd's READY=1 (every
display has its first frame) on the emulated Pi; one run, as a smoke test."""

from __future__ import annotations

from pathlib import Path

from benchmarks.startup import first_frame, first_frame_bus


def test_switch16_run_reaches_ready_with_every_frame_on_the_emulated_bus(tmp_path: Path) -> None:
    run = first_frame(tmp_path / "state")
    assert 0 < run["hal_open"] <= run["splash"] <= run["ready"] < 60
    assert 0 < run["hal_cpu"] <= run["splash_cpu"]
    assert (tmp_path / "state").is_dir()  # the real journal directory was used


def test_the_first_frames_bus_cost_counts_a_full_frame_per_display() -> None:
    displays, count, seconds = first_frame_bus()
    assert displays == 4 and count >= 4 * 1024
    assert seconds == count * 9 / 400_000
