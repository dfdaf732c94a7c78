#!/usr/bin/env bash
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
cmake --preset dev -DSTRUCTSCOPE_WERROR=$werror >/dev/null
cmake --build --preset dev
ctest --preset dev "$@"
