#!/usr/bin/env bash
# Install the Switch 16 firmware on a Raspberry Pi (Raspberry Pi OS Bookworm or later).
#
#   git clone <this repository> switch16 && sudo bash switch16/hardware/install.sh
#
# Re-running it (from a newer checkout) upgrades the firmware and keeps
# /etc/switch16/unit.toml, the journal and the saved games (hardware/INSTALL.md, "Updating").
#
# SWITCH16_ROOT=DIR installs under DIR instead of / (the tests do, with apt-get,
# systemctl and the user commands stubbed); SWITCH16_CONSTRAINTS and SWITCH16_EXTRA
# replace hardware/constraints-pi.txt and the `pi` extra.
set -euo pipefail

ROOT=${SWITCH16_ROOT:-}
[ -n "$ROOT" ] || [ "$(id -u)" -eq 0 ] || {
    echo "install.sh: run as root (sudo bash hardware/install.sh)" >&2
    exit 1
}
SRC=$(cd "$(dirname "$0")/.." && pwd)
PREFIX=$ROOT/opt/switch16
CONF=$ROOT/etc/switch16/unit.toml
STATE=$ROOT/var/lib/switch16
UNIT_FILE=$ROOT/etc/systemd/system/switch16.service
BIN_LINK=$ROOT/usr/local/bin/switch16
MODULES=$ROOT/etc/modules
CONSTRAINTS=${SWITCH16_CONSTRAINTS:-$SRC/hardware/constraints-pi.txt}
EXTRA=${SWITCH16_EXTRA-pi}
BOOT_CONFIG=$ROOT/boot/firmware/config.txt
[ -f "$BOOT_CONFIG" ] || BOOT_CONFIG=$ROOT/boot/config.txt
# The login user who ran sudo: added to the switch16 group to read the saved games.
OWNER=${SUDO_USER:-}

echo "== packages"
apt-get update -q
apt-get install -y -q python3-venv python3-dev python3-lgpio i2c-tools swig liblgpio-dev

echo "== user and groups"
getent group switch16 >/dev/null || groupadd --system switch16
id switch16 >/dev/null 2>&1 ||
    useradd --system --gid switch16 --no-create-home --shell /usr/sbin/nologin switch16
for group in gpio i2c spi; do
    if getent group "$group" >/dev/null; then usermod -aG "$group" switch16; fi
done
if [ -n "$OWNER" ] && [ "$OWNER" != root ]; then
    usermod -aG switch16 "$OWNER"
    echo "   $OWNER is in the switch16 group: it reads the saved games (after a new login)"
fi

echo "== firmware in $PREFIX (a wheel of $SRC)"
BUILD=$(mktemp -d)
trap 'rm -rf "$BUILD"' EXIT
# Build from a clean copy: no .git, virtual environments or build leftovers.
tar -C "$SRC" -c --exclude=.git --exclude=.venv --exclude=venv --exclude=build \
    --exclude=dist --exclude='*.egg-info' --exclude=__pycache__ --exclude='.*_cache' . |
    { mkdir "$BUILD/src" && tar -C "$BUILD/src" -x; }
mkdir -p "$PREFIX"
# System site packages: python3-lgpio comes from apt (no compiler needed).
[ -x "$PREFIX/venv/bin/python" ] || python3 -m venv --system-site-packages "$PREFIX/venv"
PIP=("$PREFIX/venv/bin/python" -m pip --disable-pip-version-check -q)
"${PIP[@]}" wheel --no-deps -w "$BUILD/dist" "$BUILD/src"
WHEEL=$(echo "$BUILD"/dist/switch16_unit-*.whl)
echo "   pip install -c $CONSTRAINTS $(basename "$WHEEL")${EXTRA:+[$EXTRA]}"
"${PIP[@]}" install -c "$CONSTRAINTS" "$WHEEL${EXTRA:+[$EXTRA]}"
"${PIP[@]}" install --no-deps --force-reinstall "$WHEEL" # the same version, newer code
rm -rf "$PREFIX/src"                                       # left by earlier installers
install -d "$PREFIX/doc" "$(dirname "$BIN_LINK")"
install -m 0644 "$SRC/hardware/INSTALL.md" "$SRC/hardware/WIRING.md" \
    "$SRC/hardware/WIRING.svg" "$PREFIX/doc/"
ln -sfn /opt/switch16/venv/bin/switch16 "$BIN_LINK"

echo "== configuration"
if [ ! -f "$CONF" ]; then
    install -D -m 0644 "$SRC/hardware/unit.toml" "$CONF"
    echo "   installed the reference configuration as $CONF (edit pins there)"
else
    echo "   keeping $CONF"
fi
"$PREFIX/venv/bin/switch16" check-config "$CONF"

echo "== saved games in $STATE (group switch16)"
# systemd's StateDirectory= keeps the owner and mode; created here so that a fresh
# install can be inspected before the first start.
install -d -m 0750 "$STATE"
if [ -z "$ROOT" ]; then chown switch16:switch16 "$STATE"; fi

echo "== I2C at 400 kHz and the PCA9548 multiplexer ($BOOT_CONFIG)"
REBOOT=0
LINES=("dtparam=i2c_arm=on,i2c_arm_baudrate=400000" "dtoverlay=i2c-mux,pca9548,addr=0x70")
missing=()
for line in "${LINES[@]}"; do
    grep -qxF "$line" "$BOOT_CONFIG" 2>/dev/null || missing+=("$line")
done
if [ "${#missing[@]}" -gt 0 ]; then
    mkdir -p "$(dirname "$BOOT_CONFIG")" && touch "$BOOT_CONFIG"
    # Finish an unterminated last line; then open an [all] section unless the last
    # section already is [all], so a [pi4] or [cm4] filter above cannot swallow ours.
    if [ -s "$BOOT_CONFIG" ] && [ -n "$(tail -c 1 "$BOOT_CONFIG")" ]; then echo >>"$BOOT_CONFIG"; fi
    section=$(grep -E '^[[:space:]]*\[' "$BOOT_CONFIG" | tail -n 1 | tr -d '[:space:]' || true)
    {
        echo "# Switch 16 (hardware/install.sh)"
        if [ -n "$section" ] && [ "$section" != "[all]" ]; then echo "[all]"; fi
        printf '%s\n' "${missing[@]}"
    } >>"$BOOT_CONFIG"
    REBOOT=1
fi
mkdir -p "$(dirname "$MODULES")"
grep -qx 'i2c-dev' "$MODULES" 2>/dev/null || echo i2c-dev >>"$MODULES"

echo "== service"
install -D -m 0644 "$SRC/hardware/systemd/switch16.service" "$UNIT_FILE"
systemctl daemon-reload
systemctl enable switch16.service
if [ "$REBOOT" -eq 1 ]; then
    echo "Done. Reboot once to enable I2C and the multiplexer: sudo reboot"
else
    systemctl restart switch16.service
    echo "Done (service restarted). Logs: journalctl -u switch16 -f"
fi
echo "Then check the build (hardware/INSTALL.md): sudo systemctl stop switch16; switch16 selftest"
