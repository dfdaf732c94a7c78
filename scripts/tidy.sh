#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs clang-tidy (clang-tidy 14, Debian 12's) with the checked-in .clang-tidy over every .cpp file git tracks under
# core/, one per core in parallel, with the compile commands of a configured build tree (default build/dev).
# Fails, printing them, when clang-tidy reports any warning (what CI runs).
# usage: scripts/tidy.sh [--analyze-since REV] [BUILD_DIR]
#   --analyze-since REV: clang's static analyzer (the clang-analyzer-* checks, two thirds of clang-tidy's time) runs
#   only on the files changed since REV; every other check still runs on every file. Without it, or when REV is not
#   in the history (a shallow clone), the analyzer runs on every file.
set -euo pipefail
cd "$(dirname "$0")/.."

since=
if [ "${1:-}" = "--analyze-since" ]; then
    since=${2:?--analyze-since needs a revision}
    shift 2
fi
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
# The files the analyzer reads: all of them, or those changed since REV and those that include a header changed
# since REV (directly; core/ includes its headers as "folder/name.h").
analyze_all=1
declare -A analyzed=()
if [ -n "$since" ] && git rev-parse --verify --quiet "$since^{commit}" >/dev/null; then
    analyze_all=0
    while IFS= read -r f; do
        case "$f" in
            *.cpp) analyzed[$f]=1 ;;
            *.h)
                while IFS= read -r includer; do analyzed[$includer]=1; done \
                    < <(git grep -l -F "#include \"${f#core/}\"" -- 'core/*.cpp' || true)
                ;;
        esac
    done < <(git diff --name-only "$since" -- 'core/*.cpp' 'core/*.h')
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# Each file's diagnostics go to a file of their own, so parallel runs do not interleave. Every warning counts as an
# error; -Wno-unknown-warning-option keeps gcc-only warning flags in the compile commands from stopping clang.
status=0
deep=0
jobs=$(mktemp)
for f in "${files[@]}"; do
    if [ "$analyze_all" -eq 1 ] || [ -n "${analyzed[$f]:-}" ]; then
        printf '%s all\n' "$f" >>"$jobs"
        deep=$((deep + 1))
    else
        printf '%s fast\n' "$f" >>"$jobs"
    fi
done
xargs -P "$(nproc)" -L 1 sh -c \
    'checks=; [ "$4" = all ] || checks="--checks=-clang-analyzer-*"
    clang-tidy -p "$1" --quiet --warnings-as-errors="*" --extra-arg=-Wno-unknown-warning-option ${checks:+"$checks"} \
        "$3" >"$2/$(printf %s "$3" | tr / _).log" 2>&1' \
    _ "$build" "$out" <"$jobs" || status=1
rm -f "$jobs"

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
echo "clang-tidy: ${#files[@]} core/ files clean (the static analyzer on $deep of them)"
