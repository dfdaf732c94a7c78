#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs every Debian 12 package StructScope needs to build, test and run. Idempotent; needs root.
set -euo pipefail

packages=(
    build-essential cmake ninja-build ccache pkg-config git
    qt6-base-dev libqt6opengl6-dev qt6-charts-dev qt6-svg-dev qt6-tools-dev libgl-dev
    libqt6sql6-sqlite libqt6sql6-psql qt6-qpa-plugins
    nlohmann-json3-dev libvalijson-dev libsimdjson-dev libsqlite3-dev
    xvfb xauth
    python3   # scripts/check-layers.py
    clang libclang-rt-14-dev clang-format clang-tidy
    postgresql
    texlive-latex-base texlive-latex-recommended   # pdflatex and booktabs: tst_report compiles an exported LaTeX table
    dpkg-dev appstream desktop-file-utils libxml2-utils shared-mime-info   # the .deb's Depends (dpkg-shlibdeps); packaging validators
)

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
    echo "StructScope needs these Debian packages: ${missing[*]}" >&2
    echo "Run this script as root (or with sudo) to install them." >&2
    exit 1
fi
echo "Installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
# The postgresql package starts a system cluster; the tests run their own throwaway server.
