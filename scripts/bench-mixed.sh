#!/usr/bin/env bash
# Reads beside writes, Nuvie alone: the last row of ../shared/bench/vs-peer.sh (56 connections
# reading /movies/1, or --read PATH, while 8 others rate films as 64 users in turn, 10 s), after one 10 s row of
# ratings on 64 connections as vs-peer.sh runs before it, on a fresh demo data directory. Each run
# prints both rates and the ratings' p50/p99; then the mean append, commit and fold batch of the
# runs (from /metrics before and after), and the server's CPU over them, in all and by thread (NIO's
# event loops, the log's writer, the projection runner's queue).
#
# --friends N makes the reader a friend of N demo users who do not rate in the runs (movielens-101…),
# whose imported ratings fill its activity feed.
#
# --alone first runs each load by itself (8 connections rating, then 56 reading, 10 s each) and
# prints its rate and the server's CPU a request, in all and by thread: what a rating and a read cost.
#
#   scripts/bench-mixed.sh [--runs 2] [--binary .build/release/nuvie] [--read '/feed/activities?limit=20' --friends 10] [--alone]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=2 bin=.build/release/nuvie read=/movies/1 friends=0 alone=0
while [ $# -gt 0 ]; do
  case "$1" in
    --alone) alone=1; shift ;;
    --runs) runs=$2; shift 2 ;;
    --binary) bin=$2; shift 2 ;;
    --read) read=$2; shift 2 ;;
    --friends) friends=$2; shift 2 ;;
    *) echo "bench-mixed.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ -x "$bin" ] || { echo "build first: swift build -c release --product nuvie" >&2; exit 2; }
command -v wrk >/dev/null || scripts/apt-install.sh wrk
work=$(mktemp -d /tmp/bench-mixed.XXXXXX)
port=$(scripts/free-port.sh)
NUVIE_RATE_LIMIT_PER_MINUTE=0 "$bin" serve --data-dir "$work/data" --host 127.0.0.1 --port "$port" >"$work/nuvie.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$work"' EXIT
url=http://127.0.0.1:$port
for _ in $(seq 300); do curl -fsS -o /dev/null "$url/health" 2>/dev/null && break; sleep 1; done
for i in $(seq 64); do
  curl -fsS -X POST "$url/auth/login" -H 'Content-Type: application/json' -d "{\"provider\":\"dev\",\"user_identifier\":\"movielens-$i\"}" |
    python3 -c 'import json,sys;print(json.load(sys.stdin)["access_token"])'
