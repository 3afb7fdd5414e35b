#!/usr/bin/env bash
# Quick start, command 1: installs missing Debian packages, builds the demo (examples/demo.cpp)
# with the cpu preset and runs it.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh

ufx_install_packages
cmake --preset cpu
cmake --build --preset cpu --target example_demo
echo
exec build/cpu/examples/demo
