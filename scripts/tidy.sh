#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs clang-tidy (clang-tidy 14, Debian 12's) with the checked-in .clang-tidy over the .cpp files git tracks under
# core/, one per core in parallel, with the compile commands of a configured build tree (default build/dev).
# Fails, printing them, when clang-tidy reports any warning (what CI runs).
# usage: scripts/tidy.sh [--since REV] [BUILD_DIR]
#   --since REV: only the files whose findings can have changed since REV: those changed since, and those that
#   include, directly or through other core/ headers, a header changed since. Every file when the checks or the build
#   of core/ (.clang-tidy, this script, CMakePresets.json, the top-level or core/ CMakeLists.txt, a .cmake module)
#   changed since REV, or when REV is not in the history (a shallow clone). The other folders' CMakeLists.txt (tests,
#   app, ui) do not give a core/ file its flags.
set -euo pipefail
cd "$(dirname "$0")/.."

since=
if [ "${1:-}" = "--since" ]; then
    since=${2:?--since needs a revision}
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

mapfile -t all < <(git ls-files 'core/*.cpp')
files=("${all[@]}")
if [ -n "$since" ] && git rev-parse --verify --quiet "$since^{commit}" >/dev/null \
    && [ -z "$(git diff --name-only "$since" -- .clang-tidy scripts/tidy.sh CMakePresets.json CMakeLists.txt \
        core/CMakeLists.txt '*.cmake')" ]; then
    declare -A chosen=()
    declare -A seen=()
    mapfile -t headers < <(git diff --name-only --diff-filter=d "$since" -- 'core/*.h')
    while IFS= read -r f; do chosen[$f]=1; done < <(git diff --name-only --diff-filter=d "$since" -- 'core/*.cpp')
    # Core includes its headers as "folder/name.h": follow each changed header to the files that include it, and
    # the headers among them on to theirs.
    while [ "${#headers[@]}" -gt 0 ]; do
        header=${headers[0]}
        headers=("${headers[@]:1}")
        [ -n "${seen[$header]:-}" ] && continue
        seen[$header]=1
        while IFS= read -r includer; do
            case "$includer" in
                *.cpp) chosen[$includer]=1 ;;
                *.h) headers+=("$includer") ;;
            esac
        done < <(git grep -l -F "#include \"${header#core/}\"" -- 'core/*.cpp' 'core/*.h' || true)
    done
    files=()
    for f in "${all[@]}"; do
        [ -n "${chosen[$f]:-}" ] && files+=("$f")
    done
fi
if [ "${#files[@]}" -eq 0 ]; then
    echo "clang-tidy: none of the ${#all[@]} core/ files changed since $since"
    exit 0
fi
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
echo "clang-tidy: ${#files[@]} of ${#all[@]} core/ files checked, clean"