done >"$work/tokens"
cat >"$work/rate.lua" <<'LUA'
local films = {1,2,3,5,6,7,10,11,16,17,19,21,25,29,32,34,36,39,47,50,62,95,104,110,111,141,150,153,160,165}
local tokens = {}
for line in io.lines(os.getenv("RATE_TOKENS")) do tokens[#tokens + 1] = line end
local n = 0
request = function()
  n = n + 1
  local h = {["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. tokens[(n % #tokens) + 1]}
  return wrk.format("POST", "/movies/" .. films[(n % #films) + 1] .. "/rate", h, string.format('{"rating":%d}', (math.floor(n / #tokens) % 5) + 1))
end
LUA
export RATE_TOKENS=$work/tokens
reader="Authorization: Bearer $(head -1 "$work/tokens")"
login() {
  curl -fsS -X POST "$url/auth/login" -H 'Content-Type: application/json' -d "{\"provider\":\"dev\",\"user_identifier\":\"movielens-$1\"}" |
    python3 -c 'import json,sys;r=json.load(sys.stdin);print(r["access_token"], r["user"]["user_id"])'
}
read -r _ reader_id <<<"$(login 1)"
for i in $(seq 101 $((100 + friends))); do
  read -r friend friend_id <<<"$(login "$i")"
  curl -fsS -o /dev/null -X POST "$url/friends/requests" -H "$reader" -H 'Content-Type: application/json' -d "{\"user_id\":$friend_id}"
  curl -fsS -o /dev/null -X POST "$url/friends/requests/$reader_id/accept" -H "Authorization: Bearer $friend"
done
[ "$friends" -eq 0 ] || echo "the reader's friends: $friends, their activities: $(curl -fsS "$url/feed/activities" -H "$reader" | python3 -c 'import json,sys;print(json.load(sys.stdin)["total_count"])')"
wrk -t2 -c64 -d10s -s "$work/rate.lua" "$url/" >/dev/null
curl -fsS "$url/metrics" >"$work/before"
ticks() { awk '{print $14 + $15}' "/proc/$server/stat"; }
# CPU ticks by thread name, summed over the threads that share one (a thread that exits between two
# readings is left out of the second: Dispatch retires its idle workers).
threads() { for t in /proc/$server/task/*; do printf '%s %s\n' "$(tr ' ' _ <"$t/comm")" "$(awk '{print $14 + $15}' "$t/stat")"; done |
  awk '{a[$1] += $2} END {for (k in a) print k, a[k]}' | sort; }
# alone LABEL WRK_ARGS...: one load by itself, its rate and the server's CPU a request.
alone() {
  local label=$1 t0 b rate; shift
  t0=$(ticks) b=$(threads)
  rate=$(wrk -t1 -d10s "$@" | awk '/Requests\/sec/{print $2}')
  echo "$label alone: $rate/s, server CPU $(awk -v t="$(( $(ticks) - t0 ))" -v r="$rate" 'BEGIN{printf "%.0f", t / 100 / 10 / r * 1e6}') µs a request"
  join <(echo "$b") <(threads) | awk -v r="$rate" '$3 - $2 > 5 {printf "  %s: %.0f µs\n", $1, ($3 - $2) / 100 / 10 / r * 1e6}'
}
if [ "$alone" -eq 1 ]; then
  alone ratings -c8 -s "$work/rate.lua" "$url/"
  alone reads -c56 -H "$reader" "$url$read"
  curl -fsS "$url/metrics" >"$work/before"
fi
started=$(ticks)
threads_before=$(threads)
for run in $(seq "$runs"); do
  wrk -t1 -c8 -d10s --latency -s "$work/rate.lua" "$url/" >"$work/ratings" 2>&1 &
  raters=$!
  reads=$(wrk -t1 -c56 -d10s -H "$reader" "$url$read" | awk '/Requests\/sec/{print $2}')
  wait $raters
  awk -v run="$run" -v reads="$reads" '/Requests\/sec/{r=$2} $1=="50%"{p50=$2} $1=="99%"{p99=$2}
    END{printf "run %s: reads/s %s, ratings/s %s, rating p50 %s p99 %s\n", run, reads, r, p50, p99}' "$work/ratings"
done
echo "server CPU: $(awk -v t="$(( $(ticks) - started ))" -v s="$((runs * 10))" 'BEGIN{printf "%.2f", t / 100 / s}') cores"
join <(echo "$threads_before") <(threads) | awk -v s="$((runs * 10))" '$3 - $2 > s {printf "  %s: %.2f cores\n", $1, ($3 - $2) / 100 / s}'
curl -fsS "$url/metrics" >"$work/after"
python3 - "$work/before" "$work/after" <<'PY'
import sys
def load(path):
    values = {}
    for line in open(path):
        if line.startswith('#') or ' ' not in line: continue
        key, value = line.rsplit(' ', 1)
        values[key] = float(value)
    return values
before, after = load(sys.argv[1]), load(sys.argv[2])
for name, label in [("nuvie_log_append_duration", "append ms"), ("nuvie_log_commit_duration", "commit ms"),
                    ("nuvie_projection_batch_duration", "fold batch ms"), ("nuvie_log_commit_batch_appends", "appends a commit")]:
    count = after.get(name + "_count", 0) - before.get(name + "_count", 0)
    total = after.get(name + "_sum", 0) - before.get(name + "_sum", 0)
    scale = 1 if name.endswith("appends") else 1000
    if count: print(f"{label}: {total / count * scale:.2f} (mean of {count:.0f})")
PY
