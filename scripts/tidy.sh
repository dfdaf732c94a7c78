#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs clang-tidy (clang-tidy 14, Debian 12's) with the checked-in .clang-tidy over every .cpp file git tracks under
# core/, one per core in parallel, with the compile commands of a configured build tree (default build/dev).
# Fails, printing them, when clang-tidy reports any warning (what CI runs).
# usage: scripts/tidy.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."

build=${1:-build/dev}
if ! command -v clang-tidy >/dev/null; then
    echo "scripts/tidy.sh: clang-tidy is not installed (scripts/install-deps.sh installs it)" >&2
    exit 2
fi
if [ ! -f "$build/compile_commands.json" ]; then
    echo "scripts/tidy.sh: no $build/compile_commands.json (configure it first, e.g. cmake --preset dev)" >&2
    exit 2
fi

mapfile -t files < <(git ls-files 'core/*.cpp')
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# Each file's diagnostics go to a file of their own, so parallel runs do not interleave. Every warning counts as an
# error; -Wno-unknown-warning-option keeps gcc-only warning flags in the compile commands from stopping clang.
status=0
printf '%s\n' "${files[@]}" | xargs -P "$(nproc)" -I{} sh -c \
    'clang-tidy -p "$1" --quiet --warnings-as-errors="*" --extra-arg=-Wno-unknown-warning-option "$2" \
        >"$3/$(printf %s "$2" | tr / _).log" 2>&1' \
    _ "$build" {} "$out" || status=1

failed=0
for log in "$out"/*.log; do
    # clang's own "N warnings generated." counts are noise; anything else is a finding.
    if grep -v -E '^[0-9]+ (warning|error)s?( and [0-9]+ (warning|error)s?)? generated\.$' "$log" | grep -q .; then
        grep -v -E '^[0-9]+ (warning|error)s?( and [0-9]+ (warning|error)s?)? generated\.$' "$log"
        failed=$((failed + 1))
    fi
done
if [ "$status" -ne 0 ] || [ "$failed" -ne 0 ]; then
    echo "scripts/tidy.sh: clang-tidy reports findings in $failed of ${#files[@]} files" >&2
    exit 1
fi
echo "clang-tidy: ${#files[@]} core/ files clean"
