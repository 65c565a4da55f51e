#!/usr/bin/env bash
# A new Nuvie node joining a long log in PostgreSQL from an empty data directory: the log of LOG_DIR
# (a data directory, such as the 1 M-event one `nuvie-bench rebuild --events 1000000 --log-dir DIR`
# leaves, with its demo master key) is copied into a throwaway PostgreSQL server once, then, each run,
# a node starts on an empty directory and is timed to its first answer (its copy of the log complete,
# and what it copied folded meanwhile) and to /health 200 (its read models folded to the log's head),
# with its peak resident memory (VmHWM).
#
#   scripts/bench-join.sh --log-dir /tmp/log1m [--runs 2] [--binary .build/release/nuvie]
set -euo pipefail
cd "$(dirname "$0")/.."
log_dir="" runs=2 bin=.build/release/nuvie
while [ $# -gt 0 ]; do
  case "$1" in
    --log-dir) log_dir=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --binary) bin=$2; shift 2 ;;
    *) echo "bench-join.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ -n "$log_dir" ] && [ -f "$log_dir/demo-master-key" ] || { echo "bench-join.sh: --log-dir is a data directory with its demo-master-key" >&2; exit 2; }
[ -x "$bin" ] || { echo "build first: swift build -c release --product nuvie" >&2; exit 2; }
work=$(mktemp -d /tmp/bench-join.XXXXXX); chmod 755 "$work"
node=""
cleanup() {
  [ -n "$node" ] && { kill "$node" 2>/dev/null; wait "$node" 2>/dev/null; }
  scripts/postgres.sh stop "$work/pg" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

server=$(scripts/postgres.sh start "$work/pg")
url=${server%%/postgres\?*}/join?sslmode=disable
psql -q "$server" -c "CREATE DATABASE \"join\""
export NUVIE_MASTER_KEY
NUVIE_MASTER_KEY=$(cat "$log_dir/demo-master-key")
export NUVIE_JWT_SECRET=bench-join-secret-bench-join-secret NUVIE_ADMIN_TOKEN=bench-join-admin-token-bench-join-admin
"$bin" log-copy --data-dir "$log_dir" --to "$url" --log-level warning

port=$(scripts/free-port.sh)
for run in $(seq "$runs"); do
  rm -rf "$work/node"
  start=$(date +%s.%N) first=""
  "$bin" serve --data-dir "$work/node" --port "$port" --log-url "$url" --log-level warning >"$work/node.log" 2>&1 &
  node=$!
  while :; do
    code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/health" || true)
    now=$(date +%s.%N)
    [ -z "$first" ] && [ "$code" != 000 ] && first=$(echo "$now - $start" | bc)
    [ "$code" = 200 ] && break
    kill -0 "$node" 2>/dev/null || { echo "the node stopped:" >&2; tail "$work/node.log" >&2; exit 1; }
    sleep 0.25
  done
  peak=$(awk '/VmHWM/ {print int($2 / 1024)}' "/proc/$node/status")
  printf 'run %d: first answer %.1f s, healthy %.1f s, VmHWM %d MB\n' "$run" "$first" "$(echo "$now - $start" | bc)" "$peak"
  kill "$node"; wait "$node" 2>/dev/null || true; node=""
done
