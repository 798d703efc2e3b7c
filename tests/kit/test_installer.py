"""hardware/install.sh, run twice into a fake root (SWITCH16_ROOT) with apt-get, systemctl
and the user commands stubbed: it installs a wheel (no checkout copy), pins with the
constraints file, keeps the config, guards its config.txt lines with [all], adds each
line once, and restarts the service on the second run."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HARDWARE = ROOT / "hardware"
CONSTRAINTS = HARDWARE / "constraints-pi.txt"
BOOT_LINES = ["dtparam=i2c_arm=on,i2c_arm_baudrate=400000", "dtoverlay=i2c-mux,pca9548,addr=0x70"]
STOCK_CONFIG = "# stock Raspberry Pi OS\ndtparam=audio=on\n[pi4]\narm_boost=1"  # no final newline

STUB = """#!/usr/bin/env bash
echo "$(basename "$0") $*" >>"$STUB_LOG"
case "$(basename "$0") $1" in
    "getent group") [ "$2" != switch16 ] || [ -e "$STUB_LOG.group" ] ;;
    "groupadd "*) touch "$STUB_LOG.group" ;;
    "id switch16") [ -e "$STUB_LOG.user" ] ;;
    "useradd "*) touch "$STUB_LOG.user" ;;
esac
"""


def _pins() -> str:
    """The constraints file's packages at the versions installed here (the venv sees them
    as system site packages, so nothing is downloaded)."""
    out = []
    for line in CONSTRAINTS.read_text(encoding="utf-8").splitlines():
        name = re.match(r"[A-Za-z0-9_.-]+", line)
        if name and not line.startswith("#"):
            try:
                out.append(f"{name.group(0)}=={metadata.version(name.group(0))}")
            except metadata.PackageNotFoundError:
                continue  # the pi extra's lgpio/spidev: SWITCH16_EXTRA="" leaves them out
    return "\n".join(out) + "\n"


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str], str]:
    """(fake root, the stub log of each run, both runs' output)."""
    base = tmp_path_factory.mktemp("install")
    root, stubs, log = base / "root", base / "bin", base / "stub.log"
    (root / "boot" / "firmware").mkdir(parents=True)
    (root / "boot" / "firmware" / "config.txt").write_text(STOCK_CONFIG, encoding="utf-8")
    stubs.mkdir()
    for name in ("apt-get", "systemctl", "groupadd", "useradd", "usermod", "getent", "id",
                 "chown"):  # fmt: skip
        (stubs / name).write_text(STUB, encoding="utf-8")
        (stubs / name).chmod(0o755)
    (stubs / "python3").symlink_to(sys.executable)
    pins = base / "constraints.txt"
    pins.write_text(_pins(), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "SWITCH16_CONFIG")}
    env |= {"PATH": f"{stubs}:{env['PATH']}", "STUB_LOG": str(log), "SUDO_USER": "maker",
            "SWITCH16_ROOT": str(root), "SWITCH16_CONSTRAINTS": str(pins),
            "SWITCH16_EXTRA": ""}  # fmt: skip
    logs, output = [], ""
    for run in range(2):
        done = subprocess.run(["bash", str(HARDWARE / "install.sh")], env=env, cwd=base,
                              capture_output=True, text=True, timeout=600)  # fmt: skip
        output += done.stdout + done.stderr
        assert done.returncode == 0, done.stdout + done.stderr
        logs.append(log.read_text(encoding="utf-8"))
        log.unlink()
        if run == 0:  # the maker edits the config between the runs
            conf = root / "etc" / "switch16" / "unit.toml"
            conf.write_text(conf.read_text(encoding="utf-8") + "# mine\n", encoding="utf-8")
    return root, logs, output


def test_installs_a_wheel_and_no_checkout(installed: tuple[Path, list[str], str]) -> None:
    root, _, output = installed
    prefix = root / "opt" / "switch16"
    assert not list(root.rglob(".git")) and not (prefix / "src").exists()
    assert not list(prefix.rglob("test_installer.py")), "the checkout's tests were copied"
    (dist,) = prefix.glob("venv/lib/python3*/site-packages/switch16_unit-*.dist-info")
    assert not (dist / "direct_url.json").exists() or "editable" not in (
        dist / "direct_url.json"
    ).read_text(encoding="utf-8")
    version = subprocess.run([str(prefix / "venv" / "bin" / "switch16"), "--version"],
                             capture_output=True, text=True, check=True)  # fmt: skip
    assert version.stdout.strip().startswith("switch16 ")
    assert f"pip install -c {root.parent / 'constraints.txt'} switch16_unit-" in output
    link = root / "usr" / "local" / "bin" / "switch16"
    assert os.readlink(link) == "/opt/switch16/venv/bin/switch16"
    assert (prefix / "doc" / "WIRING.svg").is_file()


def test_config_txt_gets_each_line_once_under_all(installed: tuple[Path, list[str], str]) -> None:
    root, _, _ = installed
    text = (root / "boot" / "firmware" / "config.txt").read_text(encoding="utf-8")
    assert text.startswith(STOCK_CONFIG + "\n")
    lines = text.splitlines()
    assert lines.count("[all]") == 1
    for line in BOOT_LINES:
        assert lines.count(line) == 1 and lines.index(line) > lines.index("[all]"), line
    modules = (root / "etc" / "modules").read_text(encoding="utf-8").splitlines()
    assert modules == ["i2c-dev"]


def test_second_run_keeps_the_config_and_restarts(installed: tuple[Path, list[str], str]) -> None:
    root, (first, second), _ = installed
    conf = root / "etc" / "switch16" / "unit.toml"
    assert conf.read_text(encoding="utf-8").endswith("# mine\n")
    service = root / "etc" / "systemd" / "system" / "switch16.service"
    assert service.read_bytes() == (HARDWARE / "systemd" / "switch16.service").read_bytes()
    assert "systemctl restart switch16.service" not in first  # the first run asks to reboot
    assert "systemctl restart switch16.service" in second
    assert "systemctl enable switch16.service" in second
    assert first.count("groupadd --system switch16") == 1 and "groupadd" not in second
    assert "useradd" in first and "useradd" not in second
    assert "usermod -aG switch16 maker" in first
    state = root / "var" / "lib" / "switch16"
    assert state.is_dir() and state.stat().st_mode & 0o777 == 0o750


def test_the_installer_is_shellcheck_clean() -> None:
    if shutil.which("shellcheck") is None:
        pytest.skip("shellcheck is not installed (apt-get install shellcheck)")
    subprocess.run(["shellcheck", str(HARDWARE / "install.sh")], check=True)


def test_the_constraints_pin_every_dependency_of_the_pi_install() -> None:
    pinned = {}
    for line in CONSTRAINTS.read_text(encoding="utf-8").splitlines():
        if found := re.match(r"([A-Za-z0-9_.-]+)==(\S+)", line):
            pinned[re.sub(r"[-_.]+", "-", found.group(1).lower())] = found.group(2)
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    requires = [*project["dependencies"], *project["optional-dependencies"]["pi"]]
    names = [re.match(r"[A-Za-z0-9_.-]+", r) for r in requires]
    wanted = {re.sub(r"[-_.]+", "-", n.group(0).lower()) for n in names if n}
    assert wanted <= set(pinned), wanted - set(pinned)
    assert "uv pip compile pyproject.toml --extra pi --universal" in CONSTRAINTS.read_text("utf-8")
