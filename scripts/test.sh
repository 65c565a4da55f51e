#!/usr/bin/env bash
# Checks that every import is declared in Package.swift, builds everything (every product's binary
# included: the end-to-end tests run it) and runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-deps.sh
# chattr, for the tests of a filesystem that refuses writes.
command -v chattr >/dev/null || scripts/apt-install.sh e2fsprogs
scripts/check-imports.sh
swift build --build-tests
# The build leaves gigabytes of dirty pages; flushed now, the tests' own fsyncs (every durable append,
# every new user's data key) do not queue behind their writeback for seconds.
sync
# At most eight tests at once. Unbounded, all ~380 start together: every live test's server, demo
# import and first training at the same instant on two cores, and whole suites (the connection
# hardening tests, each with its own server) passed their 60 s limits before their first request.
# Measured beside a load of two kill-cycle runs: unbounded, 13-46 failures in three runs out of
# three; eight at a time, none, in 136 s.
# A throwaway PostgreSQL server (installed from Debian when missing) for the tests of the PostgreSQL
# log; removed afterwards.
# A failure's message is printed again at the end, where a log's tail shows it.
tests_said=$(mktemp)
trap 'rm -f "$tests_said"' EXIT
if ! SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=8 scripts/postgres.sh run swift test --skip-build 2>&1 | tee "$tests_said"; then
  echo "test.sh: the tests failed; what they recorded:" >&2
  grep -E -A4 "recorded an issue|error: |Fatal error|✘ Test run" "$tests_said" | tail -n 80 >&2
  exit 1
fi
scripts/fuzz.sh
scripts/openapi-clients.sh
# The operator console in headless Chromium (installed from Debian when missing), against every
# product's binary.
scripts/browser-tests.sh
