#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Times StructScope against SOB's own evaluator on SOB's published image responses, side by side, in rounds:
# `report --sob`, `import` then `report --store`, and `evaluate.py --bootstrap-samples 0` (docs/performance.md).
# usage: scripts/compare-sob-evaluate.sh SOB_CHECKOUT [ROUNDS] [STRUCTSCOPE]
#   SOB_CHECKOUT: a copy of JigsawStack/sob with data/images_responses and evaluate.py (evaluate.py needs
#   python3-jsonschema); STRUCTSCOPE defaults to build/release/app/structscope.
set -euo pipefail
cd "$(dirname "$0")/.."

sob=${1:?usage: scripts/compare-sob-evaluate.sh SOB_CHECKOUT [ROUNDS] [STRUCTSCOPE]}
rounds=${2:-3}
bin=$(realpath "${3:-build/release/app/structscope}")
files=("$sob"/data/images_responses/*.jsonl)
[ -f "${files[0]}" ] || { echo "no $sob/data/images_responses/*.jsonl" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

seconds() { /usr/bin/time -f %e "$@" >/dev/null 2>"$work/time" || { cat "$work/time" >&2; exit 1; }; tail -n 1 "$work/time"; }
for round in $(seq 1 "$rounds"); do
    rm -f "$work"/store.structscope*
    sob_report=$(seconds "$bin" report --sob --format json "${files[@]}")
    import=$(seconds "$bin" import --format sob --modality image --store "$work/store.structscope" "${files[@]}")
    report=$(seconds "$bin" report --store "$work/store.structscope" --format json)
    # Its summaries go to a scratch folder, so that the checkout's published ones stay as they are.
    evaluate=$(cd "$sob" && seconds /usr/bin/python3 evaluate.py data/images_responses --modality image \
        --bootstrap-samples 0 --output-root "$work/evaluation")
    awk -v r="$round" -v a="$sob_report" -v b="$import" -v c="$report" -v e="$evaluate" -v l="$(cut -d' ' -f1 /proc/loadavg)" \
        'BEGIN { printf "round %d: report --sob %.2f s | import %.2f s + report %.2f s | evaluate.py %.2f s | %.1fx, %.1fx | load %s\n", r, a, b, c, e, e / a, e / (b + c), l }'
done
