#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Renders the PNG icons the package installs from resources/icons/structscope.svg. Run after changing
# the SVG and commit the PNGs (the build needs no SVG renderer). Needs rsvg-convert (librsvg2-bin).
set -euo pipefail
cd "$(dirname "$0")/.."
for size in 16 32 48 64 128 256; do
    rsvg-convert -w "$size" -h "$size" resources/icons/structscope.svg -o "packaging/icons/structscope-$size.png"
done
