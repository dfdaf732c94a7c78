#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Validates the packaging files (ctest: packaging_appstream, packaging_desktop, packaging_mime).
#   check-packaging.sh appstream|desktop|mime PACKAGING_DIR APP_ID PROJECT_VERSION
# Exits 77 (ctest's SKIP_RETURN_CODE) when the validator is not installed.
set -uo pipefail
what=$1 dir=$2 id=$3 version=$4
metainfo=$dir/$id.metainfo.xml
desktop=$dir/$id.desktop
mimexml=$dir/$id.xml
# The MIME type of a store file: the desktop entry opens it, the metainfo provides it, the shared-mime-info XML
# defines it.
mimetype=application/x-structscope-store
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
    grep -q "<mediatype>$mimetype</mediatype>" "$metainfo" || fail "$metainfo: <provides> lacks <mediatype>$mimetype"
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
    # %f: a file manager hands over the store file that was opened (structscope PATH).
    grep -qx 'Exec=structscope %f' "$desktop" || fail "$desktop: Exec is not the installed binary with %f"
    grep -qx "MimeType=$mimetype;" "$desktop" || fail "$desktop: MimeType is not $mimetype;"
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
mime)
    if ! command -v xmllint >/dev/null; then
        echo "SKIP: xmllint is not installed (Debian package: libxml2-utils)"
        exit 77
    fi
    xmllint --noout "$mimexml" || fail "xmllint: $mimexml is not well-formed XML"
    ns=http://www.freedesktop.org/standards/shared-mime-info
    xpath() { xmllint --xpath "$1" "$mimexml" 2>/dev/null; }
    [ "$(xpath "count(/*[local-name()='mime-info' and namespace-uri()='$ns'])")" = 1 ] ||
        fail "$mimexml: the root is not <mime-info xmlns=\"$ns\">"
    [ "$(xpath "count(//*[local-name()='mime-type'])")" = 1 ] || fail "$mimexml: not exactly one <mime-type>"
    [ "$(xpath "string(//*[local-name()='mime-type']/@type)")" = "$mimetype" ] ||
        fail "$mimexml: the type is not $mimetype"
    [ "$(xpath "string(//*[local-name()='glob']/@pattern)")" = "*.structscope" ] ||
        fail "$mimexml: no glob *.structscope"
    [ "$(xpath "count(//*[local-name()='comment' and not(@*)])")" = 1 ] || fail "$mimexml: no untranslated <comment>"
    # The magic: SQLite's header string, then the store's application_id at offset 68 (core/store/migrations.h).
    appid=$(grep -o 'kSqliteApplicationId = 0x[0-9A-Fa-f]*' "$dir/../core/store/migrations.h" | cut -d' ' -f3)
    [ -n "$appid" ] || fail "core/store/migrations.h: kSqliteApplicationId not found"
    [ "$(xpath "string(//*[local-name()='match'][@offset='0']/*[local-name()='match'][@type='big32'][@offset='68']/@value)")" = "$appid" ] ||
        fail "$mimexml: the magic does not match application_id $appid at offset 68 under SQLite's header"
    # update-mime-database (shared-mime-info) compiles it as a desktop would; it reports mistakes but exits 0.
    if command -v update-mime-database >/dev/null; then
        tmp=$(mktemp -d)
        trap 'rm -rf "$tmp"' EXIT
        mkdir -p "$tmp/mime/packages"
        cp "$mimexml" "$tmp/mime/packages/"
        [ -f /usr/share/mime/packages/freedesktop.org.xml ] && cp /usr/share/mime/packages/freedesktop.org.xml "$tmp/mime/packages/"
        out=$(update-mime-database "$tmp/mime" 2>&1 | grep -v -e '^Note that' -e '^set by the' -e '^environment' \
            -e '^be able to find' -e '^directories currently' -e '^- ' -e '^$')
        [ -z "$out" ] || { echo "$out"; fail "update-mime-database reported problems"; }
        grep -q "^[0-9]*:$mimetype:\*\.structscope\$" "$tmp/mime/globs2" || fail "update-mime-database: no glob in globs2"
        grep -qa "$mimetype" "$tmp/mime/magic" || fail "update-mime-database: no magic for $mimetype"
    else
        echo "note: update-mime-database is not installed (Debian package: shared-mime-info); compiled check skipped"
    fi
    ;;
*)
    echo "usage: $0 appstream|desktop|mime PACKAGING_DIR APP_ID PROJECT_VERSION" >&2
    exit 2
    ;;
esac
[ $status -eq 0 ] && echo "OK: $what"
exit $status
