#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs the Debian package on a clean Debian 12 (bookworm) root and checks that it works there:
# `apt-get install ./structscope_*.deb` resolves from the package's Depends alone (no Recommends), and as a
# normal user without a display `structscope --version`, `structscope demo --out DIR` (report.md,
# report.html, PNG and SVG charts, no missing-font warnings) and `structscope check --suite orderbench`
# succeed; then the installed desktop entry and AppStream metainfo pass their validators, and the MIME type of
# store files is installed.
#
# Not run by CI: it needs root (debootstrap, chroot, mount) and a Debian mirror on the network, and takes a
# few minutes. Run it by hand after changing the packaging (packaging/CMakeLists.txt, install rules).
#
#   scripts/verify-deb.sh [MIRROR]
#
# MIRROR: a Debian archive URL; by default the first Debian URI in this machine's apt sources.
# STRUCTSCOPE_DEB: the package to test (default: the newest build/package/structscope_*.deb, which
#   scripts/package.sh writes). STRUCTSCOPE_CHROOT: the clean root (default /var/tmp/deb12-clean).
# The first run debootstraps a pristine minbase root into $STRUCTSCOPE_CHROOT.base; every run copies it
# afresh to $STRUCTSCOPE_CHROOT, so no run sees what an earlier one installed. The root is left in place
# afterwards for a look (the demo output is in $STRUCTSCOPE_CHROOT/home/tester/demo).
set -euo pipefail
cd "$(dirname "$0")/.."

root=${STRUCTSCOPE_CHROOT:-/var/tmp/deb12-clean}
base=$root.base
user=tester

