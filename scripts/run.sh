#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Sets everything up on a fresh Debian 12 machine and opens StructScope. Needs root for the packages.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release
app=build/release/app/structscope
if [ -z "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && [ -z "${QT_QPA_PLATFORM:-}" ]; then
    echo "Built $app, but there is no display to open it on (DISPLAY is not set)." >&2
    echo "Run it from a desktop session, or try: xvfb-run -a $app" >&2
    exit 1
fi
exec "$app" "$@"
