"""hardware/install.sh, run into a fake root (SWITCH16_ROOT) with apt-get, apt-cache,
systemctl and the user commands stubbed: it installs a wheel (no checkout copy), pins with
the constraints file, keeps the config, guards its config.txt lines with [all], adds each
line once, asks for a reboot until the multiplexer is live, restarts the service once it
is, and replaces the firmware only after the new one has checked the kept config.
tools/arm64_check.sh runs it unstubbed on a Debian arm64 root under systemd."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HARDWARE = ROOT / "hardware"
INSTALLER = HARDWARE / "install.sh"
SERVICE = HARDWARE / "systemd" / "switch16.service"
CONSTRAINTS = HARDWARE / "constraints-pi.txt"
BOOT_LINES = ["dtparam=i2c_arm=on,i2c_arm_baudrate=400000", "dtoverlay=i2c-mux,pca9548,addr=0x70"]
STOCK_CONFIG = "# stock Raspberry Pi OS\ndtparam=audio=on\n[pi4]\narm_boost=1"  # no final newline
PI_MODEL = "Raspberry Pi Zero 2 W Rev 1.0\0"
REBOOT = "reboot once"
RESTARTED = "Done (service restarted)"

# Each stub logs its command line; groups, the user and the service's state are files.
STUB = """#!/usr/bin/env bash
echo "$(basename "$0") $*" >>"$STUB_LOG"
case "$(basename "$0") $1" in
    "getent group") [ -e "$STUB_LOG.group-$2" ] ;;
    "groupadd --system") touch "$STUB_LOG.group-$3" ;;
    "id switch16") [ -e "$STUB_LOG.user" ] ;;
    "useradd "*) touch "$STUB_LOG.user" ;;
    "apt-cache show") [[ " $STUB_APT " == *" $2 "* ]] ;;
    "apt-get install") [ -z "${STUB_APT_FAILS:-}" ] ;;
    "systemctl is-active") [ -e "$STUB_LOG.active" ] ;;
    "systemctl restart") touch "$STUB_LOG.active" ;;
esac
"""
STUBBED = ("apt-get", "apt-cache", "systemctl", "groupadd", "useradd", "usermod", "getent", "id",
           "chown")  # fmt: skip


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


@dataclass
class FakePi:
    """A fake root with its stubs: ``run`` runs the installer, returning its exit status,
    output and the stub log of that run."""

    root: Path
    env: dict[str, str]
    log: Path

    def run(self, *args: str, **env: str) -> tuple[int, str, str]:
        done = subprocess.run(["bash", str(INSTALLER), *args], env=self.env | env,
                              cwd=self.root.parent, capture_output=True, text=True,
                              timeout=600)  # fmt: skip
        calls = self.log.read_text(encoding="utf-8") if self.log.exists() else ""
        self.log.unlink(missing_ok=True)
        return done.returncode, done.stdout + done.stderr, calls

    def make_live(self) -> None:
        """What a reboot with the overlay loaded leaves: the multiplexer and its buses."""
        (self.root / "sys" / "bus" / "i2c" / "devices" / "1-0070").mkdir(parents=True)
        (self.root / "dev").mkdir(exist_ok=True)
        (self.root / "dev" / "i2c-1").touch()


def _fake_pi(base: Path, *, model: str | None = PI_MODEL, groups: tuple[str, ...] = ("i2c",),
             python3: str | None = None) -> FakePi:  # fmt: skip
    """A Raspberry Pi OS-like fake root: ``model`` in the device tree (None: not a Pi),
    ``groups`` already there (plain Debian + i2c-tools: i2c, not gpio or spi), a stock
    config.txt; ``python3`` replaces the interpreter with a script."""
    root, stubs, log = base / "root", base / "bin", base / "stub.log"
    (root / "boot" / "firmware").mkdir(parents=True)
    (root / "boot" / "firmware" / "config.txt").write_text(STOCK_CONFIG, encoding="utf-8")
    if model is not None:
        (root / "proc" / "device-tree").mkdir(parents=True)
        (root / "proc" / "device-tree" / "model").write_text(model, encoding="utf-8")
    stubs.mkdir()
    for name in STUBBED:
        (stubs / name).write_text(STUB, encoding="utf-8")
        (stubs / name).chmod(0o755)
    if python3 is None:
        (stubs / "python3").symlink_to(sys.executable)
    else:
        (stubs / "python3").write_text(python3, encoding="utf-8")
        (stubs / "python3").chmod(0o755)
    for group in groups:
        Path(f"{log}.group-{group}").touch()
    pins = base / "constraints.txt"
    pins.write_text(_pins(), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "SWITCH16_CONFIG")}
    env |= {"PATH": f"{stubs}:{env['PATH']}", "STUB_LOG": str(log), "STUB_APT": "",
            "SUDO_USER": "maker", "SWITCH16_ROOT": str(root), "SWITCH16_CONSTRAINTS": str(pins),
            "SWITCH16_EXTRA": ""}  # fmt: skip
    return FakePi(root, env, log)


@dataclass
class Runs:
    """The fixture's fake Pi and its runs: the install; the same again without a reboot
    in between; after the reboot (the multiplexer live); an update whose new firmware
    rejects the kept config."""

    pi: FakePi
    runs: list[tuple[int, str, str]]
    venv_before_bad_update: tuple[Path, int]


def _firmware(prefix: Path) -> tuple[Path, int]:
    """Where ``venv`` points and when the installed firmware's RECORD was written."""
    (record,) = prefix.glob("venv/lib/python3*/site-packages/switch16_unit-*.dist-info/RECORD")
    return (prefix / "venv").resolve(), record.stat().st_mtime_ns


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Runs:
    pi = _fake_pi(tmp_path_factory.mktemp("install"))
    conf = pi.root / "etc" / "switch16" / "unit.toml"
    runs = [pi.run()]
    assert runs[0][0] == 0, runs[0][1]
    conf.write_text(conf.read_text(encoding="utf-8") + "# mine\n", encoding="utf-8")
    runs.append(pi.run())  # as after a run that stopped before the reboot
    assert runs[1][0] == 0, runs[1][1]
    pi.make_live()
    Path(f"{pi.log}.active").touch()  # systemd started the service at boot
    runs.append(pi.run())
    assert runs[2][0] == 0, runs[2][1]
    before = _firmware(pi.root / "opt" / "switch16")
    good = conf.read_text(encoding="utf-8")
    conf.write_text(good + "[no_such_table]\nkey = 1\n", encoding="utf-8")
    runs.append(pi.run())
    conf.write_text(good, encoding="utf-8")
    return Runs(pi, runs, before)


