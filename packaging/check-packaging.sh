#!/usr/bin/env bash
# Validates the packaging files (ctest: packaging_appstream, packaging_desktop).
#   check-packaging.sh appstream|desktop PACKAGING_DIR APP_ID PROJECT_VERSION
# Exits 77 (ctest's SKIP_RETURN_CODE) when the validator is not installed.
set -uo pipefail
what=$1 dir=$2 id=$3 version=$4
metainfo=$dir/$id.metainfo.xml
desktop=$dir/$id.desktop
status=0
fail() { echo "FAIL: $*" >&2; status=1; }

case $what in
appstream)
    if ! command -v appstreamcli >/dev/null; then
        echo "SKIP: appstreamcli is not installed (Debian package: appstream)"
        exit 77
    fi
    appstreamcli validate --no-net --explain "$metainfo" || fail "appstreamcli validate"
    grep -q "<id>$id</id>" "$metainfo" || fail "$metainfo: the component id is not $id"
    grep -q "<launchable type=\"desktop-id\">$id.desktop</launchable>" "$metainfo" ||
        fail "$metainfo: the launchable is not $id.desktop"
    # The newest release comes first and must be the project's version.
    newest=$(grep -o '<release version="[^"]*"' "$metainfo" | head -n 1 | cut -d'"' -f2)
    [ "$newest" = "$version" ] ||
        fail "$metainfo: newest release is '$newest', the project is $version (add a <release>)"
    ;;
desktop)
    if ! command -v desktop-file-validate >/dev/null; then
        echo "SKIP: desktop-file-validate is not installed (Debian package: desktop-file-utils)"
        exit 77
    fi
    out=$(desktop-file-validate "$desktop" 2>&1) || fail "desktop-file-validate"
    [ -z "$out" ] || { echo "$out"; fail "desktop-file-validate printed hints or errors"; }
    grep -qx 'Exec=structscope' "$desktop" || fail "$desktop: Exec is not the installed binary"
    grep -qx 'Icon=structscope' "$desktop" || fail "$desktop: Icon is not structscope"
    # Every PNG the package installs is the size its name says (PNG header: width, height at 16..23).
    for png in "$dir"/icons/structscope-*.png; do
        size=${png##*-}
        size=${size%.png}
        read -r w h < <(od -An -tu1 -j16 -N8 "$png" |
            awk '{ print $1*16777216 + $2*65536 + $3*256 + $4, $5*16777216 + $6*65536 + $7*256 + $8 }')
        [ "$w" = "$size" ] && [ "$h" = "$size" ] || fail "$png is ${w}x${h}, not ${size}x${size}"
    done
    ;;
*)
    echo "usage: $0 appstream|desktop PACKAGING_DIR APP_ID PROJECT_VERSION" >&2
    exit 2
    ;;
esac
[ $status -eq 0 ] && echo "OK: $what"
exit $status
