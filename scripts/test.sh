#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds StructScope (dev preset) and runs every test. This is the README's test command and what CI runs.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
export QT_QPA_PLATFORM=${QT_QPA_PLATFORM:-offscreen}

# The store tests also run against PostgreSQL; start a throwaway server when we can.
if [ -z "${STRUCTSCOPE_TEST_PG:-}" ] && [ "$(id -u)" -eq 0 ]; then
    if url=$(scripts/start-test-postgres.sh); then
        export STRUCTSCOPE_TEST_PG="$url"
    else
        echo "note: no PostgreSQL test server; the PostgreSQL store tests will be skipped" >&2
    fi
fi

werror=OFF
[ -n "${CI:-}" ] && werror=ON

# STRUCTSCOPE_TEST_PRESET=asan builds and runs the very same tests with AddressSanitizer and
# UndefinedBehaviorSanitizer (what CI does); any leak, overflow or undefined behaviour fails the test.
preset=${STRUCTSCOPE_TEST_PRESET:-dev}
case "$preset" in
    dev) ;;
    asan)
        export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1}
        export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
        export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/tests/lsan.supp}
        ;;
    *)
        echo "scripts/test.sh: STRUCTSCOPE_TEST_PRESET must be dev or asan, not '$preset'" >&2
        exit 2
        ;;
esac
cmake --preset "$preset" -DSTRUCTSCOPE_WERROR=$werror -DSTRUCTSCOPE_BUILD_UI=ON >/dev/null
cmake --build --preset "$preset"
ctest --preset "$preset" "$@"

# File permissions do not stop root, so as root tst_store skips the tests of a store it may not write. Run them
# as an unprivileged system user (the whole suite only: extra arguments choose tests for ctest alone).
if [ "$(id -u)" -eq 0 ] && [ $# -eq 0 ]; then
    user=structscope-test
    id -u "$user" >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin "$user"
    binary=$PWD/build/$preset/tests/tst_store
    if ! runuser -u "$user" -- test -x "$binary"; then
        echo "note: $user cannot reach $binary (a parent folder is private); the unwritable-store tests ran as root only, skipped" >&2
    else
        scratch=$(mktemp -d)
        chown "$user" "$scratch"
        echo "tst_store unwritableStoreOpensReadOnly, as $user:"
        if ! (cd "$scratch" && runuser -u "$user" -- env -u STRUCTSCOPE_TEST_PG HOME="$scratch" TMPDIR="$scratch" \
                XDG_RUNTIME_DIR="$scratch" "$binary" unwritableStoreOpensReadOnly >"$scratch/out.txt" 2>&1) \
            || ! grep -q ', 0 failed, 0 skipped' "$scratch/out.txt"; then
            cat "$scratch/out.txt"
            echo "scripts/test.sh: tst_store unwritableStoreOpensReadOnly failed or skipped as $user" >&2
            exit 1
        fi
        grep '^Totals' "$scratch/out.txt"
        rm -rf "$scratch"
    fi
fi