def _installed_packages(calls: str) -> list[str]:
    (line,) = [c for c in calls.splitlines() if c.startswith("apt-get install")]
    return [word for word in line.split()[2:] if not word.startswith("-")]


def test_installs_a_wheel_and_no_checkout(installed: Runs) -> None:
    root, output = installed.pi.root, installed.runs[0][1]
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
    assert sorted(p.name for p in prefix.glob("venv*")) == sorted(
        ["venv", os.readlink(prefix / "venv")]
    )


def test_config_txt_gets_each_line_once_under_all(installed: Runs) -> None:
    root = installed.pi.root
    text = (root / "boot" / "firmware" / "config.txt").read_text(encoding="utf-8")
    assert text.startswith(STOCK_CONFIG + "\n")
    lines = text.splitlines()
    assert lines.count("[all]") == 1
    for line in BOOT_LINES:
        assert lines.count(line) == 1 and lines.index(line) > lines.index("[all]"), line
    modules = (root / "etc" / "modules").read_text(encoding="utf-8").splitlines()
    assert modules == ["i2c-dev"]


def test_later_runs_keep_the_config_and_restart_once_live(installed: Runs) -> None:
    root = installed.pi.root
    (_, _, first), _, (_, live, third), _ = installed.runs
    conf = root / "etc" / "switch16" / "unit.toml"
    assert conf.read_text(encoding="utf-8").endswith("# mine\n")
    service = root / "etc" / "systemd" / "system" / "switch16.service"
    assert service.read_bytes() == SERVICE.read_bytes()
    assert "systemctl restart switch16.service" not in first  # the first run asks to reboot
    assert "systemctl restart switch16.service" in third and RESTARTED in live
    assert REBOOT not in live
    assert "systemctl enable switch16.service" in third
    assert "useradd" in first and "useradd" not in third
    assert "usermod -aG switch16 maker" in first
    state = root / "var" / "lib" / "switch16"
    assert state.is_dir() and state.stat().st_mode & 0o777 == 0o750


def test_packages_from_the_pi_archive_only_where_apt_has_them(installed: Runs,
                                                              tmp_path: Path) -> None:  # fmt: skip
    """Defect 1: python3-lgpio and liblgpio-dev are in the Raspberry Pi archive only."""
    packages = _installed_packages(installed.runs[0][2])
    assert "python3-lgpio" not in packages and "liblgpio-dev" not in packages
    pi = _fake_pi(tmp_path)
    status, _, calls = pi.run(STUB_APT="python3-lgpio liblgpio-dev", STUB_APT_FAILS="1")
    assert status != 0  # stopped at apt-get install
    assert {"python3-lgpio", "liblgpio-dev"} <= set(_installed_packages(calls))


def test_installs_the_compiler_the_spidev_build_needs(installed: Runs) -> None:
    """Defect 2: spidev is published only as source; Lite images other than Raspberry Pi
    OS's have no compiler."""
    assert {"gcc", "libc6-dev", "python3-dev", "python3-venv"} <= set(
        _installed_packages(installed.runs[0][2])
    )


