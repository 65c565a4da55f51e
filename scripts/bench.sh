#!/usr/bin/env bash
# Every figure in BENCHMARKS.md: a release build, then each benchmark with 3 runs. Installs wrk
# (the HTTP load generator) when it is missing. Takes about 15 minutes on the 2-core machine.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-deps.sh
if ! command -v wrk >/dev/null; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq wrk >/dev/null
fi
swift build -c release --product nuvie
nuvie=.build/release/nuvie
$nuvie eval --ratings demo/ml-latest-small/ratings.csv --split temporal
$nuvie eval --ratings demo/ml-latest-small/ratings.csv --split random --seed 42
$nuvie bench recommend --runs 3
$nuvie bench http --runs 3 --duration 10
$nuvie bench append --runs 3
$nuvie bench rebuild --runs 3
log1m=$(mktemp -d)
$nuvie bench rebuild --events 1000000 --runs 3 --log-dir "$log1m"
$nuvie bench as-of --runs 3 --samples 50
$nuvie bench as-of --events 1000000 --runs 3 --samples 30 --log-dir "$log1m"
rm -rf "$log1m"
