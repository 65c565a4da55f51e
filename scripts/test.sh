#!/usr/bin/env bash
# Builds everything (the nuvie binary included: the end-to-end tests run it) and runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-deps.sh
swift build --build-tests
swift test --skip-build
scripts/fuzz.sh