def test_creates_the_groups_the_service_runs_in(installed: Runs) -> None:
    """Defect 3: the unit's SupplementaryGroups= fail with 216/GROUP where one is missing."""
    calls = installed.runs[0][2]
    line = next(x for x in SERVICE.read_text("utf-8").splitlines() if x.startswith("Supplem"))
    groups = line.split("=", 1)[1].split()
    assert groups == ["gpio", "i2c", "spi"]
    for group in groups:
        assert f"usermod -aG {group} switch16" in calls
        assert (f"groupadd --system {group}" in calls) == (group != "i2c"), group  # i2c existed


def test_a_unit_that_cannot_start_stops_restarting() -> None:
    """Defect 3: Restart=on-failure every RestartSec must reach the start limit, where
    systemd's default (5 starts in 10 s) never does with RestartSec=2."""
    unit: dict[str, str] = {}
    for line in SERVICE.read_text(encoding="utf-8").splitlines():
        if "=" in line and not line.startswith("#"):
            key, value = line.split("=", 1)
            unit[key] = value
    assert unit["Restart"] == "on-failure"
    interval = float(unit.get("StartLimitIntervalSec", "10").removesuffix("s"))
    burst = int(unit.get("StartLimitBurst", "5"))
    restart = float(unit["RestartSec"]) + 0.25  # a start that fails at once
    assert burst * restart < interval, "a failing unit restarts for ever"
    assert interval <= 600  # and a hung loop now and then stays under it


def test_the_reboot_prompt_comes_from_what_is_live(installed: Runs) -> None:
    """Defect 4: the second run finds its lines in config.txt but nothing rebooted yet."""
    _, again, _ = installed.runs[1]
    assert REBOOT in again and RESTARTED not in again


def test_the_new_firmware_checks_the_kept_config_before_replacing_the_old(
    installed: Runs,
) -> None:
    """Defect 5: a config the new firmware rejects leaves the old firmware installed."""
    status, output, calls = installed.runs[3]
    assert status == 1
    assert "no_such_table" in output and "nothing was replaced" in output
    assert _firmware(installed.pi.root / "opt" / "switch16") == installed.venv_before_bad_update
    assert "systemctl restart" not in calls and "systemctl daemon-reload" not in calls
    assert len(list((installed.pi.root / "opt" / "switch16").glob("venv-*"))) == 1


@pytest.mark.parametrize(
    ("model", "python3", "said"),
    [
        (None, None, ["this is not a Raspberry Pi"]),
        (PI_MODEL, "#!/bin/sh\necho 32 3.11\n", ["32-bit", "Raspberry Pi OS Lite (64-bit)"]),
        (PI_MODEL, "#!/bin/sh\necho 64 3.13\n", ["Python 3.13", "liblgpio-dev", "swig"]),
    ],
    ids=["not-a-pi", "32-bit", "python-3.13"],
)
def test_refuses_an_unsupported_machine_and_changes_nothing(
    tmp_path: Path, model: str | None, python3: str | None, said: list[str]
) -> None:
    """Defects 6 and 7: it says what it found and what to do, and stops before any change
    (no /boot/config.txt on a PC) unless forced."""
    pi = _fake_pi(tmp_path, model=model, python3=python3)
    (pi.root / "boot" / "firmware" / "config.txt").unlink()
    status, output, calls = pi.run()
    assert status == 1, output
    for words in [*said, "--force", "nothing was changed"]:
        assert words in output
    assert calls == ""
    assert not list(pi.root.glob("boot/**/*.txt")) and not (pi.root / "etc").exists()
    assert not (pi.root / "opt").exists()


def test_forced_it_installs_anyway_and_a_bad_argument_is_a_usage_error(tmp_path: Path) -> None:
    pi = _fake_pi(tmp_path, model=None)
    status, output, calls = pi.run("--force", STUB_APT_FAILS="1")  # stops after the packages
    assert "--force: installing anyway" in output and "apt-get install" in calls
    status, output, calls = pi.run("--forse")
    assert status == 2 and "--forse" in output and calls == ""


def test_the_guide_names_every_package_and_the_image() -> None:
    """Defect 8: INSTALL.md names what install.sh installs, git first, and the image."""
    text = INSTALLER.read_text(encoding="utf-8")
    packages: list[str] = []
    for name in ("PACKAGES", "PI_PACKAGES"):
        found = re.search(rf"^{name}=\(([^)]*)\)", text, flags=re.M)
        assert found, name
        packages += found.group(1).split()
    guide = (HARDWARE / "INSTALL.md").read_text(encoding="utf-8")
    for package in [*packages, "swig"]:
        assert f"`{package}`" in guide, package
    assert "sudo apt install git" in guide
    assert "Raspberry Pi OS Lite (64-bit)" in guide and "Bookworm" in guide


def test_the_installer_is_shellcheck_clean() -> None:
    if shutil.which("shellcheck") is None:
        pytest.skip("shellcheck is not installed (apt-get install shellcheck)")
    subprocess.run(["shellcheck", str(INSTALLER), str(ROOT / "tools" / "arm64_check.sh")],
                   check=True)  # fmt: skip


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