die() { echo "verify-deb: $*" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || die "needs root (debootstrap, chroot, mount)"

deb=${STRUCTSCOPE_DEB:-$(ls -1t build/package/structscope_*.deb 2>/dev/null | head -n 1)}
[ -f "$deb" ] || die "no package: run scripts/package.sh first (or set STRUCTSCOPE_DEB)"

mirror=${1:-}
if [ -z "$mirror" ]; then
    # The first source that serves bookworm itself (not -security): deb822 stanzas (one per paragraph of a
    # .sources file), else one-line entries (deb [options] URI bookworm …). /dev/null: awk never reads stdin.
    deb822=(/dev/null) oneline=(/dev/null)
    for f in /etc/apt/sources.list.d/*.sources; do [ -f "$f" ] && deb822+=("$f"); done
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do [ -f "$f" ] && oneline+=("$f"); done
    mirror=$(awk 'BEGIN { RS = "" }
        /Suites:[^\n]*bookworm([ \t\n]|$)/ && !/bookworm-security/ && match($0, /URIs:[ \t]*[^ \t\n]+/) {
            uri = substr($0, RSTART, RLENGTH); sub(/URIs:[ \t]*/, "", uri); print uri; exit }' "${deb822[@]}")
    [ -n "$mirror" ] || mirror=$(awk '$1 == "deb" {
            for (i = 2; i < NF; i++) if ($i ~ /:\/\// && $(i + 1) == "bookworm") { print $i; exit } }' "${oneline[@]}")
    [ -n "$mirror" ] || die "no Debian mirror in this machine's apt sources: pass one as MIRROR"
fi

mounts=()
unmount_all() {
    local i
    for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
        umount "${mounts[i]}" 2>/dev/null || umount -l "${mounts[i]}" 2>/dev/null || true
    done
    mounts=()
}
trap unmount_all EXIT
trap 'exit 130' INT TERM
mount_into() { # TYPE SOURCE TARGET
    mount -t "$1" "$2" "$3"
    mounts+=("$3")
}
# Anything still mounted under a root (an interrupted earlier run) must go before the root is deleted.
clear_mounts() {
    local m
    for m in $(findmnt -rn -o TARGET | grep -E "^$1(/|$)" | sort -r); do
        umount "$m" 2>/dev/null || umount -l "$m"
    done
}

if [ ! -f "$base/.verify-deb-complete" ]; then
    command -v debootstrap >/dev/null || { apt-get update -qq && apt-get install -y -qq debootstrap >/dev/null; }
    echo "== debootstrap bookworm (minbase) into $base"
    clear_mounts "$base"
    rm -rf "$base"
    debootstrap --variant=minbase bookworm "$base" "$mirror" >"$base.log" 2>&1 ||
        die "debootstrap failed, see $base.log"
    touch "$base/.verify-deb-complete"
fi

echo "== fresh copy of the clean root: $root"
clear_mounts "$root"
rm -rf "$root"
cp -a "$base" "$root"
rm -f "$root/.verify-deb-complete"
cp /etc/resolv.conf "$root/etc/resolv.conf"
# The mirror given, not whatever the base root was made with.
echo "deb $mirror bookworm main" >"$root/etc/apt/sources.list"
debname=$(basename "$deb")
# apt-get installs a local file only by a path that ends in .deb.
cp "$deb" "$root/tmp/structscope.deb"
mount_into proc proc "$root/proc"
mount_into devpts devpts "$root/dev/pts"

# A clean environment: nothing from this shell (DISPLAY, QT_QPA_PLATFORM, …) leaks into the checks.
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
    DEBIAN_FRONTEND=noninteractive "$@"; }
as_user() { chroot --userspec="$uid:$gid" "$root" /usr/bin/env -i PATH=/usr/bin:/bin HOME=/home/$user \
    LANG=C.UTF-8 "$@"; }

results=()
failed=0
summary() {
    unmount_all
    echo
    echo "== verify-deb summary: $debname ($(du -k "$deb" | cut -f1) KiB) on Debian 12 minbase"
    echo "Depends: $(dpkg-deb -f "$deb" Depends)"
    printf '%s\n' "${results[@]}"
    if [ "$failed" -eq 0 ]; then
        echo "verify-deb: PASS (${#results[@]} checks; the demo output is in $root/home/$user/demo)"
        exit 0
    fi
    echo "verify-deb: FAIL ($failed of ${#results[@]} checks failed)"
    exit 1
}
check() { # NAME COMMAND…: runs the command, records PASS or FAIL
    local name=$1
    shift
    echo "-- $name"
    if "$@"; then
        results+=("PASS  $name")
    else
        results+=("FAIL  $name")
        failed=$((failed + 1))
    fi
}

echo "== apt-get install ./$debname (Depends only, no Recommends)"
in_root apt-get update -qq
install_log=$root/var/log/verify-deb-install.log
check_install() {
    in_root apt-get install -y --no-install-recommends /tmp/structscope.deb >"$install_log" 2>&1 ||
        { tail -n 30 "$install_log"; return 1; }
    grep -E '^[0-9]+ upgraded, [0-9]+ newly installed' "$install_log"
}
check "install the package" check_install
[ "$failed" -eq 0 ] || summary # nothing else can be checked
in_root useradd -m -U "$user"
uid=$(in_root id -u "$user")
gid=$(in_root id -g "$user")

version=$(dpkg-deb -f "$deb" Version)
check_version() {
    local printed
    printed=$(as_user structscope --version) || return 1
    echo "$printed"
    [ "$printed" = "structscope $version" ]
}
check "structscope --version prints $version" check_version

demo_log=$root/home/$user/demo.log
check_demo() {
    as_user sh -c 'cd && structscope demo --out demo' >"$demo_log" 2>&1
    local status=$?
    tail -n 5 "$demo_log"
    if grep -Ei 'QFontDatabase|could not (load|find).*plugin|qt\.qpa' "$demo_log"; then
        echo "the demo printed Qt font or platform warnings (above)"
        return 1
    fi
    return $status
}
check "structscope demo --out DIR (no display)" check_demo

check_outputs() {
    local dir=$root/home/$user/demo ok=0 f
    for f in report.md report.html charts/{leaderboard,heatmap,venn,comparison}.{png,svg}; do
        if [ ! -s "$dir/$f" ]; then
            echo "missing or empty: $f"
            ok=1
        fi
    done
    for f in "$dir"/charts/*.png; do
        [ "$(head -c 8 "$f" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || { echo "not a PNG: $f"; ok=1; }
    done
    for f in "$dir"/charts/*.svg; do
        grep -q '<svg' "$f" || { echo "not an SVG: $f"; ok=1; }
        # Every chart has a title and axis or legend labels: an SVG without <text> rendered no text.
        grep -q '<text' "$f" || { echo "no text in $f"; ok=1; }
    done
    return $ok
}
check "demo wrote report.md, report.html, PNG and SVG charts" check_outputs

check "structscope check --suite orderbench (built-in suites)" as_user structscope check --suite orderbench

echo "== validators for the installed desktop entry and metainfo"
in_root apt-get install -y -qq --no-install-recommends appstream desktop-file-utils >/dev/null
check "appstreamcli validate --no-net (installed metainfo)" \
    in_root appstreamcli validate --no-net /usr/share/metainfo/io.github.structscope.StructScope.metainfo.xml
check_desktop() {
    local out
    out=$(in_root desktop-file-validate /usr/share/applications/io.github.structscope.StructScope.desktop 2>&1)
    local status=$?
    [ -z "$out" ] || { echo "$out"; return 1; }
    return $status
}
check "desktop-file-validate (installed desktop entry)" check_desktop
check "shared-mime-info XML of store files installed" \
    test -s "$root/usr/share/mime/packages/io.github.structscope.StructScope.xml"

summary
