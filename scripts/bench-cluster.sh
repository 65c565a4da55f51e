#!/usr/bin/env bash
# Nuvie through nginx on 1 node and on 3 (scripts/serve-cluster.sh --release, the log in PostgreSQL), the
# rows vs-peer.sh measures: req/s, p99 and, per request, the CPU the nodes, nginx and PostgreSQL spent.
# On one two-core machine more nodes cannot add throughput; what it shows is what each node costs.
#
#   scripts/bench-cluster.sh [--nodes "1 3"] [--seconds 10]
#
# Each request carries one of 64 users' tokens in turn, so nginx's hash on Authorization spreads them
# over the nodes. Build first: swift build -c release --product nuvie
set -uo pipefail
cd "$(dirname "$0")/.."
counts="1 3" secs=10
while [ $# -gt 0 ]; do
  case "$1" in
    --nodes) counts=$2; shift 2 ;;
    --seconds) secs=$2; shift 2 ;;
    *) echo "bench-cluster.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ -x .build/release/nuvie ] || { echo "build first: swift build -c release --product nuvie" >&2; exit 2; }
command -v wrk >/dev/null || scripts/apt-install.sh wrk
work=$(mktemp -d /tmp/bench-cluster.XXXXXX); chmod 755 "$work"
cluster=""
cleanup() { [ -n "$cluster" ] && { kill -TERM "$cluster" 2>/dev/null; wait "$cluster" 2>/dev/null; }; rm -rf "$work"; }
trap cleanup EXIT

cat >"$work/users.lua" <<'LUA'
-- GET the path given as WRK_PATH, or POST a rating when it is "rate", as 64 users in turn.
local films = {1,2,3,5,6,7,10,11,16,17,19,21,25,29,32,34,36,39,47,50,62,95,104,110,111,141,150,153,160,165}
local tokens = {}
for line in io.lines(os.getenv("TOKENS")) do tokens[#tokens + 1] = line end
local path = os.getenv("WRK_PATH")
local n = 0
request = function()
  n = n + 1
  local h = {["Authorization"] = "Bearer " .. tokens[(n % #tokens) + 1]}
  if path ~= "rate" then return wrk.format("GET", path, h) end
  h["Content-Type"] = "application/json"
  return wrk.format("POST", "/movies/" .. films[(n % #films) + 1] .. "/rate", h, string.format('{"rating":%d}', (math.floor(n / #tokens) % 5) + 1))
end
LUA

# CPU ticks (1/100 s) of the nodes, nginx and PostgreSQL, every thread included.
ticks() {
  local dir=$1 total=0 pid
  for pid in $(cat "$dir"/node-*/server.pid 2>/dev/null) $(pgrep -f "nginx.*$dir") $(pgrep -u postgres); do
    [ -r "/proc/$pid/stat" ] && total=$((total + $(awk '{print $14 + $15}' "/proc/$pid/stat")))
  done
  echo "$total"
}
# measure DIR PORT PATH CONNECTIONS -> "req/s p99_ms non2xx cpu_ms_per_request"
measure() {
  local dir=$1 port=$2 before after
  export WRK_PATH=$3 TOKENS=$work/tokens
  wrk -t2 -c"$4" -d3s -s "$work/users.lua" "http://127.0.0.1:$port" >/dev/null 2>&1
  before=$(ticks "$dir")
  wrk -t2 -c"$4" -d"${secs}s" --latency -s "$work/users.lua" "http://127.0.0.1:$port" >"$work/wrk.out" 2>&1
  after=$(ticks "$dir")
  awk -v cpu=$((after - before)) -v secs="$secs" '
    /Requests\/sec/{r=$2} /Non-2xx/{e=$NF}
    $1=="99%"{v=$2; u=1; if (v ~ /us$/) u=0.001; else if (v ~ /ms$/) u=1; else if (v ~ /s$/) u=1000; sub(/[a-z]+$/,"",v); p=v*u}
    END{printf "%.0f %.1f %d %.3f\n", r, p, e+0, (r > 0 ? cpu * 10 / (r * secs) : 0)}' "$work/wrk.out"
}

printf '%-6s %-28s %10s %9s %7s %14s\n' nodes endpoint "req/s" "p99 ms" non-2xx "CPU ms/req"
for nodes in $counts; do
  dir=$work/cluster-$nodes port=$(scripts/free-port.sh)
  NUVIE_RATE_LIMIT_PER_MINUTE=0 scripts/serve-cluster.sh --product nuvie --nodes "$nodes" --port "$port" --dir "$dir" --release >"$work/cluster-$nodes.out" 2>&1 &
  cluster=$!
  for _ in $(seq 900); do
    grep -q "cluster ready" "$work/cluster-$nodes.out" && break
    kill -0 "$cluster" 2>/dev/null || { echo "the cluster did not start:" >&2; tail -20 "$work/cluster-$nodes.out" >&2; exit 1; }
    sleep 1
  done
  for i in $(seq 64); do
    curl -fsS -X POST "127.0.0.1:$port/auth/login" -H 'Content-Type: application/json' -d "{\"provider\":\"dev\",\"user_identifier\":\"movielens-$i\"}" |
      python3 -c 'import json,sys;print(json.load(sys.stdin)["access_token"])'
  done >"$work/tokens"
  for path in /movies/1 "/feed/activities?limit=20" "/movies/search?q=star" rate; do
    read -r r p e c <<<"$(measure "$dir" "$port" "$path" 64)"
    printf '%-6s %-28s %10s %9s %7s %14s\n' "$nodes" "$path" "$r" "$p" "$e" "$c"
  done
  kill -TERM "$cluster"; wait "$cluster" 2>/dev/null; cluster=""
done
