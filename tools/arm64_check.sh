#!/usr/bin/env bash
# The maker's path on arm64, on a Debian x86-64 machine as root (hardware/INSTALL.md,
# "For maintainers: the arm64 check"): a Raspberry-Pi-OS-like bookworm arm64 root made
# with debootstrap from the archive this machine's apt uses, booted under systemd-nspawn
# through qemu-user-static, where hardware/install.sh runs as shipped (install, then the
# update path) and the service runs under real systemd on the mock backend.
#
#   sudo tools/arm64_check.sh [--no-groups] [--cache DIR] [--keep]
#
# --no-groups  the image has no gpio/spi groups (i2c-tools adds i2c): install.sh must
#              create them for the service to start.
# --cache DIR  keep the downloaded packages and the bootstrapped root in DIR and start
#              from them next time (default: from scratch, nothing kept).
# --keep       leave the root and the logs in the work directory for a look.
#
# Needs: debootstrap qemu-user-static binfmt-support systemd-container, the Debian
# archive (apt) and PyPI (pip, inside the root). ~17 minutes on 2 cores, ~12 with --cache.
set -euo pipefail

GROUPS_IN_IMAGE=1
CACHE=
KEEP=0
while [ $# -gt 0 ]; do
    case $1 in
    --no-groups) GROUPS_IN_IMAGE=0 ;;
    --cache)
        CACHE=${2:?--cache needs a directory}
        shift
        ;;
    --keep) KEEP=1 ;;
    *)
        echo "arm64_check.sh: unknown argument '$1' (--no-groups, --cache DIR, --keep)" >&2
        exit 2
        ;;
    esac
    shift
done

SRC=$(cd "$(dirname "$0")/.." && pwd)
SUITE=bookworm
# Raspberry Pi OS Lite has these; gcc is left out on purpose (install.sh must bring it).
BASE=systemd,systemd-sysv,dbus,python3,ca-certificates,sudo,iproute2
START=$(date +%s)
step() { echo "[$(($(date +%s) - START))s] == $*"; }
fail() {
    echo "arm64_check.sh: FAIL: $*" >&2
    exit 1
}
pass() { echo "   ok: $*"; }

[ "$(id -u)" -eq 0 ] || fail "run as root (debootstrap, binfmt, systemd-nspawn)"
for tool in debootstrap systemd-nspawn nsenter update-binfmts; do
    command -v "$tool" >/dev/null ||
        fail "no $tool: apt-get install debootstrap qemu-user-static binfmt-support systemd-container"
done

step "binfmt: aarch64 programs through qemu-user-static"
[ -e /proc/sys/fs/binfmt_misc/register ] || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
update-binfmts --enable qemu-aarch64 2>/dev/null || true
grep -q '^flags: .*F' /proc/sys/fs/binfmt_misc/qemu-aarch64 2>/dev/null ||
    fail "binfmt qemu-aarch64 is not registered with the F flag (apt-get install qemu-user-static binfmt-support)"
pass "$(head -2 /proc/sys/fs/binfmt_misc/qemu-aarch64 | tr '\n' ' ')"

step "the archive this machine's apt uses"
# One-line sources (deb [opts] URI SUITE ...) and deb822 stanzas (Types/URIs/Suites):
# the first deb URI of a main suite (a suite name without '-', not -updates/-security).
MIRROR=$(
    {
        cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
            sed -E 's/\[[^]]*\]//' | awk '$1 == "deb" && $3 !~ /-/ { print $2 }'
        cat /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '
            /^[[:space:]]*$/ { if (deb && uri && main) print uri; deb = uri = main = "" ; next }
            tolower($1) == "types:" { for (i = 2; i <= NF; i++) if ($i == "deb") deb = 1 }
            tolower($1) == "uris:" { uri = $2 }
            tolower($1) == "suites:" { for (i = 2; i <= NF; i++) if ($i !~ /-/) main = 1 }
            tolower($1) == "enabled:" && tolower($2) == "no" { deb = 0 }
            END { if (deb && uri && main) print uri }'
    } | head -n 1
)
[ -n "$MIRROR" ] || fail "no deb line or stanza with a main suite in /etc/apt/sources.list{,.d}"
pass "$MIRROR"

