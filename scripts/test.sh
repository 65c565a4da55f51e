#!/usr/bin/env bash
# Checks that every import is declared in Package.swift, builds everything (every product's binary
# included: the end-to-end tests run it) and runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-deps.sh
scripts/check-imports.sh
swift build --build-tests
swift test --skip-build
scripts/fuzz.sh
