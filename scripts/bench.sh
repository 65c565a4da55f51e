#!/usr/bin/env bash
# Every figure in BENCHMARKS.md: a release build, then each benchmark with 3 runs. Installs wrk
# (the HTTP load generator) when it is missing. Takes about 15 minutes on the 2-core machine.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-deps.sh
command -v wrk >/dev/null || scripts/apt-install.sh wrk
swift build -c release --product nuvie
swift build -c release --product nuvie-bench
nuvie=.build/release/nuvie
bench=.build/release/nuvie-bench
$nuvie eval --ratings demo/ml-latest-small/ratings.csv --split both --seed 42
$bench recommend --runs 3
$bench http --runs 3 --duration 10
$bench memory --seconds 60
scripts/bench-mixed.sh --runs 2 --binary "$nuvie"
$bench append --runs 3
scripts/postgres.sh run bash -c '"$0" shared-append --server-url "$ENGINE_TEST_POSTGRES_URL" --runs 3 --events 30000' "$bench"
$bench rebuild --runs 3
log1m=$(mktemp -d)
$bench rebuild --events 1000000 --runs 3 --log-dir "$log1m"
$bench as-of --runs 3 --samples 50
$bench as-of --events 1000000 --runs 3 --samples 30 --log-dir "$log1m"
$bench personal-data --runs 3
rm -rf "$log1m"