WORK=$(mktemp -d /var/tmp/switch16-arm64.XXXXXX)
ROOT=$WORK/root
NSPAWN=
LEADER=
# shellcheck disable=SC2317 # called by the trap
cleanup() {
    if [ -n "$LEADER" ] && [ -d "/proc/$LEADER" ]; then kill -KILL "$LEADER" 2>/dev/null || true; fi
    if [ -n "$NSPAWN" ]; then wait "$NSPAWN" 2>/dev/null || true; fi
    if [ "$KEEP" -eq 1 ]; then echo "kept: $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT

step "debootstrap --arch=arm64 $SUITE ($BASE)"
debootstrap_root() {
    local log=$WORK/debootstrap.log
    debootstrap --arch=arm64 --variant=minbase --include="$BASE" "$@" >"$log" 2>&1 ||
        fail "debootstrap (the last lines of $log):$(tail -n 5 "$log")"
}
if [ -n "$CACHE" ]; then
    mkdir -p "$CACHE"
    key=$(echo "$SUITE $BASE $MIRROR" | md5sum | cut -c1-12)
    if [ -f "$CACHE/root-$key.tar" ]; then
        mkdir "$ROOT" && tar -C "$ROOT" -xf "$CACHE/root-$key.tar"
        pass "the bootstrapped root from $CACHE/root-$key.tar"
    else
        [ -f "$CACHE/debs-$key.tgz" ] ||
            debootstrap_root --make-tarball="$CACHE/debs-$key.tgz" "$SUITE" "$WORK/debs" "$MIRROR"
        debootstrap_root --unpack-tarball="$CACHE/debs-$key.tgz" "$SUITE" "$ROOT" "$MIRROR"
        tar -C "$ROOT" -cf "$CACHE/root-$key.tar" .
    fi
else
    debootstrap_root "$SUITE" "$ROOT" "$MIRROR"
fi
[ "$(chroot "$ROOT" uname -m)" = aarch64 ] || fail "the root's programs do not run as aarch64"
pass "$(chroot "$ROOT" python3 --version) on $(chroot "$ROOT" uname -m)"

step "Raspberry Pi OS Lite look-alike: user pi (sudo), groups, /boot/firmware/config.txt"
in_root() { chroot "$ROOT" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin "$@"; }
echo switch16 >"$ROOT/etc/hostname"
pi_groups=sudo
if [ "$GROUPS_IN_IMAGE" -eq 1 ]; then
    for group in gpio i2c spi; do in_root groupadd --system "$group"; done
    pi_groups=sudo,gpio,i2c,spi
fi
in_root useradd --create-home --shell /bin/bash --groups "$pi_groups" pi
echo 'pi ALL=(ALL) NOPASSWD: ALL' >"$ROOT/etc/sudoers.d/010_pi-nopasswd"
chmod 0440 "$ROOT/etc/sudoers.d/010_pi-nopasswd"
mkdir -p "$ROOT/boot/firmware"
# Raspberry Pi OS Bookworm's config.txt as flashed (its comments shortened).
cat >"$ROOT/boot/firmware/config.txt" <<'EOF'
# For more options and information see http://rptl.io/configtxt
#dtparam=i2c_arm=on
#dtparam=i2s=on
#dtparam=spi=on
dtparam=audio=on
camera_auto_detect=1
display_auto_detect=1
auto_initramfs=1
dtoverlay=vc4-kms-v3d
max_framebuffers=2
disable_fw_kms_setup=1
arm_64bit=1
disable_overscan=1
arm_boost=1

[cm4]
otg_mode=1

[cm5]
dtoverlay=dwc2,dr_mode=host
EOF
cp "$ROOT/boot/firmware/config.txt" "$WORK/config.txt.stock"
# A harness detail, not the maker's path: where this machine reaches PyPI through a
# proxy with its own CA, the root needs this machine's CA bundle.
if [ -f /etc/ssl/certs/ca-certificates.crt ]; then
    # Kept by a later update-ca-certificates; added to the bundle now (running that
    # under qemu takes minutes).
    cp /etc/ssl/certs/ca-certificates.crt "$ROOT/usr/local/share/ca-certificates/host-bundle.crt"
    cat /etc/ssl/certs/ca-certificates.crt >>"$ROOT/etc/ssl/certs/ca-certificates.crt"
fi
# The checkout, as `git clone` would leave it (without .git: the installer ignores it).
mkdir "$ROOT/home/pi/switch16"
tar -C "$SRC" -c --exclude=.git --exclude=.venv --exclude=venv --exclude=build --exclude=dist \
    --exclude='*.egg-info' --exclude=__pycache__ --exclude='.*_cache' . |
    tar -C "$ROOT/home/pi/switch16" -x
in_root chown -R pi:pi /home/pi/switch16
pass "pi in $pi_groups; $(grep -c . "$ROOT/boot/firmware/config.txt") config.txt lines"

# The booted root: systemd as PID 1 in its own namespaces; commands enter them.
boot() {
    local log=$WORK/boot-$1.log
    setsid systemd-nspawn -D "$ROOT" --boot --register=no --keep-unit --quiet \
        --resolv-conf=copy-host --machine=switch16 </dev/null >"$log" 2>&1 &
    NSPAWN=$!
    for _ in $(seq 60); do
        LEADER=$(pgrep -P "$NSPAWN" | head -n 1 || true)
        [ -z "$LEADER" ] || break
        sleep 1
    done
    [ -n "$LEADER" ] || fail "systemd-nspawn did not start ($log)"
    local state=
    for _ in $(seq 180); do
        state=$(in_boot systemctl is-system-running 2>/dev/null || true)
        case $state in running | degraded) break ;; esac
        sleep 1
    done
    case $state in running | degraded) ;; *) fail "the container did not finish booting: '$state' ($log)" ;; esac
    # degraded: units that need credentials fail under qemu-user (not ours)
    pass "booted ($state: $(in_boot systemctl --failed --plain --no-legend | awk '{print $1}' | tr '\n' ' '))"
}
in_boot() {
    nsenter --target "$LEADER" --all /usr/bin/env -i \
        PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"
}
as_pi() { in_boot runuser -u pi -- /usr/bin/env HOME=/home/pi "$@"; }
shut_down() {
    in_boot systemctl poweroff >/dev/null 2>&1 || true
    for _ in $(seq 120); do
        [ -d "/proc/$NSPAWN" ] || break
        sleep 1
    done
    [ ! -d "/proc/$NSPAWN" ] || kill -KILL "$LEADER" 2>/dev/null || true
    wait "$NSPAWN" 2>/dev/null || true
    NSPAWN=''
    LEADER=''
}
install_run() {
    local log=$WORK/install-$1.log
    # As `sudo bash …` from pi would, but without sudo: a set-user-ID program does not
    # run through binfmt without its C flag, which this check leaves alone.
    in_boot env --chdir=/home/pi SUDO_USER=pi \
        bash /home/pi/switch16/hardware/install.sh --force >"$log" 2>&1 ||
        fail "install.sh ($1) failed; its last lines:$(echo && tail -n 25 "$log")"
    sed 's/^/   | /' "$log" | grep -E '^   \| (==|   .*(Raspberry|Python|--force|restarted|keeping|installed the))|Done' || true
}
service_settles() {
    local show=
    for _ in $(seq 240); do
        show=$(in_boot systemctl show switch16 -p ActiveState --value)
        [ "$show" != active ] || break
        sleep 1
    done
    [ "$show" = active ] || fail "switch16 is '$show', not active:$(echo && in_boot journalctl -u switch16 --no-pager | tail -n 20)"
    sleep 30
    show=$(in_boot systemctl show switch16 -p ActiveState -p SubState -p NRestarts -p WatchdogUSec)
    echo "   ${show//$'\n'/ }"
    grep -qx ActiveState=active <<<"$show" || fail "switch16 not active after 30 s"
    grep -qx NRestarts=0 <<<"$show" || fail "switch16 restarted (watchdog or crash)"
    grep -qx WatchdogUSec=10s <<<"$show" || fail "the watchdog is not set"
    pass "switch16.service active, watchdog 10 s, no restart after 30 s$1"
}

