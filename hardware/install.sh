#!/usr/bin/env bash
# Install the Switch 16 firmware on a Raspberry Pi running Raspberry Pi OS Lite (64-bit),
# Bookworm: the supported image (hardware/INSTALL.md, "Software").
#
#   sudo apt install git
#   git clone <this repository> switch16 && sudo bash switch16/hardware/install.sh
#
# Re-running it (from a newer checkout) upgrades the firmware and keeps
# /etc/switch16/unit.toml, the journal and the saved games (hardware/INSTALL.md, "Updating"):
# the new firmware is installed beside the old one and checks the kept configuration
# before it replaces the old one.
#
# --force installs on a machine that is not a Raspberry Pi, or on an image other than the
# supported one (tools/arm64_check.sh does, on a Debian arm64 root under systemd-nspawn).
#
# SWITCH16_ROOT=DIR installs under DIR instead of / (the tests do, with apt-get,
# systemctl and the user commands stubbed); SWITCH16_CONSTRAINTS and SWITCH16_EXTRA
# replace hardware/constraints-pi.txt and the `pi` extra.
set -euo pipefail

FORCE=0
for arg in "$@"; do
    case $arg in
    --force) FORCE=1 ;;
    *)
        echo "install.sh: unknown argument '$arg' (the only option is --force)" >&2
        exit 2
        ;;
    esac
done
ROOT=${SWITCH16_ROOT:-}
[ -n "$ROOT" ] || [ "$(id -u)" -eq 0 ] || {
    echo "install.sh: run as root (sudo bash hardware/install.sh)" >&2
    exit 1
}
SRC=$(cd "$(dirname "$0")/.." && pwd)
PREFIX=$ROOT/opt/switch16
CONF=$ROOT/etc/switch16/unit.toml
STATE=$ROOT/var/lib/switch16
UNIT_SRC=$SRC/hardware/systemd/switch16.service
UNIT_FILE=$ROOT/etc/systemd/system/switch16.service
BIN_LINK=$ROOT/usr/local/bin/switch16
MODULES=$ROOT/etc/modules
CONSTRAINTS=${SWITCH16_CONSTRAINTS:-$SRC/hardware/constraints-pi.txt}
EXTRA=${SWITCH16_EXTRA-pi}
BOOT_CONFIG=$ROOT/boot/firmware/config.txt
[ -f "$BOOT_CONFIG" ] || BOOT_CONFIG=$ROOT/boot/config.txt
# The login user who ran sudo: added to the switch16 group to read the saved games.
OWNER=${SUDO_USER:-}
# Always: the venv, Python headers and a C compiler (spidev is published only as source),
# and i2cdetect for the build check. Where apt has them (the Raspberry Pi archive):
# lgpio's Python module and C library; elsewhere the lgpio wheel brings its own.
PACKAGES=(python3-venv python3-dev gcc libc6-dev i2c-tools)
PI_PACKAGES=(python3-lgpio liblgpio-dev)
# The groups the service runs in (the unit file's SupplementaryGroups=): created where the
# image lacks them, so that the service can start.
read -r -a GROUPS_OF_UNIT <<<"$(sed -n 's/^SupplementaryGroups=//p' "$UNIT_SRC")"

echo "== this machine"
MODEL=
if [ -r "$ROOT/proc/device-tree/model" ]; then MODEL=$(tr -d '\0' <"$ROOT/proc/device-tree/model"); fi
OS=$(sed -n 's/^PRETTY_NAME=//p' "$ROOT/etc/os-release" 2>/dev/null | tr -d '"' || true)
read -r BITS PYTHON <<<"$(python3 -c 'import struct, sys; print(struct.calcsize("P") * 8, "%d.%d" % sys.version_info[:2])')"
echo "   ${MODEL:-not a Raspberry Pi (no device-tree model)}; ${OS:-unknown OS}; ${BITS}-bit, Python $PYTHON"
problems=()
case $MODEL in
"Raspberry Pi"*) ;;
*) problems+=("this is not a Raspberry Pi: install.sh changes the system for one (packages, a system user, $BOOT_CONFIG, a service)") ;;
esac
if [ "$BITS" != 64 ]; then
    problems+=("a ${BITS}-bit system: PyPI has no 32-bit ARM wheels of some pinned dependencies (pillow, cbor2) and building them on a Pi Zero takes hours. Flash Raspberry Pi OS Lite (64-bit) instead (Raspberry Pi Imager: Raspberry Pi OS (other) -> Lite (64-bit)); it runs on the Zero 2 W and every Pi 3, 4 and 5")
