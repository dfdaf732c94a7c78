#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Formats every C++ file git tracks with the checked-in .clang-format (clang-format 14, Debian 12's).
# --check changes nothing and fails, naming the files, when one is not formatted (what CI runs).
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v clang-format >/dev/null; then
    echo "scripts/format.sh: clang-format is not installed (scripts/install-deps.sh installs it)" >&2
    exit 2
fi
mapfile -t files < <(git ls-files '*.cpp' '*.h')
case "${1:-}" in
    "")
        clang-format -i "${files[@]}"
        ;;
    --check)
        unformatted=()
        for f in "${files[@]}"; do
            clang-format --dry-run --Werror "$f" >/dev/null 2>&1 || unformatted+=("$f")
        done
        if [ ${#unformatted[@]} -gt 0 ]; then
            echo "Not formatted (run scripts/format.sh): ${unformatted[*]}" >&2
            exit 1
        fi
        echo "${#files[@]} C++ files formatted as .clang-format says"
        ;;
    *)
        echo "usage: scripts/format.sh [--check]" >&2
        exit 2
        ;;
esac