step "boot 1 (systemd-nspawn -b)"
boot 1

step "install.sh as shipped, as root for pi (SUDO_USER; --force: not a Raspberry Pi)"
install_run 1
grep -q "reboot once" "$WORK/install-1.log" || fail "no reboot prompt after adding the config.txt lines"
for line in "dtparam=i2c_arm=on,i2c_arm_baudrate=400000" "dtoverlay=i2c-mux,pca9548,addr=0x70"; do
    [ "$(grep -cxF "$line" "$ROOT/boot/firmware/config.txt")" = 1 ] || fail "config.txt: '$line' not once"
done
[ "$(tail -n 3 "$ROOT/boot/firmware/config.txt" | head -n 1)" = "[all]" ] || fail "config.txt: no [all] before the lines"
head -c "$(stat -c %s "$WORK/config.txt.stock")" "$ROOT/boot/firmware/config.txt" |
    cmp -s - "$WORK/config.txt.stock" || fail "config.txt: the stock lines changed"
pass "config.txt: the stock file, then [all] and each line once"
ids=$(in_boot id switch16)
for group in gpio i2c spi; do grep -q "($group)" <<<"$ids" || fail "switch16 is not in $group: $ids"; done
pass "$ids"
for package in gcc python3-dev python3-venv i2c-tools; do
    in_boot dpkg -s "$package" >/dev/null 2>&1 || fail "package $package not installed"