fi
if [ "$PYTHON" != 3.11 ]; then
    problems+=("Python $PYTHON: the dependencies are pinned for Python 3.11 (Raspberry Pi OS Bookworm). Newer images (Trixie, Python 3.13) have no lgpio wheel: building it needs the Raspberry Pi archive's liblgpio-dev and swig (install.sh adds them where apt has them) and pins refreshed for that Python (hardware/INSTALL.md, \"Software\")")
fi
if [ "${#problems[@]}" -gt 0 ]; then
    for problem in "${problems[@]}"; do echo "   install.sh: $problem" >&2; done
    if [ "$FORCE" -eq 0 ]; then
        echo "install.sh: nothing was changed; run it again with --force to install anyway" >&2
        exit 1
    fi
    echo "   --force: installing anyway"
    [ "$PYTHON" = 3.11 ] || PI_PACKAGES+=(swig)
fi
echo "   about to: install packages with apt, create the switch16 user, build the firmware into"
echo "   $PREFIX, keep or create $CONF, add the I2C lines to $BOOT_CONFIG, enable switch16.service"

echo "== packages"
apt-get update -q
for package in "${PI_PACKAGES[@]}"; do
    # Only where apt has it: plain Debian and other images lack the Raspberry Pi archive.
    if apt-cache show "$package" >/dev/null 2>&1; then PACKAGES+=("$package"); fi
done
apt-get install -y -q --no-install-recommends "${PACKAGES[@]}"

echo "== user and groups"
getent group switch16 >/dev/null || groupadd --system switch16
id switch16 >/dev/null 2>&1 ||
    useradd --system --gid switch16 --no-create-home --shell /usr/sbin/nologin switch16
for group in "${GROUPS_OF_UNIT[@]}"; do
    getent group "$group" >/dev/null || groupadd --system "$group"
    usermod -aG "$group" switch16
done
if [ -n "$OWNER" ] && [ "$OWNER" != root ]; then
    usermod -aG switch16 "$OWNER"
    echo "   $OWNER is in the switch16 group: it reads the saved games (after a new login)"
fi

echo "== firmware (a wheel of $SRC)"
BUILD=$(mktemp -d)
NEW=
# shellcheck disable=SC2317 # called by the trap
cleanup() {
    rm -rf "$BUILD"
    if [ -n "$NEW" ]; then rm -rf "$NEW"; fi
}
trap cleanup EXIT
# Build from a clean copy: no .git, virtual environments or build leftovers.
tar -C "$SRC" -c --exclude=.git --exclude=.venv --exclude=venv --exclude=build \
    --exclude=dist --exclude='*.egg-info' --exclude=__pycache__ --exclude='.*_cache' . |
    { mkdir "$BUILD/src" && tar -C "$BUILD/src" -x; }
mkdir -p "$PREFIX"
# The new firmware goes into a venv of its own beside the running one; $PREFIX/venv is
# a link switched to it only once it has checked the configuration. System site
# packages: python3-lgpio, where apt has it.
NEW=$(mktemp -d "$PREFIX/venv-XXXXXX")
chmod 0755 "$NEW"
python3 -m venv --system-site-packages "$NEW"
PIP=("$NEW/bin/python" -m pip --disable-pip-version-check -q)
"${PIP[@]}" wheel --no-deps -w "$BUILD/dist" "$BUILD/src"
WHEEL=$(echo "$BUILD"/dist/switch16_unit-*.whl)
echo "   pip install -c $CONSTRAINTS $(basename "$WHEEL")${EXTRA:+[$EXTRA]} into $NEW"
"${PIP[@]}" install -c "$CONSTRAINTS" "$WHEEL${EXTRA:+[$EXTRA]}"

echo "== configuration"
if [ ! -f "$CONF" ]; then
    install -D -m 0644 "$SRC/hardware/unit.toml" "$CONF"
    echo "   installed the reference configuration as $CONF (edit pins there)"
else
    echo "   keeping $CONF"
