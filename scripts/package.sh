#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds the Debian package: an optimised build without tests in build/package, then CPack.
# Writes build/package/structscope_<version>_<arch>.deb. Extra arguments go to the CMake configure step.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
cmake -S . -B build/package -G Ninja -DCMAKE_BUILD_TYPE=Release -DSTRUCTSCOPE_BUILD_TESTS=OFF "$@" >/dev/null
cmake --build build/package --target package -j "${STRUCTSCOPE_JOBS:-2}"
ls -1 build/package/structscope_*.deb