done
pass "packages: gcc python3-dev python3-venv i2c-tools (python3-lgpio: not in this archive)"

step "the firmware: aarch64 wheels and builds"
version=$(as_pi switch16 --version) || fail "switch16 --version"
pass "$version"
# shellcheck disable=SC2016 # expanded in the root
in_boot sh -c 'for f in /opt/switch16/venv/lib/python3*/site-packages/*.dist-info/WHEEL; do
        d=${f%/WHEEL}; d=${d##*/}; printf "   %-32s %s\n" "${d%.dist-info}" "$(sed -n "s/^Tag: //p" "$f" | head -n 1)"
    done' | tee "$WORK/wheels.txt"
for name in lgpio spidev pillow; do
    grep -qiE "^   $name-.*(aarch64|linux_aarch64)" "$WORK/wheels.txt" || fail "no aarch64 $name in the venv"
done
pass "lgpio, spidev (built here) and pillow are aarch64"
checked=$(as_pi switch16 check-config /etc/switch16/unit.toml) || fail "check-config: $checked"
pass "$(head -n 1 <<<"$checked")"

step "60 s of switch16 run --hal mock as the service user (4 bots)"
in_boot install -d -o switch16 -g switch16 /var/tmp/switch16-mock
status=0
in_boot runuser -u switch16 -- timeout 60 /opt/switch16/venv/bin/switch16 run --hal mock \
    --config /etc/switch16/unit.toml --state-dir /var/tmp/switch16-mock \
    --seats expert,expert,expert,expert --seed 16 >"$WORK/mock.log" 2>&1 || status=$?
[ "$status" = 124 ] || fail "switch16 run stopped early ($status):$(echo && tail -n 15 "$WORK/mock.log")"
grep -q "stopped" "$WORK/mock.log" || fail "switch16 run did not stop cleanly on SIGTERM"
actions=$(in_boot sh -c 'cat /var/tmp/switch16-mock/current.jsonl /var/tmp/switch16-mock/games/*.jsonl 2>/dev/null' | grep -c '"action"' || true)
[ "$actions" -gt 0 ] || fail "the journal holds no action"
replayed=$(as_pi sh -c 'switch16 replay /var/tmp/switch16-mock/current.jsonl') || fail "replay: $replayed"
pass "$actions actions journalled; replay: $(head -n 2 <<<"$replayed" | tr -s '\n ' ' ')"

step "systemd-analyze verify"
in_boot systemd-analyze verify /etc/systemd/system/switch16.service 2>&1 | tee "$WORK/verify.log" | sed 's/^/   /'
[ "${PIPESTATUS[0]}" -eq 0 ] || fail "systemd-analyze verify"
pass "systemd-analyze verify switch16.service"

step "the mock backend as a drop-in; reboot"
mkdir -p "$ROOT/etc/systemd/system/switch16.service.d"
printf '[Service]\nEnvironment=SWITCH16_HAL=mock\n' >"$ROOT/etc/systemd/system/switch16.service.d/mock.conf"
shut_down
boot 2
service_settles " (booted)"

step "the update path: install.sh again, the service running"
echo "# the maker's edit" >>"$ROOT/etc/switch16/unit.toml"
old=$(readlink "$ROOT/opt/switch16/venv")
pid=$(in_boot systemctl show switch16 -p MainPID --value)
install_run 2
grep -q "keeping /etc/switch16/unit.toml" "$WORK/install-2.log" || fail "the config was not kept"
tail -n 1 "$ROOT/etc/switch16/unit.toml" | grep -qx "# the maker's edit" || fail "the maker's edit is lost"
new=$(readlink "$ROOT/opt/switch16/venv")
if [ "$new" = "$old" ] || [ -e "$ROOT/opt/switch16/$old" ]; then fail "venv: $old -> $new"; fi
[ "$(in_boot systemctl show switch16 -p MainPID --value)" != "$pid" ] || fail "the service was not restarted"
pass "config kept, venv $old -> $new, service restarted"
for line in "dtparam=i2c_arm=on,i2c_arm_baudrate=400000" "dtoverlay=i2c-mux,pca9548,addr=0x70"; do
    [ "$(grep -cxF "$line" "$ROOT/boot/firmware/config.txt")" = 1 ] || fail "config.txt: '$line' twice"
done
grep -q "reboot once" "$WORK/install-2.log" || fail "the reboot prompt is lost (the multiplexer is not live)"
service_settles " (updated)"
shut_down

step "PASS in $(($(date +%s) - START)) s: install.sh as shipped on Debian $SUITE arm64 (groups in the image: $GROUPS_IN_IMAGE)"
