#!/usr/bin/env bash
# The failover test (Tests/EndToEndTests/FailoverTests.swift) for N cycles (default 100): three Savry
# nodes behind nginx, 32 writers, and the primary PostgreSQL killed with kill -9 and its synchronous
# standby promoted, each cycle, the lost server rebuilt as the new one's standby. Prints the figures
# RELIABILITY.md records: writes acknowledged, lost and doubled, and the time from promotion (and
# from the primary's death) to the first acknowledged write on the promoted server.
#
#   scripts/failover-cycles.sh [N]
set -euo pipefail
cd "$(dirname "$0")/.."
cycles=${1:-100}
[[ "$cycles" =~ ^[1-9][0-9]*$ ]] || { echo "failover-cycles.sh: N is a positive number" >&2; exit 2; }
scripts/ensure-deps.sh
swift build --build-tests
out=$(mktemp)
trap 'rm -f "$out"' EXIT
status=0
FAILOVER_CYCLES=$cycles scripts/postgres.sh run swift test --skip-build --filter FailoverTests 2>&1 | tee "$out" || status=$?
grep "failover figures" "$out" || true
exit "$status"
