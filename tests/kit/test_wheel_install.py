"""A non-editable install works away from the source tree (issue 10): the wheel carries
the reference config and everything else read at run time."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest

from tests.conftest import demo_dir

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with only the built wheel, seeing this environment's packages (its
    dependencies: whatever the base Python has, CI's fresh venv has not)."""
    base = tmp_path_factory.mktemp("wheel")
    dist = base / "dist"
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q",
         "-w", str(dist), str(ROOT)],
        capture_output=True, text=True, cwd=base,
    )  # fmt: skip
    if build.returncode != 0:
        pytest.fail(f"building the wheel failed:\n{build.stderr}")
    env_dir = base / "venv"
    venv.create(env_dir, with_pip=False)
    py = env_dir / "bin" / "python"
    # A path in a .pth file: after the venv's own packages, and without running this
    # environment's .pth files (its editable switch16 stays out).
    here = {sysconfig.get_paths()[key] for key in ("purelib", "platlib")}
    site = env_dir / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}" / "site-packages"
    (site / "outer-environment.pth").write_text("".join(f"{p}\n" for p in here), encoding="utf-8")
    (wheel,) = dist.glob("switch16_unit-*.whl")
    subprocess.run([sys.executable, "-m", "pip", "--python", str(py), "install", "--no-deps",
                    "--no-index", "-q", str(wheel)], check=True)  # fmt: skip
    return env_dir


def run(env_dir: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "SWITCH16_CONFIG")}
    env |= {"SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    env.pop("DISPLAY", None)
    return subprocess.run([str(env_dir / "bin" / args[0]), *args[1:]], capture_output=True,
                          text=True, cwd=cwd, env=env, timeout=300)  # fmt: skip


def test_the_wheel_runs_from_another_directory(installed: Path, tmp_path: Path) -> None:
    where = run(installed, "python", "-c", "import firmware, hardware; "
                "print(firmware.__file__); print(hardware.__file__)", cwd=tmp_path)  # fmt: skip
    assert where.returncode == 0, where.stderr
    assert all(str(installed) in line for line in where.stdout.split()), where.stdout
    backends = run(installed, "python", "-c", "from importlib.metadata import entry_points; "
                   "print(sorted(e.value for e in entry_points(group='switch16.hal')))",
                   cwd=tmp_path)  # fmt: skip
    registered = "['hal.pi:PiHal', 'hal.testing:mock_backend', 'sim.hal:SimHal']"
    assert backends.stdout.strip() == registered, backends.stderr
    checked = run(installed, "switch16", "check-config", cwd=tmp_path)
    assert checked.returncode == 0, checked.stderr
    assert "unit.toml: OK" in checked.stdout
    demo = run(installed, "sim", "--headless", "--seed", "3", "--players", "2", cwd=tmp_path)
    assert demo.returncode == 0, demo.stderr
    assert (demo_dir() / "transcript.jsonl").exists()
    version = run(installed, "switch16", "--version", cwd=tmp_path)
    assert version.stdout.strip() == "switch16 0.1.0"
