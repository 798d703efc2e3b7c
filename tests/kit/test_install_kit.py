"""The Pi build kit: the systemd unit and installer agree with the CLI and the config."""

from __future__ import annotations

import configparser
import re
import shlex
import subprocess
from pathlib import Path

from firmware.cli import build_parser
from firmware.settings import load_unit_config
from hal.config import CONFIG_ENV, SYSTEM_CONFIG

HARDWARE = Path(__file__).resolve().parents[2] / "hardware"
SERVICE = HARDWARE / "systemd" / "switch16.service"


def _service() -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment, method-assign]
    parser.read_string(SERVICE.read_text(encoding="utf-8"))
    return parser


def _switch16_args(command_line: str) -> list[str]:
    argv = shlex.split(command_line)
    assert argv[0] == "/opt/switch16/venv/bin/switch16", argv[0]
    return argv[1:]


def test_service_commands_parse_with_the_real_cli() -> None:
    service = _service()["Service"]
    for key in ("ExecStart", "ExecStartPre"):
        args = _switch16_args(service[key])
        namespace = build_parser().parse_args(args)
        assert namespace.command == args[0]
    run = build_parser().parse_args(_switch16_args(service["ExecStart"]))
    assert run.command == "run"


def test_service_state_dir_matches_the_journal_dir_and_config() -> None:
    service = _service()["Service"]
    assert service["StateDirectory"] == "switch16"
    assert service["WorkingDirectory"] == "/var/lib/switch16"
    run_args = _switch16_args(service["ExecStart"])
    assert run_args[run_args.index("--state-dir") + 1] == "/var/lib/switch16"
    assert run_args[run_args.index("--config") + 1] == str(SYSTEM_CONFIG)
    # systemd allows repeated keys, which configparser folds: read them line by line.
    env = dict(
        line.removeprefix("Environment=").split("=", 1)
        for line in SERVICE.read_text(encoding="utf-8").splitlines()
        if line.startswith("Environment=")
    )
    assert env[CONFIG_ENV] == str(SYSTEM_CONFIG)
    assert env["SWITCH16_HAL"] == "pi"
    assert load_unit_config(HARDWARE / "unit.toml").game.state_dir == Path("/var/lib/switch16")


def test_service_fits_a_read_only_root_and_shares_the_games_with_a_group() -> None:
    """Every directive naming the state directory names the one the config uses."""
    service = _service()
    state = load_unit_config(HARDWARE / "unit.toml").game.state_dir
    assert state.parent == Path("/var/lib")  # StateDirectory= is relative to /var/lib
    assert service["Service"]["StateDirectory"] == state.name
    assert service["Service"]["ReadWritePaths"] == str(state)
    assert service["Unit"]["RequiresMountsFor"] == str(state)
    assert service["Service"]["ProtectSystem"] == "strict"  # writes only there
    assert service["Service"]["StateDirectoryMode"] == "0750"
    assert service["Service"]["UMask"] == "0027"  # games group-readable, not world-readable
    assert service["Service"]["Group"] == "switch16"
    script = (HARDWARE / "install.sh").read_text(encoding="utf-8")
    assert "STATE=$ROOT" + str(state) in script
    assert 'usermod -aG switch16 "$OWNER"' in script and "OWNER=${SUDO_USER:-}" in script


def test_installer_is_valid_bash_and_installs_the_files_it_names() -> None:
    script = HARDWARE / "install.sh"
    subprocess.run(["bash", "-n", str(script)], check=True)
    text = script.read_text(encoding="utf-8")
    assert "hardware/systemd/switch16.service" in text
    assert str(SYSTEM_CONFIG) in text
    assert "dtoverlay=i2c-mux,pca9548,addr=0x70" in text


def _switch16_command_lines(text: str) -> list[list[str]]:
    """Every ``switch16 …`` command in inline code or ``sh`` blocks (argv after switch16)."""
    found = [span for span in re.findall(r"`([^`\n]+)`", text) if span.startswith("switch16 ")]
    for block in re.findall(r"```sh\n(.*?)```", text, flags=re.S):
        found += [line.split("#")[0] for line in block.splitlines()]
    out = []
    for line in found:
        argv = shlex.split(line)
        if argv and argv[0] == "sudo":
            argv = argv[1:]
        if argv and (argv[0] == "switch16" or argv[0].endswith("/bin/switch16")):
            out.append(argv[1:])
    return out


def test_install_guide_commands_parse_and_it_points_to_selftest() -> None:
    guide = (HARDWARE / "INSTALL.md").read_text(encoding="utf-8")
    commands = _switch16_command_lines(guide)
    assert ["selftest"] in commands
    for argv in commands:
        build_parser().parse_args(argv)  # exits (fails the test) on a bad command
    assert "## Check the build: `switch16 selftest`" in guide
    script = (HARDWARE / "install.sh").read_text(encoding="utf-8")
    assert '"Then check the build (hardware/INSTALL.md): sudo systemctl stop switch16; ' in script
    assert "stop switch16; switch16 selftest" in script  # on the PATH: /usr/local/bin
    assert 'ln -sfn /opt/switch16/venv/bin/switch16 "$BIN_LINK"' in script
    assert "BIN_LINK=$ROOT/usr/local/bin/switch16" in script
