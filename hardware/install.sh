#!/usr/bin/env bash
# Install the Switch 16 firmware on a Raspberry Pi (Raspberry Pi OS Bookworm or later).
#
#   git clone <this repository> switch16 && sudo bash switch16/hardware/install.sh
#
# Re-running it upgrades the firmware and keeps /etc/switch16/unit.toml and the games.
set -euo pipefail

[ "$(id -u)" -eq 0 ] || { echo "install.sh: run as root (sudo bash hardware/install.sh)" >&2; exit 1; }
SRC=$(cd "$(dirname "$0")/.." && pwd)
PREFIX=/opt/switch16
CONF=/etc/switch16/unit.toml
BOOT_CONFIG=/boot/firmware/config.txt
[ -f "$BOOT_CONFIG" ] || BOOT_CONFIG=/boot/config.txt

echo "== packages"
apt-get update -q
apt-get install -y -q python3-venv python3-dev python3-lgpio i2c-tools swig liblgpio-dev

echo "== user and groups"
id switch16 >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin switch16
for group in gpio i2c spi; do
    getent group "$group" >/dev/null && usermod -aG "$group" switch16
done

echo "== firmware in $PREFIX"
mkdir -p "$PREFIX"
rm -rf "$PREFIX/src" && cp -a "$SRC" "$PREFIX/src"
# System site packages: python3-lgpio comes from apt (no compiler needed).
[ -x "$PREFIX/venv/bin/python" ] || python3 -m venv --system-site-packages "$PREFIX/venv"
"$PREFIX/venv/bin/pip" install -q --upgrade pip
"$PREFIX/venv/bin/pip" install -q "$PREFIX/src[pi]"

echo "== configuration"
if [ ! -f "$CONF" ]; then
    install -D -m 0644 "$SRC/hardware/unit.toml" "$CONF"
    echo "   installed the reference configuration as $CONF (edit pins there)"
else
    echo "   keeping $CONF"
fi
"$PREFIX/venv/bin/switch16" check-config "$CONF"

echo "== I2C at 400 kHz and the PCA9548 multiplexer ($BOOT_CONFIG)"
add_line() { grep -qxF "$1" "$BOOT_CONFIG" || { echo "$1" >>"$BOOT_CONFIG"; REBOOT=1; }; }
REBOOT=0
add_line "dtparam=i2c_arm=on,i2c_arm_baudrate=400000"
add_line "dtoverlay=i2c-mux,pca9548,addr=0x70"
grep -q '^i2c-dev' /etc/modules 2>/dev/null || echo i2c-dev >>/etc/modules

echo "== service"
install -m 0644 "$SRC/hardware/systemd/switch16.service" /etc/systemd/system/switch16.service
systemctl daemon-reload
systemctl enable switch16.service
if [ "$REBOOT" -eq 1 ]; then
    echo "Done. Reboot once to enable I2C and the multiplexer: sudo reboot"
else
    systemctl restart switch16.service
    echo "Done. Logs: journalctl -u switch16 -f"
fi
echo "Then check the build (hardware/INSTALL.md): sudo systemctl stop switch16; $PREFIX/venv/bin/switch16 selftest"
