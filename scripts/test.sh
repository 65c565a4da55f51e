#!/usr/bin/env bash
# Checks that every import is declared in Package.swift, builds everything (every product's binary
# included: the end-to-end tests run it) and runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-deps.sh
scripts/check-imports.sh
swift build --build-tests
# The build leaves gigabytes of dirty pages; flushed now, the tests' own fsyncs (every durable append,
# every new user's data key) do not queue behind their writeback for seconds.
sync
swift test --skip-build
scripts/fuzz.sh
scripts/openapi-clients.sh