fi
if ! "$NEW/bin/switch16" check-config "$CONF"; then
    echo "install.sh: the new firmware rejects $CONF (above): nothing was replaced, the" >&2
    echo "   installed firmware keeps running. Fix $CONF (compare it with" >&2
    echo "   $SRC/hardware/unit.toml for new keys) and run install.sh again." >&2
    exit 1
fi

echo "== switching to the new firmware ($PREFIX/venv -> $(basename "$NEW"))"
if [ -d "$PREFIX/venv" ] && [ ! -L "$PREFIX/venv" ]; then
    mv "$PREFIX/venv" "$PREFIX/venv-old" # a plain directory from an earlier installer
fi
ln -sfn "$(basename "$NEW")" "$PREFIX/venv.link" && mv -Tf "$PREFIX/venv.link" "$PREFIX/venv"
CURRENT=$NEW
NEW=
rm -rf "$PREFIX/src" # left by earlier installers
install -d "$PREFIX/doc" "$(dirname "$BIN_LINK")"
install -m 0644 "$SRC/hardware/INSTALL.md" "$SRC/hardware/WIRING.md" \
    "$SRC/hardware/WIRING.svg" "$PREFIX/doc/"
ln -sfn /opt/switch16/venv/bin/switch16 "$BIN_LINK"

echo "== saved games in $STATE (group switch16)"
# systemd's StateDirectory= keeps the owner and mode; created here so that a fresh
# install can be inspected before the first start.
install -d -m 0750 "$STATE"
if [ -z "$ROOT" ]; then chown switch16:switch16 "$STATE"; fi

echo "== I2C at 400 kHz and the PCA9548 multiplexer ($BOOT_CONFIG)"
LINES=("dtparam=i2c_arm=on,i2c_arm_baudrate=400000" "dtoverlay=i2c-mux,pca9548,addr=0x70")
missing=()
for line in "${LINES[@]}"; do
    grep -qxF "$line" "$BOOT_CONFIG" 2>/dev/null || missing+=("$line")
done
if [ ! -f "$BOOT_CONFIG" ]; then
    echo "   no config.txt in /boot/firmware or /boot (not a Raspberry Pi?): left alone"
elif [ "${#missing[@]}" -gt 0 ]; then
    # Finish an unterminated last line; then open an [all] section unless the last
    # section already is [all], so a [pi4] or [cm4] filter above cannot swallow ours.
    if [ -s "$BOOT_CONFIG" ] && [ -n "$(tail -c 1 "$BOOT_CONFIG")" ]; then echo >>"$BOOT_CONFIG"; fi
    section=$(grep -E '^[[:space:]]*\[' "$BOOT_CONFIG" | tail -n 1 | tr -d '[:space:]' || true)
    {
        echo "# Switch 16 (hardware/install.sh)"
        if [ -n "$section" ] && [ "$section" != "[all]" ]; then echo "[all]"; fi
        printf '%s\n' "${missing[@]}"
    } >>"$BOOT_CONFIG"
fi
mkdir -p "$(dirname "$MODULES")"
grep -qx 'i2c-dev' "$MODULES" 2>/dev/null || echo i2c-dev >>"$MODULES"
# What is live decides, not what the file says: a run that stopped after editing
# config.txt has not rebooted either. The overlay makes the multiplexer's device.
REBOOT=1
if compgen -G "$ROOT/sys/bus/i2c/devices/*-0070" >/dev/null && compgen -G "$ROOT/dev/i2c-*" >/dev/null; then
    REBOOT=0
fi

echo "== service"
install -D -m 0644 "$UNIT_SRC" "$UNIT_FILE"
systemctl daemon-reload
systemctl enable switch16.service
if [ "$REBOOT" -eq 0 ] || systemctl is-active --quiet switch16.service; then
    systemctl restart switch16.service # the new firmware
    echo "   switch16.service restarted. Logs: journalctl -u switch16 -f"
fi
# The old firmware goes once nothing runs it (a running unit still imports from it).
for old in "$PREFIX"/venv-*; do
    if [ "$old" != "$CURRENT" ]; then rm -rf "$old"; fi
done
if [ "$REBOOT" -eq 1 ]; then
    echo "Done. The I2C multiplexer is not live yet: reboot once to enable I2C and the overlay: sudo reboot"
else
    echo "Done (service restarted). Logs: journalctl -u switch16 -f"
fi
echo "Then check the build (hardware/INSTALL.md): sudo systemctl stop switch16; switch16 selftest"
